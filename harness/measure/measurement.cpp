#include "harness/measure/measurement.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace apsp::harness {

namespace {

constexpr const char* kModeNames[] = {"stream", "cuda-graph", "phases"};

Mode mode_of(const std::string& name) {
  for (int m = 0; m < 3; ++m)
    if (name == kModeNames[m]) return static_cast<Mode>(m);
  throw std::invalid_argument(fmt::format("unknown measurement mode '{}'", name));
}

}  // namespace

void to_json(nlohmann::json& j, const MeasureSpec& s) {
  j = {{"mode", kModeNames[static_cast<int>(s.mode)]}, {"reps", s.reps}, {"flush_l2", s.flush_l2}};
}

void from_json(const nlohmann::json& j, MeasureSpec& s) {
  s.mode = mode_of(j.at("mode").get<std::string>());
  s.reps = j.at("reps").get<int>();
  s.flush_l2 = j.at("flush_l2").get<bool>();
  if (s.reps < 1) throw std::invalid_argument(fmt::format("a measurement of {} samples", s.reps));
}

void to_json(nlohmann::json& j, const Measurement& m) {
  j = {{"samples_ms", m.samples_ms}, {"phases_ms", m.phases_ms}};
}

void from_json(const nlohmann::json& j, Measurement& m) {
  m.samples_ms = j.at("samples_ms").get<std::vector<double>>();
  m.phases_ms = j.at("phases_ms").get<std::array<double, 4>>();
}

}  // namespace apsp::harness
