#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <set>
#include <stdexcept>

#include "core/integer.hpp"
#include "variants/batch_variant.hpp"
#include "variants/variant.hpp"

namespace apsp {

const Variant* find_variant(const std::string& name) {
  for (const Variant& v : registry()) {
    if (v.name == name) return &v;
  }
  for (const Variant& v : runtime_variants()) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant& v : registry()) names.push_back(v.name);
  for (const Variant& v : runtime_variants()) names.push_back(v.name);
  return names;
}

std::vector<Config> enumerate_space(const std::vector<Param>& space, const Config& base) {
  std::vector<Config> out{base};
  for (const Param& p : space) {
    std::vector<Config> next;
    for (const Config& c : out) {
      for (int value : p.values) {
        Config d = c;
        d[p.name] = value;
        next.push_back(std::move(d));
      }
    }
    out = std::move(next);
  }
  return out;
}

std::string broken_constraint(const Variant& v, const Config& c) {
  for (const Constraint& rule : v.constraints)
    if (!rule.holds(c))
      return fmt::format("{} makes no kernel: needs {}", config_name(v.name, c), rule.rule);
  return "";
}

bool is_built(const Variant& v, const Config& c) { return broken_constraint(v, c).empty(); }

std::vector<Config> built_configs(const std::vector<Param>& space,
                                  const std::vector<Constraint>& constraints,
                                  const Config& defaults) {
  std::vector<Config> out = enumerate_space(space, Config{});
  std::erase_if(out, [&](const Config& c) {
    return std::any_of(constraints.begin(), constraints.end(),
                       [&](const Constraint& rule) { return !rule.holds(c); });
  });
  auto def = std::find(out.begin(), out.end(), defaults);
  if (def != out.end()) std::rotate(out.begin(), def, def + 1);
  return out;
}

std::vector<Config> all_configs(const Variant& v) {
  return built_configs(v.space, v.constraints, v.defaults);
}

std::string config_name(const std::string& variant, const Config& c) {
  if (c.empty()) return variant;
  std::string s = variant + "[";
  bool first = true;
  for (const auto& [k, v] : c) {
    s += fmt::format("{}{}={}", first ? "" : ",", k, v);
    first = false;
  }
  return s + "]";
}

void validate_config(const Variant& v, const Config& c) {
  for (const auto& entry : c) {
    // Named, not a structured binding: clang before 16 (the fuzz build) cannot capture one.
    const std::string& k = entry.first;
    const int value = entry.second;
    auto p =
        std::find_if(v.space.begin(), v.space.end(), [&](const Param& p) { return p.name == k; });
    if (p == v.space.end()) {
      std::string known;
      for (const Param& q : v.space) known += (known.empty() ? "" : ", ") + q.name;
      throw std::invalid_argument(fmt::format("{}: unknown parameter '{}' (it has: {})", v.name, k,
                                              known.empty() ? "none" : known));
    }
    if (p->any_value) {
      if (value < 1)
        throw std::invalid_argument(fmt::format("{}: {}={} must be at least 1", v.name, k, value));
    } else if (std::find(p->values.begin(), p->values.end(), value) == p->values.end()) {
      throw std::invalid_argument(fmt::format("{}: {}={} is not compiled in (values: {})", v.name,
                                              k, value, fmt::join(p->values, ",")));
    }
  }
  for (const Param& p : v.space) {
    if (!c.count(p.name))
      throw std::invalid_argument(fmt::format("{}: {} is not set", v.name, p.name));
  }
  if (const std::string why = broken_constraint(v, c); !why.empty())
    throw std::invalid_argument(why);
}

std::string config_problem(const std::string& variant, const Config& c) {
  const Variant* v = find_variant(variant);
  if (!v) return fmt::format("unknown variant '{}'", variant);
  try {
    validate_config(*v, c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

NamedConfig parse_config(const std::string& text) {
  const auto open = text.find('[');
  const std::string name = text.substr(0, open);
  const Variant* v = find_variant(name);
  if (!v) {
    throw std::invalid_argument(
        fmt::format("unknown variant '{}' (known: {})", name, fmt::join(variant_names(), ", ")));
  }
  NamedConfig out{v, v->defaults};
  if (open == std::string::npos) return out;
  if (text.back() != ']') {
    throw std::invalid_argument(fmt::format("'{}': expected 'name[param=value,...]'", text));
  }
  const std::string body = text.substr(open + 1, text.size() - open - 2);
  std::set<std::string> seen;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t comma = body.find(',', pos);
    if (comma == std::string::npos) comma = body.size();
    const std::string item = body.substr(pos, comma - pos);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument(
          fmt::format("'{}': expected param=value, found '{}'", text, item));
    }
    const std::string key = item.substr(0, eq);
    const std::string val = item.substr(eq + 1);
    // parse_integer, as every other integer the programs read: no '+', no spaces, no "6x".
    int value = 0;
    try {
      value = parse_integer<int>(val, INT_MIN, INT_MAX);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(
          fmt::format("'{}': {} must be an integer, found '{}'", text, key, val));
    }
    if (!seen.insert(key).second)
      throw std::invalid_argument(fmt::format("'{}': {} is given twice", text, key));
    if (!std::any_of(v->space.begin(), v->space.end(),
                     [&](const Param& p) { return p.name == key; })) {
      Config probe{{key, value}};
      validate_config(*v, probe);  // throws the "unknown parameter" message
    }
    out.config[key] = value;
    pos = comma + 1;
  }
  validate_config(*v, out.config);
  return out;
}

}  // namespace apsp
