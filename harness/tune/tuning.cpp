#include "harness/tune/tuning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include "core/console.hpp"
#include "core/memory.hpp"
#include "core/stats.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/tune/search.hpp"

namespace apsp::harness {

GraphInput tuning_graph(const TuneOptions& o) { return {o.graph, o.graph_file, o.graph_edges}; }

std::vector<const Variant*> tunable_variants(const std::string& names, const std::string& group) {
  std::vector<const Variant*> out;
  if (names.empty()) {
    for (const Variant& v : registry()) out.push_back(&v);
  } else {
    std::stringstream ss(names);
    for (std::string item; std::getline(ss, item, ',');) {
      const Variant* v = find_variant(item);
      if (!v) {
        throw std::invalid_argument(fmt::format("--variant: unknown variant '{}' (known: {})", item,
                                                fmt::join(variant_names(), ", ")));
      }
      out.push_back(v);
    }
  }
  std::erase_if(out, [&](const Variant* v) { return params_in_group(*v, group).empty(); });
  if (out.empty())
    throw std::invalid_argument(fmt::format("no selected variant has {} parameters", group));
  return out;
}

std::string resolve_strategy(const TuneOptions& o, size_t points) {
  if (o.strategy != "auto") return o.strategy;
  return (o.budget == 0 || points <= static_cast<size_t>(o.budget)) ? "grid" : "local";
}

size_t points_to_visit(const TuneOptions& o, size_t points) {
  if (resolve_strategy(o, points) == "grid" || o.budget == 0) return points;
  return std::min(points, static_cast<size_t>(o.budget));
}

std::vector<Config> search_points(const Variant& v, const std::string& group, const Config& base) {
  std::vector<Config> points = enumerate_space(params_in_group(v, group), base);
  std::erase_if(points, [&](const Config& c) { return !is_built(v, c); });
  return points;
}

SearchSpace search_space(const Variant& v, const TuneOptions& o) {
  SearchSpace s;
  s.params = params_in_group(v, o.group);
  s.points = search_points(v, o.group, v.defaults);
  s.combinations = 1;
  for (const Param& p : s.params) s.combinations *= p.values.size();
  s.strategy = resolve_strategy(o, s.points.size());
  s.visits = points_to_visit(o, s.points.size());
  s.budget = o.budget;
  return s;
}

namespace {

// One size of a tuning run: its workbench, and every point measured or taken from the database.
class SizeTuner {
 public:
  SizeTuner(int n, const TuneOptions& o, const Session& s, TuningDb& db, const std::string& path,
            const Observer& obs, bool& disqualified)
      : n_(n), o_(o), s_(s), db_(db), path_(path), obs_(obs), disqualified_(disqualified) {
    const GraphInput graph = tuning_graph(o);
    match_.device = DeviceModel::of(*s.device);
    match_.graph = tuning_key(graph);
    match_.kernels = s.build.kernels;
    if (obs.progress) obs.progress(fmt::format("n = {}: the graph and its reference output", n));
    const Doing doing(fmt::format("making the n = {} graph and its reference output ({} a matrix)",
                                  n, human_bytes(matrix_bytes(n))));
    bench_.emplace(*make_graph(graph, n), s.executor_factory());
  }

  // The entries of v's code: this build's, or a user kernel's source.
  TuningMatch match(const Variant& v) const {
    TuningMatch m = match_;
    m.kernels = build_of(v, s_.build).kernels;
    return m;
  }
  int measured_now() const { return measured_now_; }
  // How many points this size will visit at most, for the progress line's count and ETA.
  void plan_points(int points) { planned_ = points; }

