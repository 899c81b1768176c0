// apsp_report: report tables, A/B comparison and plots from results JSON.
//   apsp_report r.json [more.json ...] --out DIR [--db tuning.json]   -> DIR/report.md + PNGs
//   apsp_report r.json --format md|csv|json                          -> the tables on stdout
//   apsp_report compare A.json B.json [--threshold 0.05] [--force]
// Exit codes (core/console.hpp): 1 something got slower beyond the threshold (compare), a
// write or the plots failed; 2 the command line or a file read is refused, before any output.
#include <fmt/format.h>
#include <sys/wait.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "reports/report.hpp"

namespace apsp::report {
namespace {

constexpr int kExitSlower = kExitFailed;  // compare: something got slower beyond the threshold

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The plotting script the user named (APSP_PLOT_SCRIPT), if any. One that is not there is a
// refusal before any work, not a report without plots: std::runtime_error, one line.
std::optional<std::string> named_plot_script() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("APSP_PLOT_SCRIPT");
  if (!env || !*env) return std::nullopt;
  std::error_code ec;
  const fs::file_status st = fs::status(env, ec);
  if (!fs::is_regular_file(st))
    throw std::runtime_error(fmt::format(
        "APSP_PLOT_SCRIPT={}: {} (unset it for the default plotting script)", escaped(env),
        fs::exists(st)                                     ? "not a file"
        : ec && ec != std::errc::no_such_file_or_directory ? ec.message()
                                                           : "no such file"));
  return env;
}

// The plotting script, found from where this program is rather than from a path compiled in,
// so that an installed or moved build works: beside the program (the build tree copies it
// there), or in ../share/apsp-kernel-lab (cmake --install). APSP_PLOT_SCRIPT overrides both.
// Empty when there is none, and `why` says where it was looked for.
std::string find_plot_script(std::string& why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const std::optional<std::string> named = named_plot_script()) return *named;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    why = "plot_results.py not found: /proc/self/exe cannot be read (set APSP_PLOT_SCRIPT)";
    return "";
  }
  const fs::path beside = exe.parent_path() / "plot_results.py";
  const fs::path shared =
      (exe.parent_path() / "../share/apsp-kernel-lab/plot_results.py").lexically_normal();
  for (const fs::path& p : {beside, shared})
    if (fs::is_regular_file(p, ec)) return p.string();
  why = fmt::format("plot_results.py is neither at {} nor at {} (set APSP_PLOT_SCRIPT)",
                    beside.string(), shared.string());
  return "";
}

// Runs the plotting script; returns the PNG names it wrote, or explains in `note` why none.
// The script's own messages (a traceback) go to DIR/plot.log, and `failed` is set when it
// exits non-zero, so that the program does too, with one line.
std::vector<std::string> plot(const std::vector<std::string>& files, const std::string& db,
                              const std::string& out_dir, std::string& note, bool& failed) {
  std::string why;
  const std::string script = find_plot_script(why);
  if (script.empty()) {
    note = "Plots skipped: " + why + ".";
    fmt::print(stderr, "apsp_report: {}\n", note);
    return {};
  }
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    note = "Plots skipped: python3 with matplotlib was not found (scripts/setup.sh installs it).";
    fmt::print(stderr, "apsp_report: {}\n", note);
    return {};
  }
  const std::string log = out_dir + "/plot.log";
  std::string cmd = "python3 " + shell_quote(script) + " --out " + shell_quote(out_dir);
  if (!db.empty()) cmd += " --db " + shell_quote(db);
  for (const std::string& f : files) cmd += " " + shell_quote(f);
  cmd += " 2>" + shell_quote(log);
  std::vector<std::string> pngs;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error(fmt::format("cannot run {}: {}", script, std::strerror(errno)));
  std::optional<ProgressMeter> meter{
      "plotting"};  // the script says "progress DONE TOTAL" after each plot
  char line[4096];
  while (std::fgets(line, sizeof line, p)) {
    std::string s(line);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (s.size() > 4 && s.ends_with(".png")) pngs.push_back(s);
    double done = 0, total = 0;
    if (std::sscanf(s.c_str(), "progress %lf %lf", &done, &total) == 2) meter->update(done, total);
  }
  meter.reset();
  const int status = pclose(p);
  if (status != 0) {
    std::string last;  // the exception's own line, the last of a traceback
    std::ifstream in(log);
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) last = l;
    note = fmt::format("Plots failed: {} exited with status {}{}; its messages are in {}", script,
                       WIFEXITED(status) ? WEXITSTATUS(status) : status,
                       last.empty() ? "" : " (" + last + ")", log);
    fmt::print(stderr, "apsp_report: {}\n", note);
    failed = true;
    return {};
  }
  std::error_code ec;
  if (std::filesystem::file_size(log, ec) == 0) std::filesystem::remove(log, ec);
  return pngs;
}

