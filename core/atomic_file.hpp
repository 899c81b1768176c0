// Outputs. A regular file appears whole or not at all: readers never see half a file, and a
// failure or a kill leaves the old file as it was. What is not a regular file is never replaced.
//
// What a path names decides how it is written (every program's --help says it in the words of
// outputs_help(), core/console.hpp):
//  - A regular file, or a name that does not exist yet: replaced (or created) atomically, as
//    below. A replaced file keeps its mode, and its owner and group where this process may set
//    them (fchown; EPERM is ignored). A new file gets 0666 less the umask, as open(2) gives.
//  - A symbolic link (a chain of them, or a dangling one): followed to its final target, which is
//    replaced (or created) atomically in its own folder; the link stays a link.
//  - A character or block device or a FIFO: opened and written into directly, as a stream, with
//    no temporary and no rename (a FIFO waits for its reader, as a shell's `>` does). What a
//    failure leaves there is what was written before it.
//  - A descriptor path (/dev/fd/N, /proc/self/fd/N, /dev/stdout, /dev/stderr): that descriptor,
//    duplicated, as a stream: a pipe from bash's `>(...)`, or a file opened with `>>` keeping its
//    offset and append mode.
//  - A folder or a socket: refused.
//
// How a regular file is replaced (docs/architecture.md, "Outputs"):
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
#include <vector>

namespace apsp {

struct OutputTarget;

class AtomicFile {
 public:
  enum class Mode { automatic, named };
  // Throws std::runtime_error (one line naming the path) when it cannot create or open the file.
  explicit AtomicFile(std::string path, Mode mode = Mode::automatic);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  int fd() const { return fd_; }
  // A device, FIFO or descriptor: written into directly, commit() only closes it.
  bool streamed() const { return streamed_; }
  // O_TMPFILE: nothing visible until commit().
  bool unnamed() const { return !streamed_ && tmp_.empty(); }
  // The file that commit() replaces: the path with its symbolic links followed ("" when streamed).
  const std::string& target() const { return target_; }
  void write(const std::string& text);
  // Closes and puts the file in place; `sync` flushes it and the folder to the disk first
  // (small metadata files such as the tuning database).
  void commit(bool sync);

 private:
  void open_stream(const OutputTarget& t);
  void open_temporary(Mode mode);
  [[noreturn]] void abandon(const char* what, int error);

  std::string path_, target_, dir_, tmp_;  // tmp_: the named temporary, empty while unnamed
  int fd_ = -1;
  int guard_ = -1;  // slot in the signal handler's list of temporaries to remove
  bool streamed_ = false;
};

void write_file_atomic(const std::string& path, const std::string& text);

// True when `path` names a device, a FIFO or a descriptor (written as a stream, not replaced):
// a program that rewrites a file as it goes (a results file after every run) writes such an
// output once, at the end.
bool written_as_stream(const std::string& path);

// Checked before any work, so that nothing is computed only to fail at the write. `path` is
// fine when it is "-" (standard output, where the program offers it); when it (or its symbolic
// links' final target) is new or a regular file and a file can really be created in its folder
// (probed with an unnamed or at once removed file: permissions alone do not say so on a
// read-only mount or under /proc); when it is a device that opens for writing (opened with
// O_NONBLOCK and closed); a FIFO this process may write (not opened: closing a writer would end
// the input of a reader already waiting, and a FIFO with no reader yet is accepted: the write
// waits for one); or an open, writable descriptor. Otherwise std::invalid_argument, one line
// "OPTION PATH: why", e.g. "-o x/y: the folder x does not exist"; "" is refused ("an empty file
// name"), as is a folder or a socket.
void check_output_path(const std::string& path, const std::string& option,
                       bool dash_is_stdout = false);
// A folder to be created if missing (apsp_report --out): the nearest one that exists, itself or
// above it, must take a new file (probed as above), and nothing on the way may be a file.
void check_output_folder(const std::string& dir, const std::string& option);

// One file a program reads or writes, for check_distinct_files.
struct FileUse {
  std::string path;    // "": not given, not compared; "-": standard input or output
  std::string option;  // how the message names it: "-o", "--paths", "the input"
  bool output = true;
};
// Checked before any work: two outputs that are the same file (the second would replace the
// first), or an output that is one of the inputs, are refused with std::invalid_argument, one
// line "OPTION PATH and OPTION PATH are the same file". The same file: the same device and
// inode where it exists and is a regular file or a FIFO or pipe (a symbolic or hard link to it
// counts; "-" is standard output's or input's descriptor); the same absolute path, symbolic
// links followed, where it does not exist yet; "-" twice among the outputs. A character
// device or a socket (/dev/null, a terminal, a connection) takes any number of streams and is
// never the same file. Two inputs are never compared.
void check_distinct_files(const std::vector<FileUse>& files);

// The temporaries a SIGINT/SIGTERM/SIGHUP handler would remove now (for tests).
int live_temporaries();
// Removes them; async-signal-safe (no allocation, no lock), for a program's own signal handler.
void remove_temporaries_now() noexcept;

}  // namespace apsp