  // The point's median, measured now or read from the database; nullopt if rejected or wrong.
  std::optional<double> measure(const Variant& v, const Config& c) {
    const std::string name = config_name(v.name, c);
    ++visited_;
    if (!o_.fresh || measured_here_.count(name)) {
      if (const TuningEntry* e = db_.find(match(v), name, n_)) return ok_median(*e);
    }
    TuningEntry e{match_.device,         v.name, n_, c,  name, match_.graph, o_.graph.seed,
                  build_of(v, s_.build), "ok",   "", {}, 0,    now_iso()};
    // A graph the variant does not solve exactly (Variant::admits) is never run: rejected.
    std::string why = bench_->admission(v);
    if (why.empty()) why = v.check(c, n_, *s_.device);
    if (!why.empty()) {
      e.status = "rejected";
      e.reason = why;
      note(fmt::format("  n = {}: rejected {}: {}", n_, name, why));
    } else {
      if (obs_.progress) obs_.progress(progress_line(name));
      const auto started = std::chrono::steady_clock::now();
      const Verdict verdict = bench_->verify(v, c, o_.sampling.flush_l2);
      if (!verdict.ok()) {
        e.status = "failed";
        e.reason = verdict.error;
        disqualified_ = true;
        note(
            fmt::format("  !! n = {}: {} DISQUALIFIED, wrong result: {}", n_, name, verdict.error));
      } else {
        const int reps = planned_reps(verdict.first_ms, o_.sampling);
        e.samples_ms = take_samples(bench_->executor(v), v, c, reps, o_.sampling);
        e.median_ms = median(e.samples_ms);
      }
      measuring_s_ +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ++measured_for_rate_;
    }
    ++measured_now_;
    measured_here_.insert(name);
    db_.upsert(e);
    db_.save(path_);  // after every point: an interrupted search loses nothing
    return ok_median(e);
  }

 private:
  static std::optional<double> ok_median(const TuningEntry& e) {
    return e.status == "ok" ? std::optional(e.median_ms) : std::nullopt;
  }
  void note(const std::string& line) {
    if (obs_.note) obs_.note(line);
  }
  // "n = 2500: [7/66] batched[batch2=1,batch3=3], about 2.5 min left": the points left at the
  // mean time of the points measured so far (points read from the database cost nothing; a
  // local search may stop before its budget, so the count is an upper bound).
  std::string progress_line(const std::string& name) const {
    const int total = std::max(planned_, visited_);
    const double mean_s = measured_for_rate_ > 0 ? measuring_s_ / measured_for_rate_ : 0;
    const std::string left = time_left(mean_s * (total - visited_ + 1));
    return fmt::format("n = {}: [{}/{}] {}{}", n_, visited_, total, name,
                       left.empty() ? "" : ", " + left);
  }

