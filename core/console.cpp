#include "core/console.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <new>
#include <optional>
#include <system_error>

#include "core/memory.hpp"

namespace apsp {

void progress(const std::string& line) {
  static const bool tty = isatty(STDERR_FILENO);
  if (tty) fmt::print(stderr, "\r\033[K{}", line);
}

void progress_done() {
  static const bool tty = isatty(STDERR_FILENO);
  if (tty) fmt::print(stderr, "\r\033[K");
}

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

std::string rough_duration(double seconds) {
  if (!(seconds >= 1)) return "";
  return seconds < 120 ? fmt::format("about {:.0f} s", seconds)
                       : fmt::format("about {:.1f} min", seconds / 60);
}

std::string time_left(double seconds) {
  const std::string d = rough_duration(seconds);
  return d.empty() ? "" : d + " left";
}

std::string progress_text(const std::string& what, double done, double total, double elapsed_s) {
  const double share = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
  const std::string left =
      done > 0 && total > done ? time_left(elapsed_s / done * (total - done)) : "";
  return fmt::format("{}: {:.0f}%{}", what, 100 * share, left.empty() ? "" : " (" + left + ")");
}

ProgressMeter::ProgressMeter(std::string what) : what_(std::move(what)), start_s_(now_s()) {}

ProgressMeter::~ProgressMeter() {
  if (drawn_) progress_done();
}

double ProgressMeter::elapsed_s() const { return now_s() - start_s_; }

void ProgressMeter::update(double done, double total) {
  const double t = now_s();
  if (t - start_s_ < 2 || t - last_draw_s_ < 0.25) return;
  last_draw_s_ = t;
  drawn_ = true;
  progress(progress_text(what_, done, total, t - start_s_));
}

namespace {
struct Failed {
  std::string what;
  uint64_t bytes = 0;
};
thread_local std::optional<Failed> failed_while;  // the innermost Doing an exception left
}  // namespace

Doing::Doing(std::string what, uint64_t bytes)
    : what_(std::move(what)), bytes_(bytes), exceptions_at_start_(std::uncaught_exceptions()) {
  failed_while.reset();
}

Doing::~Doing() {
  // Unwinding an exception thrown in this scope: the first (innermost) scope to go records it.
  // Left normally: any exception of an inner scope was handled inside, so its record is stale.
  if (std::uncaught_exceptions() <= exceptions_at_start_)
    failed_while.reset();
  else if (!failed_while)
    failed_while = Failed{what_, bytes_};
}

std::string failure_text(const std::exception& e) {
  const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
  const auto* system = dynamic_cast<const std::system_error*>(&e);
  std::string line;
  if (system && std::ferror(stdout)) {
    // A print to a standard output that failed (fmt::print says "cannot write to file").
    line =
        fmt::format("cannot write to standard output: {}", std::strerror(system->code().value()));
  } else if (memory) {
    const MemoryLimit left = available_memory();
    const std::string needed = failed_while && failed_while->bytes
                                   ? fmt::format("{} needed; ", human_bytes(failed_while->bytes))
                                   : "";
    const std::string available = left.bytes == UINT64_MAX
                                      ? "no limit known"
                                      : fmt::format("{}: {}", left.source, human_bytes(left.bytes));
    line = fmt::format("out of memory{} ({}{})", failed_while ? " while " + failed_while->what : "",
                       needed, available);
  } else {
    line = failed_while ? fmt::format("while {}: {}", failed_while->what, e.what())
                        : std::string(e.what());
  }
  failed_while.reset();
  return line;
}

std::string exit_codes_help(const std::string& failure, bool uses_device) {
  return fmt::format(
      "Exit codes (the same in every program): 0 done; 1 the work failed ({}); 2 refused "
      "before any work, nothing written: a bad command line, an input file that cannot be "
      "read or is malformed, or a graph too large for this machine (one line on stderr); "
      "3 no CUDA device{}; 4 fewer CUDA devices than --gpus asks (apsp_bench and apsp).",
      failure, uses_device ? "" : " (never: this program needs none)");
}

std::string outputs_help() {
  return "Outputs: a regular file is replaced atomically (whole or not at all, its mode kept); a "
         "device, FIFO or pipe is written into as a stream; a symlink's target is replaced.";
}

ProbeArgument probe_argument(int argc, const char* const* argv, const char* program,
                             const char* what, const std::string& about,
                             const std::string& failure) {
  if (argc > 2) {
    std::fprintf(stderr, "%s: takes at most one argument, %s (got %d); see --help\n", program, what,
                 argc - 1);
    return {{}, kExitRefused};
  }
  if (argc < 2) return {};
  const std::string arg = argv[1];
  if (arg == "--help" || arg == "-h") {
    std::printf("%s\n%s\n", about.c_str(), exit_codes_help(failure).c_str());
    return {{}, kExitOk};
  }
  return {arg, std::nullopt};
}

namespace {

void say_standard_output_failed(const char* name, int error) {
  std::fprintf(stderr, "%s: cannot write to standard output%s%s\n", name, error ? ": " : "",
               error ? std::strerror(error) : "");
}

}  // namespace

int finish_standard_output(const char* name, int rc) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int e = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return rc;
  // A program that failed has said why in its one line (its own write to standard output among
  // the causes); this line is for one that would have succeeded.
  if (rc == kExitOk) say_standard_output_failed(name, e);
  return kExitFailed;
}

int run_program(const char* name, int (*run)(int, char**), int argc, char** argv) {
  int rc = kExitFailed;
  try {
    rc = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, failure_text(e).c_str());
  }
  return finish_standard_output(name, rc);
}

std::string escaped(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == 0)
      out += "\\0";
    else if (c < 0x20 || c >= 0x7f)
      out += fmt::format("\\x{:02X}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace apsp
