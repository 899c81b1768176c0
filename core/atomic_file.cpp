#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
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

// SIGINT, SIGTERM and SIGHUP held back while a named temporary is created and entered in the
// list: one arriving in between would find the file on disk but not in the list, and leave it.
// Delivered when this ends, it then removes the file.
class HeldSignals {
 public:
  HeldSignals() {
    install_signal_handlers();
    sigset_t held;
    sigemptyset(&held);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, sig);
    pthread_sigmask(SIG_BLOCK, &held, &old_);
  }
  ~HeldSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t old_;
};

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

// What an output path names, its symbolic links followed; shared by AtomicFile and the checks.
struct OutputTarget {
  enum Kind { kNew, kRegular, kStream, kFolder, kRefused } kind = kNew;
  std::string path;   // the file to replace or create, or the one to open (kStream)
  int fd = -1;        // a descriptor path's descriptor
  struct stat st {};  // kRegular, kStream (unless fd): the file's status
  std::string why;    // kRefused: why it cannot be written
};

namespace {

// The links of a chain followed before giving up, as the kernel does (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

// The descriptor a path names (/dev/fd/N, /proc/self/fd/N or /proc/PID/fd/N of this process,
// /dev/stdin, /dev/stdout, /dev/stderr); -1 for any other path.
int descriptor_of(const std::string& path) {
  const std::string p = std::filesystem::path(path).lexically_normal().string();
  if (p == "/dev/stdin") return STDIN_FILENO;
  if (p == "/dev/stdout") return STDOUT_FILENO;
  if (p == "/dev/stderr") return STDERR_FILENO;
  for (const std::string& prefix :
       {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
        std::string("/proc/thread-self/fd/"), fmt::format("/proc/{}/fd/", getpid())}) {
    if (!p.starts_with(prefix)) continue;
    const char* first = p.data() + prefix.size();
    const char* last = p.data() + p.size();
    int fd = -1;
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last && first != last && fd >= 0) return fd;
  }
  return -1;
}

OutputTarget classified(OutputTarget t, const struct stat& st) {
  t.st = st;
  if (S_ISREG(st.st_mode)) {
    t.kind = OutputTarget::kRegular;
  } else if (S_ISDIR(st.st_mode)) {
    t.kind = OutputTarget::kFolder;
    t.why = "is a folder, not a file";
  } else if (S_ISSOCK(st.st_mode)) {
    t.kind = OutputTarget::kRefused;
    t.why = "is a socket, not a file";
  } else {
    t.kind = OutputTarget::kStream;
  }
  return t;
}

// Where symbolic link `link` points, relative targets taken from the link's folder; "" and
// errno set when it cannot be read.
std::string link_target(const std::string& link) {
  std::string to(PATH_MAX, '\0');
  const ssize_t len = readlink(link.c_str(), to.data(), to.size());
  if (len < 0 || static_cast<size_t>(len) >= to.size()) {
    if (len >= 0) errno = ENAMETOOLONG;
    return "";
  }
  to.resize(static_cast<size_t>(len));
  if (to.front() == '/') return to;
  return (std::filesystem::path(link).parent_path() / to).string();
}