  int n_;
  const TuneOptions& o_;
  const Session& s_;
  TuningDb& db_;
  const std::string& path_;
  const Observer& obs_;
  bool& disqualified_;
  TuningMatch match_;
  std::optional<Workbench> bench_;
  std::set<std::string> measured_here_;  // --fresh remeasures a point once, not once per visit
  int measured_now_ = 0;
  int planned_ = 0, visited_ = 0;
  double measuring_s_ = 0;  // time spent verifying and sampling the points measured now
  int measured_for_rate_ = 0;
};

Leaderboard leaderboard(const Variant& v, int n, const TuningDb& db, const TuningMatch& match,
                        const Config& def, std::optional<double> naive_ms, int top) {
  Leaderboard b{v.name, n, "", 0, 0, config_name(v.name, def), {}};
  const TuningEntry* d = db.find(match, b.default_name, n);
  std::vector<const TuningEntry*> ok;
  for (const TuningEntry& e : db.entries())
    if (match.accepts(e) && e.variant == v.name && e.n == n && e.status == "ok") ok.push_back(&e);
  std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
  for (size_t i = 0; i < ok.size() && i < static_cast<size_t>(top); ++i) {
    LeaderRow row{*ok[i], bootstrap_ratio_ci95(ok[i]->samples_ms, {1.0}), std::nullopt,
                  std::nullopt};
    if (d && d->status == "ok") row.vs_default = d->median_ms / ok[i]->median_ms;
    if (naive_ms) row.vs_naive = *naive_ms / ok[i]->median_ms;
    b.rows.push_back(row);
  }
  return b;
}

}  // namespace

TuneReport tune(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                const TuneOptions& o, const Session& s, TuningDb& db, const std::string& db_path,
                const Observer& obs, const std::function<void(const TuneReport&)>& board_done) {
  TuneReport report;
  const DeviceInfo& dev = *s.device;
  for (int n : sizes)
    if (o.graph_edges && n != o.graph_edges->num_vertices)
      throw std::invalid_argument(fmt::format("n = {}: the graph file {} has V = {}", n,
                                              o.graph_file, o.graph_edges->num_vertices));
  for (int n : sizes) {
    SizeTuner size(n, o, s, db, db_path, obs, report.disqualified);
    int planned = 2;  // the baseline and the solver's default
    for (const Variant* v : variants) {
      const size_t points = search_points(*v, o.group, shipped_config(*v, n, &dev)).size();
      planned += 1 + static_cast<int>(points_to_visit(o, points));
    }
    size.plan_points(planned);
    // The reference points: the baseline, each variant's shipped default, and (last, so that a
    // tuned sm90 counts its own) the solver's shipped default.
    const Variant& naive = *find_variant(o.baseline);
    const std::optional<double> naive_ms = size.measure(naive, naive.defaults);
    for (const Variant* v : variants) {
      const Config def = shipped_config(*v, n, &dev);
      const std::vector<Param> space = params_in_group(*v, o.group);
      const std::vector<Config> points = search_points(*v, o.group, def);
      const std::string strategy = resolve_strategy(o, points.size());
      const int budget = o.budget > 0 ? o.budget : static_cast<int>(points.size());
      const int before = size.measured_now();
      const Objective f = [&](const Config& c) { return size.measure(*v, c); };
      const Exists built = [&](const Config& c) { return is_built(*v, c); };
      size.measure(*v, def);
      const SearchResult r = strategy == "grid" ? grid_search(space, def, f, built)
                             : strategy == "random"
                                 ? random_search(space, def, budget, o.seed, f, built)
                                 : hill_climb(space, def, budget, o.seed, f, built);
      Leaderboard b = leaderboard(*v, n, db, size.match(*v), def, naive_ms, o.top);
      b.strategy = r.strategy;
      b.evaluated = r.evaluated;
      b.measured_now = size.measured_now() - before;
      report.boards.push_back(std::move(b));
      if (board_done) {
        TuneReport so_far = report;
        so_far.complete = false;
        board_done(so_far);
      }
    }
    const Variant& solver = *find_variant(o.solver.empty() ? kSolverVariant : o.solver);
    size.measure(solver, shipped_config(solver, n, &dev));
  }
  return report;
}

nlohmann::json leaderboards_json(const TuneReport& report, const Session& s) {
  nlohmann::json boards = nlohmann::json::array();
  for (const Leaderboard& b : report.boards) {
    nlohmann::json top = nlohmann::json::array();
    for (const LeaderRow& r : b.rows) {
      top.push_back(
          {{"config", r.entry.config},
           {"name", r.entry.name},
           {"median_ms", r.entry.median_ms},
           {"ci95", {r.ci95.first, r.ci95.second}},
           {"speedup_vs_default", r.vs_default ? nlohmann::json(*r.vs_default) : nlohmann::json()},
           {"speedup_vs_naive", r.vs_naive ? nlohmann::json(*r.vs_naive) : nlohmann::json()}});
    }
    boards.push_back({{"variant", b.variant},
                      {"n", b.n},
                      {"strategy", b.strategy},
                      {"evaluated", b.evaluated},
                      {"measured_now", b.measured_now},
                      {"default", b.default_name},
                      {"top", top}});
  }
  return {{"schema", "apsp-leaderboard/2"},
          {"complete", report.complete},
          {"context", to_json(make_context(s))},
          {"leaderboards", boards}};
}

}  // namespace apsp::harness
