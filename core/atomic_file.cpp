#include "core/atomic_file.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace apsp {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp.XXXXXX") {
  fd_ = mkstemp(tmp_.data());
  if (fd_ < 0) throw std::runtime_error(fmt::format("{}: cannot create: {}", path_, std::strerror(errno)));
  fchmod(fd_, 0644);  // mkstemp makes 0600; outputs are for everyone to read
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(tmp_.c_str());
  }
}

void AtomicFile::write(const std::string& text) {
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t w = ::write(fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw std::runtime_error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
    p += w;
    left -= static_cast<size_t>(w);
  }
}

void AtomicFile::commit(bool sync) {
  if ((sync && fsync(fd_) != 0) || close(fd_) != 0) {
    const int e = errno;
    fd_ = -1;
    unlink(tmp_.c_str());
    throw std::runtime_error(fmt::format("{}: cannot finish writing: {}", path_, std::strerror(e)));
  }
  fd_ = -1;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    unlink(tmp_.c_str());
    throw std::runtime_error(fmt::format("{}: cannot rename into place: {}", path_, std::strerror(e)));
  }
}

void write_file_atomic(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text);
  f.commit(/*sync=*/true);
}

}  // namespace apsp
