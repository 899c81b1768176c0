#include "core/console.hpp"

#include <fmt/format.h>
#include <unistd.h>

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
