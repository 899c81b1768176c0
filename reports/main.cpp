// apsp_report: report tables, A/B comparison and plots from results JSON.
//   apsp_report r.json [more.json ...] --out DIR [--db tuning.json]  -> DIR/report.md, report.html
//   apsp_report r.json --format md|csv|json|html [-o FILE]          -> the tables (html: the page)
//   apsp_report compare A.json B.json [--threshold 0.05] [--force] [--format F] [-o FILE]
// Exit codes (core/console.hpp): 1 something got slower beyond the threshold (compare), a
// write or the plots failed; 2 the command line or a file read is refused, before any output.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "harness/cli/program.hpp"
#include "reports/html.hpp"
#include "reports/plots.hpp"
#include "reports/report.hpp"

namespace apsp::report {
namespace {

constexpr int kExitSlower = kExitFailed;  // compare: something got slower beyond the threshold

struct Options {
  std::vector<std::string> files;
  std::string out_dir, db_path, format, output;
  std::string file_a, file_b, compare_format = "text", compare_output;  // compare
  double threshold = 0.05;
  bool force = false;
  CLI::App* compare = nullptr;  // the subcommand: parsed() when it was given
};

// The command line; returns the compare subcommand (parsed() when it was given).
CLI::App* add_options(CLI::App& app, Options& o) {
  app.option_defaults()->always_capture_default();
  app.add_option("results", o.files, "results JSON files (schema apsp-bench/1)");
  app.add_option("--out", o.out_dir, "folder for report.md, report.html and the plots")
      ->check(file_to_write());
  app.add_option("--db", o.db_path,
                 "a tuning database: adds the tuner leaderboards and the batch heatmap");
  app.add_option("--format", o.format,
                 "the tables alone (md, csv, json), or the whole page (html), on stdout or -o")
      ->check(CLI::IsMember({"md", "csv", "json", "html"}));
  app.add_option("-o,--output", o.output, "write --format's output to this file (atomically)")
      ->check(file_to_write());
  auto* cmp = app.add_subcommand("compare",
                                 "B/A of medians per (config, n), with a 95% bootstrap interval");
  cmp->add_option("A", o.file_a, "the reference results")->required();
  cmp->add_option("B", o.file_b, "the results compared with A")->required();
  cmp->add_option("--threshold", o.threshold,
                  "exit 1 when a run is slower by more than this fraction; an interval within "
                  "1 +- this fraction is the same")
      ->check(CLI::Range(0.0, 100.0));
  cmp->add_flag("--force", o.force, "compare results from different device models");
  cmp->add_option("--format", o.compare_format, "text (aligned columns), md, csv, json or html")
      ->check(CLI::IsMember({"text", "md", "csv", "json", "html"}));
  cmp->add_option("-o,--output", o.compare_output, "write the comparison to this file")
      ->check(file_to_write());
  return cmp;
}

// The files written are none of the files read, checked before any work; throws
// std::invalid_argument.
void check_outputs(const std::vector<std::string>& inputs, const std::string& db,
                   const std::string& output, const std::string& out_dir) {
  std::vector<FileUse> files;
  if (!output.empty()) {
    check_output_path(output, "-o", true);
    files.push_back({output, "-o"});
  }
  if (!out_dir.empty()) {
    check_output_folder(out_dir, "--out");
    std::error_code ec;
    for (const char* name : {"report.md", "report.html"}) {
      const std::string path = out_dir + "/" + name;
      if (std::filesystem::is_directory(out_dir, ec)) check_output_path(path, "--out");
      files.push_back({path, "--out"});
    }
  }
  files.push_back({db, "--db", false});
  for (const std::string& f : inputs) files.push_back({f, "the results", false});
  check_distinct_files(files);
}

// Everything the report reads; a file that cannot be read or is not valid throws.
struct Loaded {
  std::vector<Input> inputs;
  std::optional<TuningDb> db;
};
Loaded load_all(const Options& o) {
  if (o.files.empty()) throw std::runtime_error("no results files given (see --help)");
  if (!o.output.empty() && o.format.empty())
    throw std::runtime_error("-o writes --format's output: give --format too");
  if (o.out_dir.empty() && o.format.empty())
    throw std::runtime_error("give --out DIR or --format md|csv|json|html");
  check_outputs(o.files, o.db_path, o.output, o.out_dir);
  if (!o.out_dir.empty()) named_plot_script();
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

// `text` to -o (atomically: whole or not at all) or, without it, to standard output.
void emit(const std::string& text, const std::string& output) {
  if (output.empty() || output == "-")
    fmt::print("{}", text);
  else
    write_file_atomic(output, text);
}

int run_compare(const Options& o) {
  std::optional<Input> a, b;
  std::optional<Comparison> c;
  // A file that cannot be read, or two device models without --force: refused.
  harness::exit_if_thrown(kExitRefused, [&] {
    check_outputs({o.file_a, o.file_b}, "", o.compare_output, "");
    a = load(o.file_a);
    b = load(o.file_b);
    c = compare(*a, *b, o.threshold, o.force);
  });
  for (const std::string& note : c->notes) fmt::print(stderr, "apsp_report: {}\n", note);
  // A fault of the write: the work failed, the scaffold's one line and exit 1.
  emit(o.compare_format == "html" ? html_comparison(*c, *a, *b)
                                  : render_comparison(*c, o.compare_format),
       o.compare_output);
  return c->slower_beyond_threshold > 0 ? kExitSlower : 0;
}

// report.md, report.html and the plots into --out; kExitFailed when the plots failed.
int write_report(const Options& o, const Loaded& l) {
  std::filesystem::create_directories(o.out_dir);
  std::string note;
  bool plots_failed = false;
  const std::vector<std::string> pngs = plot(o.files, o.db_path, o.out_dir, note, plots_failed);
  write_file_atomic(o.out_dir + "/report.md", markdown(l.inputs, l.db, pngs, note));
  write_file_atomic(o.out_dir + "/report.html", html_report(l.inputs, l.db, o.db_path));
  if (plots_failed) return kExitFailed;
  fmt::print("wrote {0}/report.md, {0}/report.html and {1} plot(s)\n", o.out_dir, pngs.size());
  return 0;
}

// Notes on stderr: a stopped sweep, a file without a baseline.
void print_notes(const Loaded& l) {
  for (const Input& in : l.inputs)
    for (const std::string& note : {incomplete_note(in), no_baseline_note(in)})
      if (!note.empty()) fmt::print(stderr, "apsp_report: {}\n", note);
}

int run(const Options& o) {
  if (o.compare->parsed()) return run_compare(o);
  // Everything read first: a file that cannot be read or is not valid is a refusal (exit 2)
  // before any output; only what follows (the tables, the report, the plots) can fail with 1,
  // a write's fault as the scaffold's one line.
  const Loaded l = harness::exit_if_thrown(kExitRefused, [&] { return load_all(o); });
  print_notes(l);
  if (o.format == "html") emit(html_report(l.inputs, l.db, o.db_path), o.output);
  if (!o.format.empty() && o.format != "html")
    emit(render_tables(l.inputs, l.db, o.db_path, o.format), o.output);
  if (o.out_dir.empty()) return 0;
  return write_report(o, l);
}

}  // namespace
}  // namespace apsp::report

int main(int argc, char** argv) {
  apsp::report::Options o;
  const apsp::harness::Program program{
      "apsp_report",
      "apsp_report: tables, comparisons and plots from apsp_bench results JSON.\n" +
          apsp::exit_codes_help(
              "compare: slower beyond --threshold; or a write or the plots failed", false) +
          "\n" + apsp::outputs_help()};
  return apsp::harness::run_program(
      program, argc, argv, [&](CLI::App& app) { o.compare = apsp::report::add_options(app, o); },
      [&](const CLI::App&) { return apsp::report::run(o); });
}
