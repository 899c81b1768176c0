// A file that appears whole or not at all: readers never see half a file, and a failure or a
// kill leaves the old file as it was.
//
// How (docs/architecture.md, "Outputs"):
//  - Where the filesystem allows (Linux ext4, xfs, btrfs, tmpfs), the file is created unnamed
//    with O_TMPFILE in the target's folder; commit() links it under a temporary name with
//    linkat(/proc/self/fd/N) and renames that over the target. A kill of any kind before
//    commit() leaves nothing: the kernel frees an unnamed file with its last descriptor.
//  - Elsewhere (NFS, older kernels, no /proc) it is a named temporary "TARGET.tmp.XXXXXX" in
//    the same folder, removed by the destructor, and by a SIGINT, SIGTERM or SIGHUP handler
//    (which then re-raises the signal with its default action, so the exit status still says
//    which signal ended the program).
//  - The one leftover: after SIGKILL (or a power cut) in the named mode, or in the moment
//    between the link and the rename of commit(), a "TARGET.tmp.XXXXXX" may remain beside the
//    target. The target itself is intact in every case; such a file can be deleted.
// APSP_ATOMIC_FILE=named in the environment forces the named mode (tests use it to exercise
// the path other filesystems take).
#pragma once

#include <string>

namespace apsp {

class AtomicFile {
 public:
  enum class Mode { automatic, named };
  // Throws std::runtime_error (one line naming the path) when it cannot create the file.
  explicit AtomicFile(std::string path, Mode mode = Mode::automatic);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  int fd() const { return fd_; }
  bool unnamed() const { return tmp_.empty(); }  // O_TMPFILE: nothing visible until commit()
  void write(const std::string& text);
  // Closes and puts the file in place; `sync` flushes it and the folder to the disk first
  // (small metadata files such as the tuning database).
  void commit(bool sync);

 private:
  std::string path_, dir_, tmp_;  // tmp_: the named temporary, empty while unnamed
  int fd_ = -1;
  int guard_ = -1;  // slot in the signal handler's list of temporaries to remove
};

void write_file_atomic(const std::string& path, const std::string& text);

// Checked before any work, so that nothing is computed only to fail at the write. `path` is
// fine when it is "-" (standard output, where the program offers it), or when its folder
// exists and this process may create files there, and it is not itself a folder. Otherwise
// std::invalid_argument, one line: "OPTION PATH: the folder DIR does not exist".
void check_output_path(const std::string& path, const std::string& option,
                       bool dash_is_stdout = false);
// A folder to be created if missing (apsp_report --out): the nearest one that exists, itself or
// above it, must be writable, and nothing on the way may be a file.
void check_output_folder(const std::string& dir, const std::string& option);

// The temporaries a SIGINT/SIGTERM/SIGHUP handler would remove now (for tests).
int live_temporaries();
// Removes them; async-signal-safe (no allocation, no lock), for a program's own signal handler.
void remove_temporaries_now() noexcept;

}  // namespace apsp
