// Where each round of a distributed solve spends its time on each rank: timing events the engine
// records on the ranks' streams when a solve is handed a RoundTimeline (DistributedSolver::solve),
// read back once the solve is done. For finding what stands between P GPUs and P times one GPU
// (round_timeline, probes/): waiting for the next panel, the pivot column, phase 3, and on the
// owner of the next panel its making and sending beside phase 3.
// Each rank's times are on its own device's clock, from the solve's start on that rank.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace apsp::harness {

class Transport;
class MultiGpuSolve;

// What a rank's stream reached, in step kt of the schedule (a round, or a pair of rounds where the
// solve runs pairs: harness/multigpu/row_partition.hpp schedule_steps; "round" below).
// The first three are per round; the last two per panel (panel kt is round kt's last: made by its
// owner, landed at every rank).
enum class RoundMark : int {
  kStarted,      // main: round kt's panels and pivot columns are in; its phase 3 starts
  kFinished,     // main: phase 3 done
  kAheadDone,    // side, on an owner of round kt + 1's rows under look-ahead: its lines updated
  kPanelMade,    // the owner of panel kt: pivot closed and its row panel updated
  kPanelLanded,  // panel kt broadcast, on this rank's stream (the root's: sent)
};
inline constexpr int kRoundMarks = 5;

// One rank's round kt, in ms; -1 where the rank recorded no such mark.
struct RoundTimes {
  // The end of round kt - 1 (or the solve's start) to round kt's start: waiting for its panels
  // and pivot columns, and without look-ahead making them.
  double waited = 0;
  double phase3 = 0;
  double ahead = -1;  // the owner of panel kt + 1 under look-ahead: row tile kt + 1, from the fork
  double make = -1;   // the owner of panel kt + 1: its pivot and row panel, after its row tile
  double send = -1;   // the owner of panel kt + 1: made to sent
  double slack = -1;  // panel kt + 1 landed this long before round kt finished (negative: after)
};

class RoundTimeline {
 public:
  // Timing events for `rounds` rounds on each of `ranks` (local ranks of t, on their devices).
  RoundTimeline(const Transport& t, std::vector<int> ranks, int rounds);
  ~RoundTimeline();
  RoundTimeline(const RoundTimeline&) = delete;
  RoundTimeline& operator=(const RoundTimeline&) = delete;

  // The engine's calls, on the current device (rank's): the solve's start, and a mark of round or
  // panel kt. A rank this timeline does not hold is ignored.
  void start(int rank, cudaStream_t stream);
  void mark(int rank, int kt, RoundMark m, cudaStream_t stream);

  // Read once the solve is done (every rank's streams synchronized). A rank that recorded no
  // round (an idle one) has none.
  const std::vector<int>& ranks() const { return ranks_; }
  std::vector<RoundTimes> rounds(int rank) const;
  double total_ms(int rank) const;  // the start to its last round's kFinished

 private:
  struct Rank;
  const Rank* find(int rank) const;
  Rank* find(int rank);
  // ms from a to b on one rank; -1 unless both were recorded
  double between(const Rank& r, int a, int b) const;
  std::vector<int> ranks_;
  int rounds_;
  std::vector<Rank> per_rank_;
};

// A paragraph per rank: its total, what its rounds spent waiting and on phase 3, and as the owner
// of the next panel what its making and sending took beside phase 3.
std::string describe_timeline(const RoundTimeline& t);
// One line per rank and round: rank,round,waited_ms,phase3_ms,ahead_ms,make_ms,send_ms,slack_ms
// (a header first).
std::string timeline_csv(const RoundTimeline& t);

// One timed run of a solve: its slowest local rank's total, describe_timeline and timeline_csv.
struct TimedRun {
  double ms = 0;
  std::string text, csv;
};
// `reps` runs of `solve` (one untimed run first), each with its timeline; the median by the
// slowest rank. std::invalid_argument for reps < 1.
TimedRun median_timed_run(MultiGpuSolve& solve, int reps);

}  // namespace apsp::harness
