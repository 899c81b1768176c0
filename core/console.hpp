// Small shared pieces of the command-line programs.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace apsp {

// A progress line on stderr, rewritten in place; only when stderr is a terminal, so logs and
// pipes stay clean. progress_done() clears it before normal output.
void progress(const std::string& line);
void progress_done();

// "about 40 s", "about 4.5 min"; "" under a second. time_left adds " left".
std::string rough_duration(double seconds);
std::string time_left(double seconds);
// The line a ProgressMeter draws: "writing the output: 25% (about 9 s left)", the time left at
// the rate so far. Pure, for the tests.
std::string progress_text(const std::string& what, double done, double total, double elapsed_s);

// One long piece of work (rounds of a solve, rows of an output, points of a search) seen on a
// terminal: silent for its first 2 s, so that short work prints nothing, then a progress()
// line with the time left, redrawn at most 4 times a second; cleared when the meter goes.
class ProgressMeter {
 public:
  explicit ProgressMeter(std::string what);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;
  void update(double done, double total);
  double elapsed_s() const;

 private:
  std::string what_;
  double start_s_, last_draw_s_ = 0;
  bool drawn_ = false;
};

// `bytes` fit for a one-line message: a NUL as \0, other control and non-ASCII bytes as \xHH,
// so that a NUL cannot cut the message, a newline cannot break it and an invisible byte shows.
std::string escaped(std::string_view bytes);

// The exit codes of every program, one scheme (README, "Exit codes"), so that a script can tell
// "nothing was done" from "it ran and failed" in any of them:
//   0 done;
//   1 the work ran and failed (a run FAILED, a wrong result, a write, the plots, compare's
//     threshold, memory that ran out midway);
//   2 refused before any work, nothing written: a bad command line, an input file that cannot be
//     read or is malformed, or a graph too large for this machine; one line on stderr;
//   3 no CUDA device, for work that needs one.
// apsp_worker, an internal helper the programs start, follows it too (0, 1 a command failed, 2).
inline constexpr int kExitOk = 0, kExitFailed = 1, kExitRefused = 2, kExitNoDevice = 3;
// --gpus asks for more CUDA devices than this machine has (apsp_bench, apsp): checked before any
// work, like 2, and told apart from it so that a script can fall back to fewer GPUs.
inline constexpr int kExitTooFewGpus = 4;
// The --help paragraph listing them, the same words in every program; `failure` gives this
// program's examples of 1. A program that needs no device says that it never returns 3.
std::string exit_codes_help(const std::string& failure, bool uses_device = true);
// The --help sentence of every program that writes files: how an output is written
// (core/atomic_file.hpp), the same words everywhere.
std::string outputs_help();

// A probe's command line: at most one argument. `--help` / `-h` prints `about` and the exit codes
// (`failure` as in exit_codes_help) and asks for 0; two or more arguments are refused with one
// line naming `what` the argument is, asking for 2. Otherwise `value` is the argument, "" if none.
struct ProbeArgument {
  std::string value;
  std::optional<int> exit_code;  // set: return it, the command line is handled
};
ProbeArgument probe_argument(int argc, const char* const* argv, const char* program,
                             const char* what, const std::string& about,
                             const std::string& failure);

// What the program is doing, for the one line an exception becomes: while a Doing is alive,
// an exception that leaves its scope is reported as having happened while doing it, with the
// bytes it needed where that is known ("out of memory while building the 46341 x 46341 distance
// matrix (8.6 GB; 2.1 GB available, RLIMIT_AS)"). The innermost scope an exception leaves wins.
class Doing {
 public:
  explicit Doing(std::string what, uint64_t bytes = 0);
  ~Doing();
  Doing(const Doing&) = delete;
  Doing& operator=(const Doing&) = delete;

 private:
  std::string what_;
  uint64_t bytes_;
  int exceptions_at_start_;
};

// The one line for an exception caught at the top of a program (without the program's name):
// std::bad_alloc as "out of memory while ..., N needed; M available (source)", a
// std::system_error once standard output has failed (a print that threw) as "cannot write to
// standard output: why", others as their message, after what was being done when the exception
// left a Doing scope.
std::string failure_text(const std::exception& e);

// A program's main(): run(argc, argv), with any exception that reaches it printed as one line
// "NAME: failure_text" and exit 1; then finish_standard_output.
int run_program(const char* name, int (*run)(int, char**), int argc, char** argv);

// A program's last word on standard output: flushed, and if any write to it failed (a full disk,
// /dev/full, a closed pipe) exit 1 whatever `rc` was, so that output lost is never a success
// (--help, --list and dry runs included), with one line "NAME: cannot write to standard output"
// where `rc` was 0: a program that failed has said why in its own one line already.
int finish_standard_output(const char* name, int rc);

// The current UTC time, ISO 8601 ("2026-11-22T12:44:03Z"), for results and database entries.
std::string now_iso();

}  // namespace apsp
