#include "harness/cli/batch_runs.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/cli_options.hpp"
#include "core/device_info.hpp"
#include "core/results.hpp"
#include "core/stats.hpp"
#include "harness/batch/batch_solve.hpp"

namespace apsp::harness {

std::string batch_shape_problem(const BatchShape& s) {
  if (s.graphs < 1 || s.graphs > kMaxBatchGraphs)
    return fmt::format("--graphs {} is not in [1, 2^36]", s.graphs);
  if (s.sizes != "fixed" && s.sizes != "molecules")
    return fmt::format("--sizes '{}' is not 'fixed' or 'molecules'", s.sizes);
  if (s.sizes == "fixed" && (s.n < 1 || s.n > kMaxBatchGraphVertices))
    return fmt::format("--n {}: a batch's graphs have 1 to {} vertices", s.n,
                       kMaxBatchGraphVertices);
  if (s.wmax < 1) return fmt::format("--batch-wmax {} is below 1", s.wmax);
  return "";
}

int shape_max_n(const BatchShape& s) { return s.sizes == "molecules" ? kMoleculeMaxN : s.n; }

GraphBatch make_batch(const BatchShape& s) {
  // Fixed sizes are the molecule generator clamped to one size, so that both shapes are the
  // same kind of graph (trees of degree at most 4 with rings) and gen_graph writes either.
  GraphBatch b = s.sizes == "molecules" ? molecule_batch(s.graphs, kMoleculeMeanN, kMoleculeSdN,
                                                         kMoleculeMinN, kMoleculeMaxN, s.seed)
                                        : molecule_batch(s.graphs, s.n, 1.0, s.n, s.n, s.seed);
  if (s.wmax > 1) {
    std::mt19937_64 rng(s.seed ^ 0x9e3779b97f4a7c15ull);
    std::uniform_int_distribution<int32_t> weight(1, s.wmax);
    b.weight.resize(b.src.size());
    for (int32_t& w : b.weight) w = weight(rng);
    b.weighted = true;
  }
  return b;
}

namespace {

const BatchVariant& batch_variant_named(const std::string& name) {
  if (const BatchVariant* v = find_batch_variant(name)) return *v;
  std::vector<std::string> names;
  for (const BatchVariant& v : batch_registry()) names.push_back(v.name);
  throw std::invalid_argument(
      fmt::format("no batched variant '{}' (with --graphs: {})", name, fmt::join(names, ", ")));
}

// "k=v,k=v" onto c; std::invalid_argument for a parameter or value v does not declare.
void apply_config_text(const BatchVariant& v, const std::string& text, Config& c) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const auto p =
        std::find_if(v.space.begin(), v.space.end(), [&](const Param& p) { return p.name == key; });
    int value = 0;
    try {
      value = eq == std::string::npos ? -1 : std::stoi(item.substr(eq + 1));
    } catch (const std::exception&) {
      value = -1;
    }
    if (p == v.space.end() ||
        std::find(p->values.begin(), p->values.end(), value) == p->values.end())
      throw std::invalid_argument(fmt::format("{} has no '{}'", v.name, item));
    c[key] = value;
    at = comma + 1;
  }
}

}  // namespace

BatchCase default_batch_case(const BatchVariant& v) {
  return {&v, v.defaults, config_name(v.name, v.defaults), "declared default"};
}

BatchCase parse_batch_case(const std::string& text) {
  const size_t open = text.find('[');
  const BatchVariant& v = batch_variant_named(text.substr(0, open));
  Config c = v.defaults;
  if (open != std::string::npos) {
    if (text.back() != ']') throw std::invalid_argument(fmt::format("'{}' lacks its ']'", text));
    apply_config_text(v, text.substr(open + 1, text.size() - open - 2), c);
  }
  const auto built = all_batch_configs(v);
  if (std::find(built.begin(), built.end(), c) == built.end())
    throw std::invalid_argument(fmt::format("{} is not compiled", config_name(v.name, c)));
  return {&v, c, config_name(v.name, c), "asked"};
}

std::vector<BatchCase> select_batch_cases(const std::string& variants,
                                          const std::vector<std::string>& configs) {
  std::vector<BatchCase> out;
  if (variants == "all" || (variants.empty() && configs.empty())) {
    for (const BatchVariant& v : batch_registry())
      if (v.target == Target::kDevice) out.push_back(default_batch_case(v));
  } else {
    size_t at = 0;
    while (at < variants.size()) {
      const size_t comma = std::min(variants.find(',', at), variants.size());
      out.push_back(default_batch_case(batch_variant_named(variants.substr(at, comma - at))));
      at = comma + 1;
    }
  }
  for (const std::string& text : configs) out.push_back(parse_batch_case(text));
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i].name == out[j].name)
        throw std::invalid_argument(fmt::format("{} is asked for twice", out[i].name));
  return out;
}

double batch_bytes(const GraphBatch& b, int64_t elements, BatchDistType type) {
  const double pointers = 3.0 * (b.graphs() + 1) * sizeof(int64_t);  // vertices, edges, offsets
  const double edges = static_cast<double>(b.src.size()) *
                       (2 * sizeof(int64_t) + (b.weighted ? sizeof(int32_t) : 0));
  return pointers + edges + static_cast<double>(elements) * bytes_of(type);
}

double batch_updates(const GraphBatch& b) {
  double sum = 0;
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const double n = static_cast<double>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
    sum += n * n * n;
  }
  return sum;
}

void add_batch_shape_options(CLI::App& app, std::string& sizes, int& wmax,
                             const std::string& molecules_help) {
  app.add_option("--sizes", sizes, "--graphs: 'fixed' " + molecules_help)
      ->check(CLI::IsMember(std::vector<std::string>{"fixed", "molecules"}));
  add_integer_option(app, "--batch-wmax", wmax, 1, 1 << 20,
                     "--graphs: edge weights drawn from 1..W (1: hop distances)");
}

void refuse_given_options(const CLI::App& app, const std::vector<const char*>& names,
                          const std::string& why) {
  for (const char* name : names) {
    const CLI::Option* option = app.get_option_no_throw(name);
    if (option && option->count() > 0)
      throw std::invalid_argument(fmt::format("{} does not apply to --graphs{}", name, why));
  }
}

}  // namespace apsp::harness
