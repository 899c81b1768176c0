// The solve on the CPU (core/reference.hpp), for a machine without a GPU or --variant cpu.
#include <fmt/format.h>

#include "core/console.hpp"
#include "core/reference.hpp"
#include "harness/solve/solve_steps.hpp"
#include "harness/tune/solver_choice.hpp"

namespace apsp::harness {

// A progress line and, as soon as the rate so far puts it over a minute, one line with the
// estimate and how to use a GPU. Re-estimated every round until that line is printed: the first
// rounds run faster (most entries are still unreachable, which the solver skips), so at
// V = 10000 the first second's estimate was under a minute for a solve of 80 s, and deciding
// once then left the solve silent off a terminal.
namespace {

template <typename Matrix>
void solve_with_progress(Matrix& d, int threads, const Log& log) {
  ProgressMeter meter(fmt::format("solving V = {} on the CPU", d.n()));
  bool announced = false;
  floyd_warshall_blocked(d, threads, [&](int done, int rounds) {
    if (!announced) {
      if (const auto s = cpu_solve_estimate_s(meter.elapsed_s(), done, rounds)) {
        if (const std::string line = cpu_solve_estimate_line(d.n(), *s); !line.empty()) {
          announced = true;
          progress_done();
          if (log) log(line);
        }
      }
    }
    meter.update(done, rounds);
  });
}

}  // namespace

void solve_on_cpu(DistMatrix& d, int threads, const Log& log) {
  solve_with_progress(d, threads, log);
}

void solve_on_cpu(DistMatrix64& d, int threads, const Log& log) {
  solve_with_progress(d, threads, log);
}

}  // namespace apsp::harness