OutputTarget output_target(const std::string& path) {
  OutputTarget t;
  t.path = path;
  for (int links = 0;; ++links) {
    if (const int fd = descriptor_of(t.path); fd >= 0) {
      t.kind = OutputTarget::kStream;
      t.fd = fd;
      return t;
    }
    struct stat st {};
    if (lstat(t.path.c_str(), &st) != 0) return t;  // new: creating it says what is wrong
    if (!S_ISLNK(st.st_mode)) return classified(std::move(t), st);
    // A link to a device, FIFO or pipe is opened through the link itself: /proc's links to
    // pipes ("pipe:[N]") name no file that could be opened otherwise.
    if (stat(t.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
      return classified(std::move(t), st);
    std::string to = links < kMaxLinks ? link_target(t.path) : "";
    if (to.empty()) {
      t.kind = OutputTarget::kRefused;
      t.why = links < kMaxLinks ? fmt::format("cannot read the symbolic link {}: {}", t.path,
                                              std::strerror(errno))
                                : "too many levels of symbolic links";
      return t;
    }
    t.path = std::move(to);
  }
}

// What a replaced regular file had: its owner and group where this process may set them (root
// may; others only a group they are in), then its mode (after fchown, which clears set-id bits).
// 0, or the errno of fchmod.
int keep_owner_and_mode(int fd, const struct stat& old) {
  struct stat now {};
  if (fstat(fd, &now) == 0 && (now.st_uid != old.st_uid || now.st_gid != old.st_gid) &&
      fchown(fd, old.st_uid, old.st_gid) != 0)
    (void)!fchown(fd, static_cast<uid_t>(-1), old.st_gid);  // EPERM: the owner stays this process
  return fchmod(fd, old.st_mode & 07777) == 0 ? 0 : errno;
}

}  // namespace

AtomicFile::AtomicFile(std::string path, Mode mode) : path_(std::move(path)) {
  if (path_.empty()) throw std::runtime_error("an empty file name");
  const OutputTarget t = output_target(path_);
  if (t.kind == OutputTarget::kFolder || t.kind == OutputTarget::kRefused)
    throw std::runtime_error(fmt::format("{}: {}", path_, t.why));
  if (t.kind == OutputTarget::kStream) {
    open_stream(t);
    return;
  }
  target_ = t.path;
  const std::filesystem::path parent = std::filesystem::path(target_).parent_path();
  dir_ = parent.empty() ? "." : parent.string();
  open_temporary(mode);
  if (t.kind == OutputTarget::kRegular) {
    if (const int e = keep_owner_and_mode(fd_, t.st); e != 0) {
      close(fd_);
      if (!tmp_.empty()) unlink(tmp_.c_str());
      unguard(guard_);
      throw std::runtime_error(
          fmt::format("{}: cannot keep the file's mode: {}", path_, std::strerror(e)));
    }
  } else if (!tmp_.empty()) {
    fchmod(fd_, new_file_mode());  // mkstemp gives 0600
  }
}

// A descriptor is duplicated (its offset and flags shared, as the shell's own `>&N`); a device
// or FIFO is opened without O_TRUNC (a device has nothing to truncate) and, for a FIFO, waits
// for a reader.
void AtomicFile::open_stream(const OutputTarget& t) {
  streamed_ = true;
  if (t.fd >= 0) {
    fd_ = fcntl(t.fd, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0)
      throw std::runtime_error(fmt::format("{}: descriptor {} is not open", path_, t.fd));
    return;
  }
  do {
    fd_ = open(t.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0)
    throw std::runtime_error(
        fmt::format("{}: cannot open for writing: {}", path_, std::strerror(errno)));
}

void AtomicFile::open_temporary(Mode mode) {
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
  tmp_ = target_ + ".tmp.XXXXXX";
  const HeldSignals held;
  fd_ = mkostemp(tmp_.data(), O_CLOEXEC);
  if (fd_ < 0)
    throw std::runtime_error(
        fmt::format("{}: cannot create a file in {}: {}", path_, dir_, std::strerror(errno)));
  guard_ = guard(tmp_);
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

void AtomicFile::abandon(const char* what, int error) {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) unlink(tmp_.c_str());
  tmp_.clear();
  unguard(guard_);
  throw std::runtime_error(fmt::format("{}: {}: {}", path_, what, std::strerror(error)));
}

void AtomicFile::commit(bool sync) {
  // A pipe or a device has nothing to flush: fsync says EINVAL there.
  if (sync && fsync(fd_) != 0 && !(streamed_ && (errno == EINVAL || errno == EROFS)))
    abandon("cannot finish writing", errno);
  if (unnamed()) {
    // linkat cannot replace a file, so the unnamed file gets a temporary name first; the
    // rename below then replaces the target in one step.
    const std::string self = fmt::format("/proc/self/fd/{}", fd_);
    const HeldSignals held;
    for (int attempt = 0;; ++attempt) {
      std::string name = fmt::format("{}.tmp.{}", target_, random_suffix());
      if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        tmp_ = std::move(name);
        guard_ = guard(tmp_);
        break;
      }
      if (errno != EEXIST || attempt == 16) abandon("cannot name the new file", errno);
    }
  }
  if (close(fd_) != 0) {
    const int e = errno;
    fd_ = -1;
    abandon("cannot finish writing", e);
  }
  fd_ = -1;
  if (streamed_) return;
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0) abandon("cannot rename into place", errno);
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

bool written_as_stream(const std::string& path) {
  return !path.empty() && output_target(path).kind == OutputTarget::kStream;
}

namespace {

// 0 when a file can really be created in `dir`, else the errno: permissions alone do not say
// (a read-only mount, /proc, /sys). An unnamed file where the filesystem has them, else a named
// one removed at once.
int probe_create(const std::filesystem::path& dir) {
  int fd = open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) {
    close(fd);
    return 0;
  }
  if (!tmpfile_unsupported(errno)) return errno;
  std::string name = (dir / ".apsp-probe.XXXXXX").string();
  const HeldSignals held;
  fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return errno;
  int slot = guard(name);
  close(fd);
  unlink(name.c_str());
  unguard(slot);
  return 0;
}

// "" when this process may create files in `dir`; else why not.
std::string folder_problem(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (!std::filesystem::exists(status))
    return fmt::format("the folder {} does not exist", dir.string());
  if (!std::filesystem::is_directory(status))
    return fmt::format("{} is not a folder", dir.string());
  if (const int e = probe_create(dir); e != 0)
    return fmt::format("the folder {} is not writable: {}", dir.string(), std::strerror(e));
  return "";
}

// "" when a device, FIFO or descriptor can be written; else why not.
std::string stream_problem(const OutputTarget& t) {
  if (t.fd >= 0) {
    const int flags = fcntl(t.fd, F_GETFL);
    if (flags < 0) return fmt::format("descriptor {} is not open", t.fd);
    if ((flags & O_ACCMODE) == O_RDONLY)
      return fmt::format("descriptor {} is open for reading only", t.fd);
    return "";
  }
  if (S_ISFIFO(t.st.st_mode)) {  // not opened: see check_output_path
    if (faccessat(AT_FDCWD, t.path.c_str(), W_OK, AT_EACCESS) != 0)
      return fmt::format("cannot be opened for writing: {}", std::strerror(errno));
    return "";
  }
  const int fd = open(t.path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot be opened for writing: {}", std::strerror(errno));
  close(fd);
  return "";
}

std::string output_problem(const std::string& path) {
  if (path.empty()) return "an empty file name";
  const OutputTarget t = output_target(path);
  switch (t.kind) {
    case OutputTarget::kFolder:
    case OutputTarget::kRefused:
      return t.why;
    case OutputTarget::kStream:
      return stream_problem(t);
    case OutputTarget::kNew:
    case OutputTarget::kRegular:
      break;
  }
  const std::filesystem::path parent = std::filesystem::path(t.path).parent_path();
  return folder_problem(parent.empty() ? "." : parent);
}

}  // namespace

void check_output_path(const std::string& path, const std::string& option, bool dash_is_stdout) {
  if (dash_is_stdout && path == "-") return;
  if (const std::string why = output_problem(path); !why.empty())
    throw std::invalid_argument(fmt::format("{} {}: {}", option, path, why));
}

void check_output_folder(const std::string& dir, const std::string& option) {
  if (dir.empty()) throw std::invalid_argument(fmt::format("{} '': an empty folder name", option));
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (p.empty()) p = ".";
  std::error_code ec;
  while (!std::filesystem::exists(p, ec) && p.has_parent_path() && p.parent_path() != p)
    p = p.parent_path();
  if (!std::filesystem::exists(p, ec)) p = ".";  // a relative path whose first part is missing
  if (const std::string why = folder_problem(p); !why.empty())
    throw std::invalid_argument(fmt::format("{} {}: {}", option, dir, why));
}

namespace {

// What check_distinct_files compares: the file where it exists, else its absolute path.
struct FileIdentity {
  bool exists = false, streams = false;  // streams: a character device or socket
  dev_t dev{};
  ino_t ino{};
  std::string path;
};

FileIdentity identity_of(const FileUse& f) {
  FileIdentity id;
  struct stat st {};
  const int fd = f.path == "-" ? (f.output ? STDOUT_FILENO : STDIN_FILENO) : descriptor_of(f.path);
  if (fd >= 0 ? fstat(fd, &st) == 0 : stat(f.path.c_str(), &st) == 0) {
    id.exists = true;
    id.streams = S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  if (fd >= 0) {
    id.path = fmt::format("<descriptor {}>", fd);
    return id;
  }
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(output_target(f.path).path, ec);
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(p, ec);
  id.path = (ec ? p.lexically_normal() : canonical).string();
  return id;
}

bool same_file(const FileUse& a, const FileIdentity& ia, const FileUse& b, const FileIdentity& ib) {
  if (a.output && b.output && a.path == "-" && b.path == "-") return true;
  if (ia.exists != ib.exists) return false;
  if (!ia.exists) return ia.path == ib.path;
  return ia.dev == ib.dev && ia.ino == ib.ino && !ia.streams;
}

}  // namespace

void check_distinct_files(const std::vector<FileUse>& files) {
  std::vector<FileIdentity> ids;
  for (const FileUse& f : files) ids.push_back(f.path.empty() ? FileIdentity{} : identity_of(f));
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j) {
      const FileUse &a = files[i], &b = files[j];
      if (a.path.empty() || b.path.empty() || (!a.output && !b.output)) continue;
      if (same_file(a, ids[i], b, ids[j]))
        throw std::invalid_argument(
            fmt::format("{} {} and {} {} are the same file", a.option, a.path, b.option, b.path));
    }
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
