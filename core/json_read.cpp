#include "core/json_read.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/console.hpp"

namespace apsp::json_read {

namespace {

std::string shown(const json& j) {
  std::string s = j.dump(-1, ' ', /*ensure_ascii=*/true);
  return s.size() <= 40 ? s : s.substr(0, 37) + "...";
}

}  // namespace

json parse(std::string_view text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("not JSON ({})", escaped(e.what())));
  }
}

// The key escaped: a member name is read from the file, and the path goes into a one-line message.
std::string at(const std::string& where, const std::string& key) {
  return where + "/" + escaped(key);
}
std::string at(const std::string& where, size_t index) {
  return where + "/" + std::to_string(index);
}

void fail(const std::string& where, const std::string& fault) {
  throw std::runtime_error(fmt::format("{}: {}", where.empty() ? "/" : where, fault));
}

const json& member(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) fail(where, fmt::format("expected an object, found {}", shown(j)));
  const auto it = j.find(key);
  if (it == j.end()) fail(at(where, key), "missing");
  return *it;
}

const json& object(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, fmt::format("expected an object, found {}", shown(j)));
  return j;
}

const json& array(const json& j, const std::string& where) {
  if (!j.is_array()) fail(where, fmt::format("expected an array, found {}", shown(j)));
  return j;
}

std::string string(const json& j, const std::string& where) {
  if (!j.is_string()) fail(where, fmt::format("expected a string, found {}", shown(j)));
  return j.get<std::string>();
}

std::string optional_string(const json& j, const char* key, const std::string& where,
                            const std::string& fallback) {
  const auto it = object(j, where).find(key);
  return it == j.end() || it->is_null() ? fallback : string(*it, at(where, key));
}

std::vector<std::string> string_list(const json& j, const std::string& where) {
  std::vector<std::string> out;
  for (size_t i = 0; i < array(j, where).size(); ++i) out.push_back(string(j[i], at(where, i)));
  return out;
}

std::map<std::string, int> config(const json& j, const std::string& where) {
  std::map<std::string, int> out;
  for (const auto& [k, v] : object(j, where).items())
    out[k] = static_cast<int>(integer(v, at(where, k), INT32_MIN, INT32_MAX));
  return out;
}

int64_t integer(const json& j, const std::string& where, int64_t lo, int64_t hi) {
  const auto range = [&] {
    fail(where, fmt::format("{} is not an integer in [{}, {}]", shown(j), lo, hi));
  };
  if (j.is_number_unsigned()) {
    const uint64_t v = j.get<uint64_t>();
    if (v > static_cast<uint64_t>(INT64_MAX) || static_cast<int64_t>(v) > hi ||
        static_cast<int64_t>(v) < lo)
      range();
    return static_cast<int64_t>(v);
  }
  if (j.is_number_integer()) {
    const int64_t v = j.get<int64_t>();
    if (v < lo || v > hi) range();
    return v;
  }
  if (j.is_number_float()) {
    const double v = j.get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(lo) ||
        v > static_cast<double>(hi))
      range();
    return static_cast<int64_t>(v);
  }
  fail(where, fmt::format("expected an integer, found {}", shown(j)));
}

int size(const json& j, const std::string& where) {
  return static_cast<int>(integer(j, where, 1, INT32_MAX));
}

double non_negative(const json& j, const std::string& where) {
  if (!j.is_number()) fail(where, fmt::format("expected a number, found {}", shown(j)));
  const double v = j.get<double>();
  if (!std::isfinite(v) || v < 0)
    fail(where, fmt::format("{} is not a finite number >= 0", shown(j)));
  return v;
}

std::vector<double> non_negative_list(const json& j, const std::string& where) {
  std::vector<double> out;
  for (size_t i = 0; i < array(j, where).size(); ++i)
    out.push_back(non_negative(j[i], at(where, i)));
  return out;
}

double time_ms(const json& j, const std::string& where) {
  const double v = non_negative(j, where);
  if (v > kMaxTimeMs)
    fail(where, fmt::format("{:.6g} ms is more than {:.6g} ms, the longest time a file may hold", v,
                            kMaxTimeMs));
  return v;
}

std::vector<double> time_list(const json& j, const std::string& where) {
  std::vector<double> out;
  for (size_t i = 0; i < array(j, where).size(); ++i) out.push_back(time_ms(j[i], at(where, i)));
  return out;
}

void check_median(double median, const std::vector<double>& samples, const std::string& where) {
  if (samples.empty()) return;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  // Read back from JSON, the median of the samples is exact: a margin for a writer's rounding.
  if (median < *lo * (1 - 1e-9) || median > *hi * (1 + 1e-9))
    fail(where,
         fmt::format("{:.6g} is outside its samples' range [{:.6g}, {:.6g}]", median, *lo, *hi));
}

}  // namespace apsp::json_read
