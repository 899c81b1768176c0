// apsp: the contest-format solver. Reads an edge list (ARCHITECTURE.md), solves all pairs on the
// GPU (or on the CPU reference when there is none, or with --variant cpu), writes the V x V
// matrix. Built for speed at large V, where the I/O dominates: whole-file read and from_chars
// parsing, pinned host memory, async copies on one stream, to_chars output formatted by all
// cores while the previous batch is written. Exit codes: 0 done, 1 bad input or a failure
// (nothing written), 2 bad usage, 3 a GPU variant asked for and no device.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <future>
#include <memory>
#include <cstdio>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/device_buffer.hpp"
#include "core/edge_list.hpp"
#include "core/parallel.hpp"
#include "core/reference.hpp"
#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

constexpr int kExitFailed = 1, kExitUsage = 2, kExitNoDevice = 3;

using Clock = std::chrono::steady_clock;

// V from the header line, to start allocating before the parse; 0 when it does not look valid
// (the parser then reports the fault).
int peek_vertex_count(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos) return 0;
  int v = 0;
  const auto [p, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
  return ec == std::errc() && v > 0 && v <= 46340 ? v : 0;
}
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Timing {
  std::vector<std::pair<std::string, double>> steps;  // name, ms
  void add(std::string name, double ms) { steps.emplace_back(std::move(name), ms); }
};

// The variant and config `--variant auto` takes: the tuning database's best for this device
// model and the nearest tuned n, else sm90's defaults (the fastest variant as shipped).
NamedConfig pick_auto(const DeviceInfo& dev, int n, const std::string& db_path, std::string& why) {
  if (access(db_path.c_str(), R_OK) == 0) {
    try {
      const TuningDb db = TuningDb::load(db_path);
      // Entries an older build wrote with configs this one does not compile are left out.
      auto current = [](const TuningEntry& e) { return config_problem(e.variant, e.config).empty(); };
      if (const TuningEntry* best = db.best(DeviceModel::of(dev), "", n, current)) {
        why = fmt::format("tuned at n = {} in {}", best->n, db_path);
        return NamedConfig{find_variant(best->variant), best->config};
      }
      why = fmt::format("default: {} has no entry for this device model", db_path);
    } catch (const std::exception& e) {
      why = fmt::format("default: {} ignored ({})", db_path, e.what());
    }
  } else {
    why = "default: no tuning database";
  }
  const Variant* v = find_variant("sm90");
  return NamedConfig{v, v->defaults};
}

