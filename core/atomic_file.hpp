// A file written through a temporary in the same folder and renamed into place on commit(), so a
// reader never sees half a file and a failure (an exception, a kill) leaves the old file as it
// was. The destructor removes an uncommitted temporary.
#pragma once

#include <string>

namespace apsp {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws std::runtime_error if it cannot create
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  int fd() const { return fd_; }
  void write(const std::string& text);
  // Closes and renames into place; `sync` flushes to the disk first (small metadata files).
  void commit(bool sync);

 private:
  std::string path_, tmp_;
  int fd_ = -1;
};

void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace apsp
