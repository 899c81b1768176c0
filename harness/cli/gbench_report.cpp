#include "harness/cli/gbench_report.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/atomic_file.hpp"

namespace apsp::harness {

namespace {

// The JSON reporter with names that do not depend on how a run was sampled: Google Benchmark
// puts the iteration count (our sample count) and the repetitions into each name.
class StableNameReporter : public benchmark::JSONReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> renamed = runs;
    for (Run& r : renamed) {
      r.run_name.iterations.clear();
      r.run_name.repetitions.clear();
    }
    JSONReporter::ReportRuns(renamed);
  }
};

// The value of --benchmark_repetitions=K among the flags; 1 without it.
int repetitions_flag(const std::vector<std::string>& flags) {
  const std::string key = "--benchmark_repetitions=";
  int k = 1;
  for (const std::string& f : flags) {
    if (f.rfind(key, 0) != 0) continue;
    try {
      size_t used = 0;
      k = std::stoi(f.substr(key.size()), &used);
      if (used != f.size() - key.size()) throw std::invalid_argument(f);
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("'{}': not an integer", f));
    }
    if (k < 1) throw std::invalid_argument(fmt::format("'{}': at least 1 repetition", f));
  }
  return k;
}

std::string graph_id(const GraphDesc& g) {
  if (g.kind == "file") return fmt::format("file({})", g.file);
  return fmt::format("{}(seed={},density={:g},wmax={})", g.kind, g.seed, g.density, g.wmax);
}

}  // namespace

GbenchFlags init_gbench_flags(const std::string& argv0, const std::vector<std::string>& flags) {
  // Google Benchmark keeps argv[0] (the "executable" of its JSON context): the strings must
  // outlive this call.
  static std::vector<std::string> args;
  args = {argv0};
  for (const std::string& f : flags) {
    if (f.rfind("--benchmark_out", 0) == 0)
      throw std::invalid_argument(
          fmt::format("'{}': --gbench-json FILE chooses Google Benchmark's output", f));
    args.push_back(f);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());  // removes the flags it knows
  if (argc > 1) {
    std::vector<std::string> unknown(argv.begin() + 1, argv.begin() + argc);
    throw std::invalid_argument(
        fmt::format("unknown Google Benchmark flag(s): {}", fmt::join(unknown, " ")));
  }
  return GbenchFlags{repetitions_flag(flags)};
}

GbenchFlags gbench_flags_of_extras(const std::string& argv0,
                                   const std::vector<std::string>& extras) {
  for (const std::string& extra : extras)
    if (extra.rfind("--benchmark_", 0) != 0)
      throw std::invalid_argument(fmt::format("unknown option '{}' (see --help)", extra));
  return init_gbench_flags(argv0, extras);
}

std::string repetitions_problem(int repetitions, int min_samples) {
  if (repetitions <= min_samples) return "";
  return fmt::format(
      "--benchmark_repetitions={0}: each repetition is a group of a run's own samples, and a run "
      "may take as few as {1} (--min-reps): give --min-reps {0} or more",
      repetitions, min_samples);
}

std::string gbench_name(const RunResult& r) {
  return fmt::format("{}/n={}{}/{}", r.name, r.n, r.gpus > 1 ? fmt::format("/gpus={}", r.gpus) : "",
                     graph_id(r.graph));
}

void write_gbench_json(const Results& results, const std::string& path, int repetitions) {
  for (const RunResult& r : results.runs)  // checked before anything is registered
    if (!r.samples_ms.empty() && r.samples_ms.size() < static_cast<size_t>(repetitions))
      throw std::invalid_argument(
          fmt::format("{} at n = {} has {} sample(s), fewer than "
                      "--benchmark_repetitions={}",
                      r.name, r.n, r.samples_ms.size(), repetitions));
  std::set<std::string> names;
  for (const RunResult& r : results.runs) {
    if (r.samples_ms.empty()) continue;
    const size_t group = r.samples_ms.size() / static_cast<size_t>(repetitions);
    // The same run twice in one file (asked for by name and by its config): told apart.
    std::string name = gbench_name(r);
    for (int copy = 2; !names.insert(name).second; ++copy)
      name = fmt::format("{}/copy={}", gbench_name(r), copy);
    auto calls = std::make_shared<size_t>(0);  // the repetition being run
    benchmark::RegisterBenchmark(
        name.c_str(),
        [&r, group, calls, repetitions](benchmark::State& state) {
          const size_t first = (*calls)++ % static_cast<size_t>(repetitions) * group;
          size_t i = 0;
          for (auto _ : state) state.SetIterationTime(r.samples_ms[first + i++ % group] / 1000.0);
          if (r.label) state.SetLabel(*r.label);
          const double n = r.n;
          state.counters["updates_per_s"] =
              benchmark::Counter(n * n * n, benchmark::Counter::kIsRate);
        })
        ->UseManualTime()
        ->Iterations(static_cast<int64_t>(group))
        ->Repetitions(repetitions)
        ->Unit(benchmark::kMillisecond);
  }
  // The JSON reporter as the display reporter, into memory: Google Benchmark's own
  // --benchmark_out would write the file in place, not atomically.
  std::ostringstream json, errors;
  StableNameReporter reporter;
  reporter.SetOutputStream(&json);
  reporter.SetErrorStream(&errors);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  write_file_atomic(path, json.str());
}

}  // namespace apsp::harness
