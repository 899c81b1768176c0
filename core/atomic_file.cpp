#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string_view>

namespace apsp {

namespace {

// The named temporaries alive now, for the signal handler. Fixed storage and lock-free atomics
// only: the handler may run at any point of any thread, so it must not allocate or lock.
constexpr int kGuardSlots = 64;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
struct GuardSlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
GuardSlot g_slots[kGuardSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

extern "C" void remove_temporaries_and_reraise(int sig) {
  remove_temporaries_now();
  // The default action, so the parent sees "killed by SIGTERM" as without this handler.
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Only where the disposition is still the default: an ignored SIGHUP (nohup) stays ignored, and
// a program's own handler is left alone.
void install_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
          old.sa_handler != SIG_DFL)
        continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&sa.sa_mask);
      sigaction(sig, &sa, nullptr);
    }
  });
}

// -1 when the path cannot be guarded (too long, or every slot taken): the destructor still
// removes it, only a signal would leave it behind.
int guard(const std::string& path) {
  install_signal_handlers();
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kGuardSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;
}

void unguard(int& slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree, std::memory_order_release);
  slot = -1;
}

// What a new file gets: 0666 less the umask, as open(2) would give (mkstemp gives 0600).
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = umask(0);
    umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// O_TMPFILE is refused with one of these where the filesystem or the kernel lacks it.
bool tmpfile_unsupported(int e) {
  return e == EOPNOTSUPP || e == EISDIR || e == EINVAL || e == ENOSYS;
}

std::string random_suffix() {
  static std::mutex m;
  static std::mt19937_64 rng(std::random_device{}() ^ (static_cast<uint64_t>(getpid()) << 32));
  std::lock_guard lock(m);
  return fmt::format("{:016x}", rng());
}

}  // namespace

AtomicFile::AtomicFile(std::string path, Mode mode) : path_(std::move(path)) {
  const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  dir_ = parent.empty() ? "." : parent.string();
  struct stat st {};
  if (stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw std::runtime_error(fmt::format("{}: is a folder, not a file", path_));
  if (const char* forced = std::getenv("APSP_ATOMIC_FILE");
      forced && std::string_view(forced) == "named")
    mode = Mode::named;
  if (mode == Mode::automatic && access("/proc/self/fd", X_OK) == 0) {
    fd_ = open(dir_.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd_ >= 0) return;
    if (!tmpfile_unsupported(errno))
      throw std::runtime_error(
          fmt::format("{}: cannot create a file in {}: {}", path_, dir_, std::strerror(errno)));
  }
  tmp_ = path_ + ".tmp.XXXXXX";
  fd_ = mkostemp(tmp_.data(), O_CLOEXEC);
  if (fd_ < 0)
    throw std::runtime_error(
        fmt::format("{}: cannot create a file in {}: {}", path_, dir_, std::strerror(errno)));
  guard_ = guard(tmp_);
  fchmod(fd_, new_file_mode());
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) close(fd_);
  if (!tmp_.empty()) unlink(tmp_.c_str());
  unguard(guard_);
}

void AtomicFile::write(const std::string& text) {
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t w = ::write(fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0)
      throw std::runtime_error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
    p += w;
    left -= static_cast<size_t>(w);
  }
}

void AtomicFile::commit(bool sync) {
  const auto fail = [&](const char* what, int e) {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) unlink(tmp_.c_str());
    tmp_.clear();
    unguard(guard_);
    throw std::runtime_error(fmt::format("{}: {}: {}", path_, what, std::strerror(e)));
  };
  if (sync && fsync(fd_) != 0) fail("cannot finish writing", errno);
  if (unnamed()) {
    // linkat cannot replace a file, so the unnamed file gets a temporary name first; the
    // rename below then replaces the target in one step.
    const std::string self = fmt::format("/proc/self/fd/{}", fd_);
    for (int attempt = 0;; ++attempt) {
      std::string name = fmt::format("{}.tmp.{}", path_, random_suffix());
      if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        tmp_ = std::move(name);
        guard_ = guard(tmp_);
        break;
      }
      if (errno != EEXIST || attempt == 16) fail("cannot name the new file", errno);
    }
  }
  if (close(fd_) != 0) {
    const int e = errno;
    fd_ = -1;
    fail("cannot finish writing", e);
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("cannot rename into place", errno);
  tmp_.clear();
  unguard(guard_);
  if (sync) {  // the rename itself reaches the disk with the folder
    const int dir = open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      fsync(dir);
      close(dir);
    }
  }
}

void write_file_atomic(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text);
  f.commit(/*sync=*/true);
}

namespace {

// "" when this process may create files in `dir`; else why not.
std::string folder_problem(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (!std::filesystem::exists(status))
    return fmt::format("the folder {} does not exist", dir.string());
  if (!std::filesystem::is_directory(status))
    return fmt::format("{} is not a folder", dir.string());
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return fmt::format("the folder {} is not writable: {}", dir.string(), std::strerror(errno));
  return "";
}

}  // namespace

void check_output_path(const std::string& path, const std::string& option, bool dash_is_stdout) {
  if (dash_is_stdout && path == "-") return;
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument(fmt::format("{} {}: {}", option, path, why));
  };
  if (path.empty()) fail("an empty file name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("is a folder, not a file");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (const std::string why = folder_problem(parent.empty() ? "." : parent); !why.empty())
    fail(why);
}

void check_output_folder(const std::string& dir, const std::string& option) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (p.empty()) p = ".";
  std::error_code ec;
  while (!std::filesystem::exists(p, ec) && p.has_parent_path() && p.parent_path() != p)
    p = p.parent_path();
  if (!std::filesystem::exists(p, ec)) p = ".";  // a relative path whose first part is missing
  if (const std::string why = folder_problem(p); !why.empty())
    throw std::invalid_argument(fmt::format("{} {}: {}", option, dir, why));
}

void remove_temporaries_now() noexcept {
  for (GuardSlot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kLive) unlink(s.path);
}

int live_temporaries() {
  int n = 0;
  for (const GuardSlot& s : g_slots) n += s.state.load() == kLive;
  return n;
}

}  // namespace apsp
