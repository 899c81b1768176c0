#include "bench/gbench_report.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "core/atomic_file.hpp"

namespace apsp::bench {

void init_gbench_flags(const std::string& argv0, const std::vector<std::string>& flags) {
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
}

void write_gbench_json(const Results& results, const std::string& path) {
  for (const RunResult& r : results.runs) {
    if (r.samples_ms.empty()) continue;
    const std::string name = fmt::format("{}/n={}", r.label.value_or(r.name), r.n);
    benchmark::RegisterBenchmark(
        name.c_str(),
        [&r](benchmark::State& state) {
          size_t i = 0;
          for (auto _ : state)
            state.SetIterationTime(r.samples_ms[i++ % r.samples_ms.size()] / 1000.0);
          const double n = r.n;
          state.counters["updates_per_s"] =
              benchmark::Counter(n * n * n, benchmark::Counter::kIsRate);
        })
        ->UseManualTime()
        ->Iterations(static_cast<int64_t>(r.samples_ms.size()))
        ->Unit(benchmark::kMillisecond);
  }
  // The JSON reporter as the display reporter, into memory: Google Benchmark's own
  // --benchmark_out would write the file in place, not atomically.
  std::ostringstream json, errors;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&json);
  reporter.SetErrorStream(&errors);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  write_file_atomic(path, json.str());
}

}  // namespace apsp::bench
