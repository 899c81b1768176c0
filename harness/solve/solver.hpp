// The solver behind apsp: an edge list in, all pairs' distances out, on the GPU (one or
// several) or on the CPU. Solver::run takes a request through its steps:
//   check: the kernel file compiled, the variant asked for, the GPUs, the tuning database;
//   read: the input read and parsed (the chosen solve warmed up meanwhile), the variant chosen
//         for V and the weights, admitted (Variant::admits) and fitted to the device's and the
//         host's memory;
//   solve and write: the solve, the certificate if asked, the next hops if asked, then the
//         outputs in the request's format, a band of rows at a time from the device.
// A fault in the first two is a refusal (nothing done); in the last a failure (nothing
// written): SolveError says which (harness/solve/request.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/solve/request.hpp"

namespace apsp::harness {

struct SolveTiming {
  std::vector<std::pair<std::string, double>> steps;  // name, ms: "read", "parse", "solve", ...
  void add(std::string name, double ms) { steps.emplace_back(std::move(name), ms); }
};

class Solver {
 public:
  explicit Solver(SolveRequest request);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Every step; throws SolveError, or CompileError for a kernel file.
  void run();
  // "path 3 -> 7: 3 5 9 7 (length 42)" for the request's path, after run(); throws
  // std::runtime_error when the next hops do not lead there.
  std::string path_line() const;

  const SolveTiming& timing() const;
  // Whether this process prints and writes: false for every process but 0 of a run under a
  // launcher (one process per GPU, harness/multigpu/launch.hpp), which takes part in the solve,
  // the certificate and the write without output of its own.
  bool speaks() const;
  int vertices() const;
  size_t edges() const;
  size_t input_bytes() const;
  uint64_t distances_bytes() const;  // written; 0 when the distances were not
  // The summary's lines (harness/solve/summary.hpp) after run(); "" when none was asked for.
  const std::string& summary_lines() const;

  // The result after run(), from where it is (device, ranks or host), a band of rows at a time:
  // f(first row, rows, entries rows x V, row-major). In int32 (kInf: unreachable) unless the
  // 64-bit path solved it (wide(): int64, kInf64).
  template <class T>
  using BandSink = std::function<void(int first, int count, const T* rows)>;
  bool wide() const;
  // The precision the distances were solved and proven in (core/precision.hpp), and by what:
  // "sm90[...]", "blocked_i64" (the 64-bit path on the GPU) or "cpu".
  std::string precision() const;
  std::string solved_with() const;
  // The result where one GPU holds it (rows `pitch` apart), for work that reads it there; null
  // data when it is on the host or over several GPUs.
  struct OnDevice {
    const int32_t* data = nullptr;
    int pitch = 0;
  };
  OnDevice on_device() const;
  void each_band(const BandSink<int32_t>& f) const;
  void each_band64(const BandSink<int64_t>& f) const;
  // The predecessor matrix the request asked for (kNoHop: none), in bands as above.
  void each_predecessor_band(const BandSink<int32_t>& f) const;

  struct State;  // everything one request holds (solver.cpp)

 private:
  std::unique_ptr<State> s_;
  void check();
  void read();
  void solve_and_write();
};

}  // namespace apsp::harness
