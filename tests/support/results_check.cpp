// Reads a results JSON through the schema reader and checks what every bench run promises:
// each run verified, positive timings, and a positive speedup for every run but naive's.
#include <fmt/format.h>

#include <fstream>

#include "core/results.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: results_check RESULTS.json\n");
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    const apsp::Results r = apsp::results_from_json(nlohmann::json::parse(in));
    if (r.runs.empty()) throw std::runtime_error("no runs");
    for (const apsp::RunResult& run : r.runs) {
      const std::string where = fmt::format("{} n={}", run.name, run.n);
      if (run.verified == "FAILED" || run.error) throw std::runtime_error(where + ": not verified");
      if (!(run.median_ms > 0) || run.samples_ms.empty())
        throw std::runtime_error(where + ": no timing");
      if (!run.speedup_vs_naive || !(*run.speedup_vs_naive > 0))
        throw std::runtime_error(where + ": no positive speedup");
    }
    fmt::print("{} runs verified, speedups positive, ceiling {:.2f} T updates/s\n", r.runs.size(),
               r.context.ceiling_updates_per_s / 1e12);
  } catch (const std::exception& e) {
    fmt::print(stderr, "results_check: {}\n", e.what());
    return 1;
  }
  return 0;
}
