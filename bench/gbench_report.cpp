#include "bench/gbench_report.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace apsp::bench {

void write_gbench_json(const Results& results, const std::string& path, std::vector<std::string> args) {
  for (const RunResult& r : results.runs) {
    if (r.samples_ms.empty()) continue;
    const std::string name = fmt::format("{}/n={}", r.label.value_or(r.name), r.n);
    benchmark::RegisterBenchmark(name.c_str(), [&r](benchmark::State& state) {
      size_t i = 0;
      for (auto _ : state) state.SetIterationTime(r.samples_ms[i++ % r.samples_ms.size()] / 1000.0);
      const double n = r.n;
      state.counters["updates_per_s"] = benchmark::Counter(n * n * n, benchmark::Counter::kIsRate);
    })->UseManualTime()->Iterations(static_cast<int64_t>(r.samples_ms.size()))->Unit(benchmark::kMillisecond);
  }
  args.push_back("--benchmark_out=" + path);
  args.push_back("--benchmark_out_format=json");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  class Quiet : public benchmark::BenchmarkReporter {  // our table replaces gbench's console output
   public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  } quiet;
  benchmark::RunSpecifiedBenchmarks(&quiet);
}

}  // namespace apsp::bench
