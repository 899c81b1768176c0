#include "core/console.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

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
  return seconds < 120 ? fmt::format("about {:.0f} s", seconds) : fmt::format("about {:.1f} min", seconds / 60);
}

std::string time_left(double seconds) {
  const std::string d = rough_duration(seconds);
  return d.empty() ? "" : d + " left";
}

std::string progress_text(const std::string& what, double done, double total, double elapsed_s) {
  const double share = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
  const std::string left = done > 0 && total > done ? time_left(elapsed_s / done * (total - done)) : "";
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

std::string escaped(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == 0) out += "\\0";
    else if (c < 0x20 || c >= 0x7f) out += fmt::format("\\x{:02X}", c);
    else out += static_cast<char>(c);
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