struct Options {
  std::vector<std::string> files;
  std::string out_dir, db_path, format;
  std::string file_a, file_b;  // compare
  double threshold = 0.05;
  bool force = false;
};

// The command line; returns the compare subcommand (parsed() when it was given).
CLI::App* add_options(CLI::App& app, Options& o) {
  app.option_defaults()->always_capture_default();
  app.add_option("results", o.files, "results JSON files (schema apsp-bench/1)");
  app.add_option("--out", o.out_dir, "folder for report.md and the plots")->check(file_to_write());
  app.add_option("--db", o.db_path,
                 "a tuning database: adds the tuner leaderboards and the batch heatmap");
  app.add_option("--format", o.format, "print the tables alone on stdout")
      ->check(CLI::IsMember({"md", "csv", "json"}));
  auto* cmp = app.add_subcommand("compare",
                                 "B/A of medians per (config, n), with a 95% bootstrap interval");
  cmp->add_option("A", o.file_a, "the reference results")->required();
  cmp->add_option("B", o.file_b, "the results compared with A")->required();
  cmp->add_option("--threshold", o.threshold,
                  "exit 1 when a run is slower by more than this fraction")
      ->check(CLI::Range(0.0, 100.0));
  cmp->add_flag("--force", o.force, "compare results from different device models");
  return cmp;
}

// --out can take report.md, which is none of the files read; throws std::invalid_argument.
void check_report_files(const Options& o) {
  check_output_folder(o.out_dir, "--out");
  const std::string report = o.out_dir + "/report.md";
  std::error_code ec;
  if (std::filesystem::is_directory(o.out_dir, ec)) check_output_path(report, "--out");
  std::vector<FileUse> files{{report, "--out"}, {o.db_path, "--db", false}};
  for (const std::string& f : o.files) files.push_back({f, "the results", false});
  check_distinct_files(files);
}

// Everything the report reads; a file that cannot be read or is not valid throws.
struct Loaded {
  std::vector<Input> inputs;
  std::optional<TuningDb> db;
};
Loaded load_all(const Options& o) {
  if (o.files.empty()) throw std::runtime_error("no results files given (see --help)");
  if (o.out_dir.empty() && o.format.empty())
    throw std::runtime_error("give --out DIR or --format md|csv|json");
  if (!o.out_dir.empty()) {
    check_report_files(o);
    named_plot_script();
  }
  Loaded l;
  for (const std::string& f : o.files) l.inputs.push_back(load(f));
  if (!o.db_path.empty()) {
    try {
      l.db = TuningDb::load_existing(o.db_path);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(fmt::format("--db {}", e.what()));
    }
  }
  return l;
}

int run_compare(const Options& o) {
  std::optional<Input> a, b;
  std::optional<Comparison> c;
  try {
    a = load(o.file_a);
    b = load(o.file_b);
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp_report: {}\n", failure_text(e));
    return kExitRefused;
  }
  try {
    c = compare(*a, *b, o.threshold, o.force);
  } catch (const std::exception& e) {  // two device models without --force
    fmt::print(stderr, "apsp_report: {}\n", failure_text(e));
    return kExitRefused;
  }
  for (const Input* in : {&*a, &*b})
    if (const std::string note = incomplete_note(*in); !note.empty()) {
      fmt::print(stderr, "apsp_report: {}\n", note);
      fmt::print("{}\n", note);
    }
  fmt::print("{}", render_text(c->table));
  fmt::print("\n{} faster, {} slower ({} beyond {:.0f}%), {} the same (interval contains 1)\n",
             c->faster, c->slower, c->slower_beyond_threshold, o.threshold * 100, c->same);
  for (const auto& [file, runs] : {std::pair{o.file_a, c->only_a}, {o.file_b, c->only_b}})
    if (!runs.empty())
      fmt::print("not compared, only in {} (or failed in the other): {}\n", file,
                 fmt::join(runs, ", "));
  return c->slower_beyond_threshold > 0 ? kExitSlower : 0;
}