int run(int argc, char** argv) {
  std::string input, output, variant = "auto", config, db_path = "tuning.json";
  bool timing = false;
  int threads = 0;
  CLI::App app{"apsp: all-pairs shortest paths of an edge-list file.\n"
               "Input: 'V E', then E lines 'src dst w' (0-based, 0 <= w < 2^30-1). Output: V lines of\n"
               "V distances separated by one space; unreachable = 1073741823."};
  app.option_defaults()->always_capture_default();
  app.add_option("input", input, "edge-list file, or - for standard input")->required();
  app.add_option("-o,--output", output, "output file (written via a temporary file and a rename); default: standard output");
  app.add_option("--variant", variant, "auto (tuning database, else the fastest default), cpu, or a variant name");
  app.add_option("--config", config, "a config as apsp_bench prints it, e.g. 'sm90[tile=64,chunk=8]'");
  app.add_option("--db", db_path, "tuning database read by --variant auto");
  app.add_option("--threads", threads, "CPU threads for parsing, output and the CPU solver (0: all)")->check(CLI::Range(0, 4096));
  app.add_flag("--timing", timing, "print read, parse, H2D, solve, D2H and write times to stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "apsp: {} (see --help)\n", e.what());
    return kExitUsage;
  }

  std::optional<NamedConfig> chosen;
  try {
    if (!config.empty()) {
      chosen = parse_config(config);
      if (variant != "auto" && variant != chosen->variant->name)
        throw std::invalid_argument(fmt::format("--variant {} and --config {} disagree", variant, config));
      variant = chosen->variant->name;
    } else if (variant != "auto" && variant != "cpu") {
      chosen = parse_config(variant);
    }
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "apsp: {}\n", e.what());
    return kExitUsage;
  }
  const bool device = variant != "cpu" && has_device();
  if (!device && variant != "cpu" && variant != "auto") {
    fmt::print(stderr, "apsp: no CUDA device for variant {}; --variant cpu (or auto) solves on the CPU\n", variant);
    return kExitNoDevice;
  }

  Timing t;
  const auto start = Clock::now();
  // Creating the CUDA context and page-locking V*V*4 bytes take a few hundred milliseconds:
  // both run in the background while the input is read and parsed.
  std::future<void> context;
  if (device) context = std::async(std::launch::async, [] { APSP_CUDA_CHECK(cudaFree(nullptr)); });
  std::future<std::unique_ptr<PinnedBuffer<int32_t>>> pinned_future;
  EdgeList graph;
  size_t input_bytes = 0;
  try {
    auto t0 = Clock::now();
    const std::string text = read_whole_input(input);
    input_bytes = text.size();
    t.add("read", ms_since(t0));
    if (const int v = peek_vertex_count(text); device && v > 0) {
      pinned_future = std::async(std::launch::async, [&context, v] {
        context.wait();
        return std::make_unique<PinnedBuffer<int32_t>>(static_cast<size_t>(v) * v);
      });
    }
    t0 = Clock::now();
    graph = parse_edge_list(text, input == "-" ? "<stdin>" : input);
    t.add("parse", ms_since(t0));
  } catch (const InputError& e) {
    fmt::print(stderr, "apsp: {}\n", e.what());
    return kExitFailed;
  }
  const int n = graph.num_vertices;
  const size_t cells = static_cast<size_t>(n) * n;

  // The matrix lives in pinned memory when a GPU solves it, in a DistMatrix otherwise.
  std::unique_ptr<PinnedBuffer<int32_t>> pinned;
  std::optional<DistMatrix> host;
  MatrixView result;
  if (device) {
    const DeviceInfo dev = query_device();
    std::string why = "as asked";
    if (!chosen) chosen = pick_auto(dev, n, db_path, why);
    const Variant& v = *chosen->variant;
    if (const std::string reason = v.check(chosen->config, n, dev); !reason.empty()) {
      fmt::print(stderr, "apsp: {} cannot run at V = {}: {}\n", config_name(v.name, chosen->config), n, reason);
      return kExitFailed;
    }
    if (2 * matrix_bytes(n) > dev.memory_bytes) {
      fmt::print(stderr, "apsp: V = {} needs {:.1f} GB on {}, which has {:.1f} GB\n", n,
                 2 * matrix_bytes(n) / 1e9, dev.name, dev.memory_bytes / 1e9);
      return kExitFailed;
    }
    fmt::print(stderr, "apsp: solving with {} on {} ({})\n", config_name(v.name, chosen->config), dev.name, why);
    auto t0 = Clock::now();
    pinned = pinned_future.valid() ? pinned_future.get() : std::make_unique<PinnedBuffer<int32_t>>(cells);
    t.add("wait: context, pinned", ms_since(t0));
    t0 = Clock::now();
    fill_adjacency(graph, pinned->get());
    t.add("build matrix", ms_since(t0));
    DeviceBuffer<int32_t> d(cells);
    CudaStream stream;
    CudaEvent e0, e1, e2, e3;
    e0.record(stream.get());
    APSP_CUDA_CHECK(cudaMemcpyAsync(d.get(), pinned->get(), pinned->bytes(), cudaMemcpyHostToDevice, stream.get()));
    e1.record(stream.get());
    v.run(d.get(), n, chosen->config, stream.get(), nullptr);
    e2.record(stream.get());
    APSP_CUDA_CHECK(cudaMemcpyAsync(pinned->get(), d.get(), pinned->bytes(), cudaMemcpyDeviceToHost, stream.get()));
    e3.record(stream.get());
    stream.synchronize();
    t.add("H2D", elapsed_ms(e0, e1));
    t.add("solve", elapsed_ms(e1, e2));
    t.add("D2H", elapsed_ms(e2, e3));
    result = MatrixView{n, pinned->get()};
  } else {
    fmt::print(stderr, "apsp: {}: solving on the CPU ({} threads)\n",
               variant == "cpu" ? "--variant cpu" : "no CUDA device", threads > 0 ? threads : hardware_threads());
    auto t0 = Clock::now();
    host = DistMatrix::from_edges(graph);
    t.add("build matrix", ms_since(t0));
    t0 = Clock::now();
    floyd_warshall_blocked(*host, threads);
    t.add("solve (CPU)", ms_since(t0));
    result = host->view();
  }

  const auto t0 = Clock::now();
  try {
    if (output.empty()) {
      write_matrix(result, STDOUT_FILENO, threads);
    } else {
      AtomicFile out(output);
      write_matrix(result, out.fd(), threads);
      out.commit(/*sync=*/false);  // atomic against a crash of this program, not of the machine
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp: {}{}\n", output.empty() ? "standard output: " : "", e.what());
    return kExitFailed;
  }
  const double write_ms = ms_since(t0);
  t.add("write", write_ms);
  if (timing) {
    // Output size without formatting it twice: the digits of each value plus the separators.
    size_t out_bytes = 0;
    for (size_t i = 0; i < cells; ++i) {
      const int32_t x = result.data[i];
      out_bytes += 1 + (x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5
                        : x < 1000000 ? 6 : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10);
    }
    for (const auto& [name, ms] : t.steps) {
      std::string rate;
      if (name == "read" || name == "parse") rate = fmt::format("  {:.0f} MB/s", input_bytes / 1e3 / ms);
      if (name == "H2D" || name == "D2H") rate = fmt::format("  {:.1f} GB/s", cells * 4 / 1e6 / ms);
      if (name == "write") rate = fmt::format("  {:.0f} MB/s ({:.1f} MB)", out_bytes / 1e3 / ms, out_bytes / 1e6);
      fmt::print(stderr, "  {:<22} {:>9.1f} ms{}\n", name, ms, rate);
    }
    fmt::print(stderr, "  {:<22} {:>9.1f} ms  (V = {}, E = {})\n", "total", ms_since(start), n, graph.edges.size());
  }
  return 0;
}

}  // namespace
}  // namespace apsp

int main(int argc, char** argv) {
  try {
    return apsp::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp: %s\n", e.what());
    return 1;
  }
}
