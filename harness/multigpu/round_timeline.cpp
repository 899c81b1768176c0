// RoundTimeline (harness/multigpu/round_timeline.hpp): a timing event per rank, round and mark.
#include "harness/multigpu/round_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/multigpu/transport.hpp"

namespace apsp::harness {

// A rank's events: [kt * kRoundMarks + m] for mark m of round kt, then the solve's start.
struct RoundTimeline::Rank {
  int rank = 0, device = 0;
  std::vector<cudaEvent_t> events;
  std::vector<char> recorded;
};

namespace {

int at(int kt, RoundMark m) { return kt * kRoundMarks + static_cast<int>(m); }

}  // namespace

RoundTimeline::RoundTimeline(const Transport& t, std::vector<int> ranks, int rounds)
    : ranks_(std::move(ranks)), rounds_(rounds) {
  if (rounds < 1)
    throw std::invalid_argument("round timeline: at least one round, got " +
                                std::to_string(rounds));
  per_rank_.reserve(ranks_.size());
  const size_t count = static_cast<size_t>(rounds) * kRoundMarks + 1;
  for (int r : ranks_) {
    Rank& k = per_rank_.emplace_back(Rank{r, t.device(r), {}, {}});
    DeviceGuard guard(k.device);
    k.events.resize(count, nullptr);
    k.recorded.assign(count, 0);
    for (cudaEvent_t& e : k.events) APSP_CUDA_CHECK(cudaEventCreate(&e));
  }
}

RoundTimeline::~RoundTimeline() {
  for (Rank& k : per_rank_) {
    DeviceGuard guard(k.device);
    for (cudaEvent_t e : k.events)
      if (e) cudaEventDestroy(e);
  }
}

const RoundTimeline::Rank* RoundTimeline::find(int rank) const {
  for (const Rank& k : per_rank_)
    if (k.rank == rank) return &k;
  return nullptr;
}

RoundTimeline::Rank* RoundTimeline::find(int rank) {
  for (Rank& k : per_rank_)
    if (k.rank == rank) return &k;
  return nullptr;
}

void RoundTimeline::start(int rank, cudaStream_t stream) {
  if (Rank* r = find(rank)) {
    APSP_CUDA_CHECK(cudaEventRecord(r->events.back(), stream));
    r->recorded.back() = 1;
  }
}

void RoundTimeline::mark(int rank, int kt, RoundMark m, cudaStream_t stream) {
  Rank* r = find(rank);
  if (!r || kt < 0 || kt >= rounds_) return;
  APSP_CUDA_CHECK(cudaEventRecord(r->events[at(kt, m)], stream));
  r->recorded[at(kt, m)] = 1;
}

double RoundTimeline::between(const Rank& r, int a, int b) const {
  if (!r.recorded[a] || !r.recorded[b]) return -1;
  float ms = 0;
  APSP_CUDA_CHECK(cudaEventElapsedTime(&ms, r.events[a], r.events[b]));
  return ms;
}

std::vector<RoundTimes> RoundTimeline::rounds(int rank) const {
  const Rank* k = find(rank);
  if (!k) throw std::logic_error("round timeline: rank " + std::to_string(rank) + " not held");
  DeviceGuard guard(k->device);
  std::vector<RoundTimes> out;
  const int begin = static_cast<int>(k->events.size()) - 1;
  for (int kt = 0; kt < rounds_ && k->recorded[at(kt, RoundMark::kStarted)]; ++kt) {
    RoundTimes t;
    const int started = at(kt, RoundMark::kStarted), finished = at(kt, RoundMark::kFinished);
    const int ahead = at(kt, RoundMark::kAheadDone);
    t.waited = between(*k, kt == 0 ? begin : at(kt - 1, RoundMark::kFinished), started);
    t.phase3 = between(*k, started, finished);
    t.ahead = between(*k, started, ahead);
    if (kt + 1 < rounds_) {
      const int made = at(kt + 1, RoundMark::kPanelMade);
      const int landed = at(kt + 1, RoundMark::kPanelLanded);
      t.make = between(*k, k->recorded[ahead] ? ahead : finished, made);
      t.send = between(*k, made, landed);
      t.slack = between(*k, landed, finished);
    }
    out.push_back(t);
  }
  return out;
}

double RoundTimeline::total_ms(int rank) const {
  const Rank* k = find(rank);
  if (!k) throw std::logic_error("round timeline: rank " + std::to_string(rank) + " not held");
  DeviceGuard guard(k->device);
  const int begin = static_cast<int>(k->events.size()) - 1;
  for (int kt = rounds_ - 1; kt >= 0; --kt)
    if (k->recorded[at(kt, RoundMark::kFinished)])
      return between(*k, begin, at(kt, RoundMark::kFinished));
  return 0;
}

namespace {

// The mean of the values >= 0 picked from `rounds`, and how many there were.
template <class Pick>
std::pair<double, int> mean_of(const std::vector<RoundTimes>& rounds, Pick pick) {
  double sum = 0;
  int count = 0;
  for (const RoundTimes& t : rounds)
    if (const double v = pick(t); v >= 0) sum += v, ++count;
  return {count ? sum / count : 0, count};
}

std::string describe_rank(int rank, double total, const std::vector<RoundTimes>& rounds) {
  double waited = 0, phase3 = 0, longest = 0;
  int waits = 0, longest_at = 0;
  for (size_t kt = 0; kt < rounds.size(); ++kt) {
    const RoundTimes& t = rounds[kt];
    waited += t.waited, phase3 += t.phase3;
    if (t.waited > 0.001) ++waits;
    if (t.waited > longest) longest = t.waited, longest_at = static_cast<int>(kt);
  }
  const auto share = [total](double ms) { return total > 0 ? 100 * ms / total : 0.0; };
  std::string s = fmt::format(
      "rank {}: {:.3f} ms in {} rounds: phase 3 {:.3f} ms ({:.1f}%), waiting for the panels "
      "and pivot columns {:.3f} ms ({:.1f}%) in {} rounds (the longest {:.1f} us, round {})",
      rank, total, rounds.size(), phase3, share(phase3), waited, share(waited), waits,
      longest * 1e3, longest_at);
  const auto [make, made] = mean_of(rounds, [](const RoundTimes& t) { return t.make; });
  if (made > 0) {
    const auto [ahead, a] = mean_of(rounds, [](const RoundTimes& t) { return t.ahead; });
    const auto [send, sent] = mean_of(rounds, [](const RoundTimes& t) { return t.send; });
    s += fmt::format(
        "; as the owner of {} next panels, on average: its row tile {:.1f} us, pivot and row "
        "{:.1f} us, sent in {:.1f} us",
        made, a ? ahead * 1e3 : 0.0, make * 1e3, sent ? send * 1e3 : 0.0);
  }
  int late = 0;
  double slack = 0;
  int slacks = 0;
  for (const RoundTimes& t : rounds) {
    if (t.slack == -1) continue;
    slack += t.slack, ++slacks;
    if (t.slack < 0) ++late;
  }
  if (slacks > 0)
    s += fmt::format(
        "; the next panel landed {:.1f} us before phase 3 ended on average, after it in {} "
        "rounds",
        slack / slacks * 1e3, late);
  return s;
}

}  // namespace

std::string describe_timeline(const RoundTimeline& t) {
  std::string s;
  for (int r : t.ranks()) {
    const std::vector<RoundTimes> rounds = t.rounds(r);
    if (rounds.empty()) continue;
    s += describe_rank(r, t.total_ms(r), rounds) + "\n";
  }
  return s;
}

std::string timeline_csv(const RoundTimeline& t) {
  std::string s = "rank,round,waited_ms,phase3_ms,ahead_ms,make_ms,send_ms,slack_ms\n";
  for (int r : t.ranks()) {
    const std::vector<RoundTimes> rounds = t.rounds(r);
    for (size_t kt = 0; kt < rounds.size(); ++kt) {
      const RoundTimes& x = rounds[kt];
      s += fmt::format("{},{},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f}\n", r, kt, x.waited,
                       x.phase3, x.ahead, x.make, x.send, x.slack);
    }
  }
  return s;
}

TimedRun median_timed_run(MultiGpuSolve& solve, int reps) {
  if (reps < 1) throw std::invalid_argument("median_timed_run: at least one run");
  const std::vector<int> ranks = solve.transport().local_ranks();
  solve.run();
  std::vector<TimedRun> runs;
  for (int i = 0; i < reps; ++i) {
    RoundTimeline timeline(solve.transport(), ranks, solve.partition().tiles);
    solve.run(&timeline);
    TimedRun r;
    for (int rank : ranks) r.ms = std::max(r.ms, timeline.total_ms(rank));
    r.text = describe_timeline(timeline);
    r.csv = timeline_csv(timeline);
    runs.push_back(std::move(r));
  }
  std::sort(runs.begin(), runs.end(),
            [](const TimedRun& a, const TimedRun& b) { return a.ms < b.ms; });
  return runs[runs.size() / 2];
}

}  // namespace apsp::harness