// The tables alone on stdout, in --format.
void print_tables(const Options& o, const Loaded& l) {
  const std::string& format = o.format;
  nlohmann::json all = nlohmann::json::object();
  for (const Input& in : l.inputs) {
    if (const std::string note = incomplete_note(in); !note.empty()) {
      if (format == "md") fmt::print("{}\n\n", note);
      if (format == "csv") fmt::print("# {}\n", note);
      if (format == "json") all[in.path]["complete"] = false;
    }
    const std::pair<const char*, Grid> tables[] = {{"speedup_table", course_table(in)},
                                                   {"speedup_matrix", speedup_matrix(in)},
                                                   {"ceiling_matrix", ceiling_matrix(in)},
                                                   {"phases", phase_table(in)}};
    for (const auto& [name, g] : tables) {
      if (g.empty()) continue;
      if (format == "md") fmt::print("## {}: {}\n\n{}\n", in.path, name, render_markdown(g));
      if (format == "csv") fmt::print("# {}: {}\n{}\n", in.path, name, render_csv(g));
      if (format == "json") all[in.path][name] = g;
    }
  }
  if (l.db) {  // the leaderboards, as report.md has them
    const Grid board = leaderboard(*l.db, 5);
    if (format == "md")
      fmt::print("## {}: tuner leaderboards\n\n{}\n", o.db_path, render_markdown(board));
    if (format == "csv") fmt::print("# {}: tuner leaderboards\n{}\n", o.db_path, render_csv(board));
    if (format == "json") all[o.db_path]["leaderboards"] = board;
  }
  if (format == "json") fmt::print("{}\n", all.dump(2));
}

// report.md and the plots into --out; kExitFailed when the plots failed.
int write_report(const Options& o, const Loaded& l) {
  std::filesystem::create_directories(o.out_dir);
  std::string note;
  bool plots_failed = false;
  const std::vector<std::string> pngs = plot(o.files, o.db_path, o.out_dir, note, plots_failed);
  write_file_atomic(o.out_dir + "/report.md", markdown(l.inputs, l.db, pngs, note));
  if (plots_failed) return kExitFailed;
  fmt::print("wrote {}/report.md and {} plot(s)\n", o.out_dir, pngs.size());
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{
      "apsp_report: tables, comparisons and plots from apsp_bench results JSON.\n" +
      exit_codes_help("compare: slower beyond --threshold; or a write or the plots failed", false) +
      "\n" + outputs_help()};
  Options o;
  CLI::App* cmp = add_options(app, o);
  if (const auto rc = parse_command_line(app, argc, argv, "apsp_report")) return *rc;
  if (cmp->parsed()) return run_compare(o);
  // Everything read first: a file that cannot be read or is not valid is a refusal (exit 2)
  // before any output; only what follows (the tables, report.md, the plots) can fail with 1.
  Loaded l;
  try {
    l = load_all(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp_report: {}\n", failure_text(e));
    return kExitRefused;
  }
  for (const Input& in : l.inputs)
    if (const std::string note = incomplete_note(in); !note.empty())
      fmt::print(stderr, "apsp_report: {}\n", note);
  for (size_t i = 0; i < o.files.size(); ++i)
    if (!l.inputs[i].has_baseline)
      fmt::print(stderr, "apsp_report: {}: no naive runs, so no baseline: speedups are not shown\n",
                 o.files[i]);
  try {
    if (!o.format.empty()) print_tables(o, l);
    if (o.out_dir.empty()) return 0;
    return write_report(o, l);
  } catch (const std::exception& e) {  // a write (report.md, the folder): the work failed
    fmt::print(stderr, "apsp_report: {}\n", failure_text(e));
    return kExitFailed;
  }
}

}  // namespace
}  // namespace apsp::report

int main(int argc, char** argv) {
  return apsp::run_program("apsp_report", apsp::report::run, argc, argv);
}
