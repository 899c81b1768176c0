// Small shared pieces of the command-line programs.
#pragma once

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

// The current UTC time, ISO 8601 ("2026-11-22T12:44:03Z"), for results and database entries.
std::string now_iso();

}  // namespace apsp
