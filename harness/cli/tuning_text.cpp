#include "harness/cli/tuning_text.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/interrupt.hpp"
#include "core/tables.hpp"
#include "harness/cli/program.hpp"
#include "harness/pipeline/describe_plan.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

std::string search_groups_help() {
  std::vector<std::string> parts;
  for (const std::string& g : search_groups()) {
    std::vector<std::string> owners;
    for (const Variant& v : registry()) {
      std::vector<std::string> names;
      for (const Param& p : params_in_group(v, g)) names.push_back(p.name);
      if (!names.empty()) owners.push_back(fmt::format("{}: {}", v.name, fmt::join(names, ", ")));
    }
    parts.push_back(fmt::format("{} ({})", g, fmt::join(owners, "; ")));
  }
  return fmt::format("which parameters: {}, or all", fmt::join(parts, ", "));
}

std::string leaderboard_text(const Leaderboard& b, const std::string& db_path) {
  Grid g{{"rank", "config", "median ms", "95% CI", "vs default", "vs naive"}};
  int rank = 0;
  for (const LeaderRow& r : b.rows) {
    g.push_back({std::to_string(++rank), r.entry.name, fmt::format("{:.3f}", r.entry.median_ms),
                 fmt::format("[{:.3f}, {:.3f}]", r.ci95.first, r.ci95.second),
                 r.vs_default ? fmt::format("{:.2f}x", *r.vs_default) : "-",
                 r.vs_naive ? fmt::format("{:.1f}x", *r.vs_naive) : "-"});
  }
  return fmt::format(
      "\n{} at n = {}: {} search evaluated {} point(s), {} measured now, the rest from {}\n{}(vs "
      "default: against {}, the shipped default at this n)\n",
      b.variant, b.n, b.strategy, b.evaluated, b.measured_now, db_path, render_text(g),
      b.default_name);
}

void tuning_dry_run(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                    const TuneOptions& tune) {
  Plan plan;
  plan.sizes = sizes;
  plan.graph = tuning_graph(tune);
  PlanNotes notes;
  notes.searches.emplace();
  for (const Variant* v : variants) {
    plan.requests.push_back(Request{v, std::nullopt});
    notes.searches->push_back(search_space(*v, tune));
  }
  bool fits = true;
  fmt::print("{}", describe_plan(plan, notes, &fits));
  std::string assumed;
  const DeviceInfo dev = dry_run_device(assumed);
  for (size_t i = 0; i < variants.size(); ++i) {
    if (variants[i]->kernel_hash.empty()) continue;
    std::vector<std::pair<Config, int>> runs;
    for (const Config& c : notes.searches->at(i).points)
      for (int n : sizes) runs.emplace_back(c, n);
    if (const std::string why = kernel_never_runs(*variants[i], runs, dev); !why.empty())
      throw ProgramExit(kExitFailed, why);
  }
  if (!fits)
    throw ProgramExit(kExitFailed,
                      "a size does not fit the device's memory (see the plan's warnings)");
}

TuningDb read_tuning_db(const std::string& path, bool searching) {
  try {
    std::string note;
    TuningDb db = searching ? TuningDb::load(path, &note) : TuningDb::load_existing(path, &note);
    if (!note.empty()) fmt::print("{}\n", note);
    return db;
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("--db {}", e.what()));
  }
}

TuneReport run_search(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                      const TuneOptions& options, const Session& session, TuningDb& db,
                      const SearchKeeping& keeping) {
  const DeviceInfo& dev = *session.device;
  fmt::print("device: {} (cc {}, {} SMs); database {}; build {} (kernels {})\n", dev.name, dev.cc(),
             dev.sms, keeping.db_path, session.build.commit, session.build.kernels);
  std::string kept = "every point measured is in " + keeping.db_path + " (a rerun resumes there)";
  if (!keeping.json_path.empty()) kept += ", the finished leaderboards in " + keeping.json_path;
  exit_on_interrupt(keeping.program, kept);
  const Observer observer{progress, [](const std::string& line) {
                            progress_done();
                            fmt::print("{}\n", line);
                          }};
  const std::string& json = keeping.json_path;
  const auto write_json = [&](const TuneReport& report) {
    if (!json.empty() && (report.complete || !written_as_stream(json)))
      write_file_atomic(json, leaderboards_json(report, session).dump(2) + "\n");
  };
  TuneReport none_yet;  // a file of an earlier search is not this one's
  none_yet.complete = false;
  write_json(none_yet);
  const TuneReport report =
      tune(variants, sizes, options, session, db, keeping.db_path, observer,
           [&](const TuneReport& so_far) {
             progress_done();
             fmt::print("{}", leaderboard_text(so_far.boards.back(), keeping.db_path));
             write_json(so_far);
           });
  progress_done();
  write_json(report);
  return report;
}

}  // namespace apsp::harness
