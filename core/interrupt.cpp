#include "core/interrupt.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/atomic_file.hpp"

namespace apsp {

namespace {

// A line made before the handler can need it: the handler may neither allocate nor format.
struct Line {
  char text[1024];
  std::atomic<size_t> size{0};
};
Line g_sigint_line, g_sigterm_line;

void set_line(Line& line, const std::string& text) {
  line.size.store(0, std::memory_order_release);  // a signal meanwhile writes nothing of it
  std::string shown = text;
  if (shown.size() > sizeof line.text) shown = shown.substr(0, sizeof line.text - 4) + "...\n";
  std::memcpy(line.text, shown.data(), shown.size());
  line.size.store(shown.size(), std::memory_order_release);
}

extern "C" void exit_on_signal(int sig) {
  remove_temporaries_now();
  const Line& line = sig == SIGINT ? g_sigint_line : g_sigterm_line;
  const size_t size = line.size.load(std::memory_order_acquire);
  for (size_t done = 0; done < size;) {
    const ssize_t w = write(STDERR_FILENO, line.text + done, size - done);
    if (w <= 0) break;  // a closed or full stderr: the exit status still tells
    done += static_cast<size_t>(w);
  }
  _exit(128 + sig);
}

void install(int sig) {
  struct sigaction old {};
  if (sigaction(sig, nullptr, &old) != 0) return;
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) return;
  struct sigaction sa {};
  sa.sa_handler = exit_on_signal;
  // The other signal waits while one is handled: one line, one exit status.
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(sig, &sa, nullptr);
}

}  // namespace

std::string interrupted_line(const std::string& program, int signal, const std::string& kept) {
  return fmt::format("{}: interrupted by {}{}{}\n", program,
                     signal == SIGINT ? "SIGINT" : "SIGTERM", kept.empty() ? "" : "; ", kept);
}

void exit_on_interrupt(const std::string& program, const std::string& kept) {
  set_line(g_sigint_line, interrupted_line(program, SIGINT, kept));
  set_line(g_sigterm_line, interrupted_line(program, SIGTERM, kept));
  static const bool installed = [] {
    install(SIGINT);
    install(SIGTERM);
    return true;
  }();
  (void)installed;
}

}  // namespace apsp
