// Reading the project's JSON files (results, tuning database, policies) with validation: every
// fault is one std::runtime_error "JSON-PATH: fault", where the path is a JSON pointer
// ("/runs/3/n"); the caller puts the file name in front. Sizes are positive integers that fit
// an int, times finite and non-negative, so that a corrupted file cannot show n = -2147483648,
// a "-0.9x" speedup, or rank a negative median first.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace apsp::json_read {

using nlohmann::json;

// A document from a file's text; std::runtime_error "not JSON (...)" with the parser's fault,
// its bytes escaped (core/console: escaped) so that the line stays one printable line.
json parse(std::string_view text);

std::string at(const std::string& where, const std::string& key);  // where + "/" + key
std::string at(const std::string& where, size_t index);

[[noreturn]] void fail(const std::string& where, const std::string& fault);

// The member `key` of object `j` (at `where`); "missing" when absent.
const json& member(const json& j, const char* key, const std::string& where);
const json& object(const json& j, const std::string& where);
const json& array(const json& j, const std::string& where);
std::string string(const json& j, const std::string& where);
// The member `key` of object `j` as a string; `fallback` when absent or null.
std::string optional_string(const json& j, const char* key, const std::string& where,
                            const std::string& fallback = "");
std::vector<std::string> string_list(const json& j, const std::string& where);
// A config object {"batch2": 6, ...}: every value an integer that fits an int.
std::map<std::string, int> config(const json& j, const std::string& where);
// An integer in [lo, hi] (an integral float such as 1000.0 too); 1e20 is out of range, not
// wrapped.
int64_t integer(const json& j, const std::string& where, int64_t lo, int64_t hi);
int size(const json& j, const std::string& where);  // n: 1 .. INT32_MAX
// A finite number >= 0 (a time in ms, a rate, a percentage).
double non_negative(const json& j, const std::string& where);
std::vector<double> non_negative_list(const json& j, const std::string& where);

// The longest time a file may hold: 1e9 ms, 11.6 days, where a solve at the largest n takes
// hours; beyond it a value is refused, so that no table shows a 300-digit cell.
inline constexpr double kMaxTimeMs = 1e9;
// A time in ms: finite, >= 0 and at most kMaxTimeMs.
double time_ms(const json& j, const std::string& where);
std::vector<double> time_list(const json& j, const std::string& where);
// Fails at `where` unless `median` lies within the range of `samples` (when there are any):
// a median is of its samples.
void check_median(double median, const std::vector<double>& samples, const std::string& where);

}  // namespace apsp::json_read
