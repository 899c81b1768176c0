#include "reports/plots.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/console.hpp"

namespace apsp::report {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

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

namespace {

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

}  // namespace

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
  std::string cmd = fmt::format("python3 {} --out {}", shell_quote(script), shell_quote(out_dir));
  if (!db.empty()) cmd += fmt::format(" --db {}", shell_quote(db));
  for (const std::string& f : files) cmd += fmt::format(" {}", shell_quote(f));
  cmd += fmt::format(" 2>{}", shell_quote(log));
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

}  // namespace apsp::report
