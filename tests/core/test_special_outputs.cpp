// Outputs that are not plain new files: a FIFO, a device, a descriptor and a socket are written
// into (or refused), never replaced; a symbolic link is followed and stays; a replaced file keeps
// its mode and owner; and the checks before any work (check_output_path, check_distinct_files)
// say what cannot be written or names one file twice. Everything lives in a mkdtemp folder of
// the test's own; the device nodes are made there with mknod where permitted (root), else those
// parts skip.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/atomic_file.hpp"
#include "tests/support/message_of.hpp"

namespace apsp {
namespace {

namespace fs = std::filesystem;

using test::message_of;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SpecialOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "apsp-special-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << std::strerror(errno);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return dir_ + "/" + name; }
  // A character device node (major, minor) in the test's folder; "" where mknod is not
  // permitted or the folder's filesystem does not open devices (nodev).
  std::string device(const std::string& name, unsigned major, unsigned minor) const {
    const std::string path = at(name);
    if (mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) != 0) return "";
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return "";
    close(fd);
    return path;
  }
  std::string dir_;
};

mode_t type_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & S_IFMT;
}

TEST_F(SpecialOutputs, AFifoIsWrittenIntoAndStaysAFifo) {
  const std::string fifo = at("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_TRUE(written_as_stream(fifo));
  const std::string text(100000, 'x');  // more than a pipe holds: the reader drains it
  for (AtomicFile::Mode mode : {AtomicFile::Mode::automatic, AtomicFile::Mode::named}) {
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });  // waits for the writer's open
    AtomicFile f(fifo, mode);
    EXPECT_TRUE(f.streamed());
    f.write(text);
    f.commit(/*sync=*/true);
    reader.join();
    EXPECT_EQ(received, text);
    EXPECT_EQ(type_of(fifo), S_IFIFO);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1)
      << "nothing beside it";
}

TEST_F(SpecialOutputs, ADescriptorPathWritesIntoThatDescriptor) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  for (const std::string& path :
       {"/dev/fd/" + std::to_string(p[1]), "/proc/self/fd/" + std::to_string(p[1])}) {
    EXPECT_EQ(message_of([&] { check_output_path(path, "-o"); }), "");
    EXPECT_TRUE(written_as_stream(path));
    AtomicFile f(path);
    EXPECT_TRUE(f.streamed());
    f.write("through the pipe\n");
    f.commit(/*sync=*/true);  // fsync's EINVAL on a pipe is no failure
    char buf[64] = {};
    EXPECT_EQ(read(p[0], buf, sizeof buf), 17);
    EXPECT_EQ(std::string(buf), "through the pipe\n");
  }
  EXPECT_EQ(message_of([&] { check_output_path("/dev/fd/" + std::to_string(p[0]), "-o"); }),
            "-o /dev/fd/" + std::to_string(p[0]) + ": descriptor " + std::to_string(p[0]) +
                " is open for reading only");
  close(p[0]);
  close(p[1]);
  EXPECT_EQ(message_of([&] { check_output_path("/dev/fd/" + std::to_string(p[1]), "-o"); }),
            "-o /dev/fd/" + std::to_string(p[1]) + ": descriptor " + std::to_string(p[1]) +
                " is not open");
}

TEST_F(SpecialOutputs, ASymlinkIsFollowedAndStaysALink) {
  fs::create_directory(at("sub"));
  std::ofstream(at("target")) << "old\n";
  fs::create_symlink("target", at("link"));       // relative, in the same folder
  fs::create_symlink("link", at("chain"));        // a chain of two
  fs::create_symlink("../target", at("sub/up"));  // relative to the link's own folder
  fs::create_symlink("sub/new", at("dangling"));  // its target does not exist yet
  for (const std::string name : {"link", "chain", "sub/up"}) {
    write_file_atomic(at(name), name + "\n");
    EXPECT_EQ(type_of(at(name)), S_IFLNK) << name;
    EXPECT_EQ(read_file(at("target")), name + "\n");
  }
  AtomicFile f(at("dangling"));
  EXPECT_EQ(f.target(), at("sub/new"));
  f.write("created\n");
  f.commit(/*sync=*/false);
  EXPECT_EQ(type_of(at("dangling")), S_IFLNK);
  EXPECT_EQ(read_file(at("sub/new")), "created\n");
  EXPECT_FALSE(written_as_stream(at("link")));
}

TEST_F(SpecialOutputs, ASymlinkLoopOrALinkIntoAMissingFolderIsRefused) {
  fs::create_symlink("b", at("a"));
  fs::create_symlink("a", at("b"));
  EXPECT_EQ(message_of([&] { check_output_path(at("a"), "-o"); }),
            "-o " + at("a") + ": too many levels of symbolic links");
  EXPECT_NE(message_of([&] { AtomicFile f(at("a")); }).find("too many levels"), std::string::npos);
  fs::create_symlink("nowhere/x", at("into-missing"));
  EXPECT_EQ(message_of([&] { check_output_path(at("into-missing"), "-o"); }),
            "-o " + at("into-missing") + ": the folder " + at("nowhere") + " does not exist");
}

TEST_F(SpecialOutputs, AReplacedFileKeepsItsModeAndOwner) {
  const std::string file = at("private.txt");
  for (AtomicFile::Mode mode : {AtomicFile::Mode::automatic, AtomicFile::Mode::named}) {
    for (mode_t perms : {0600, 0640, 0604}) {
      std::ofstream(file) << "old\n";
      ASSERT_EQ(chmod(file.c_str(), perms), 0);
      AtomicFile f(file, mode);
      f.write("new\n");
      f.commit(/*sync=*/false);
      struct stat st {};
      ASSERT_EQ(stat(file.c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 07777, perms);
      EXPECT_EQ(read_file(file), "new\n");
    }
  }
  if (geteuid() != 0) GTEST_SKIP() << "only root may give a file to another owner";
  ASSERT_EQ(chown(file.c_str(), 4321, 4322), 0);
  write_file_atomic(file, "owned\n");
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 4321u);
  EXPECT_EQ(st.st_gid, 4322u);
}

TEST_F(SpecialOutputs, ADeviceIsWrittenIntoAndStaysADevice) {
  const std::string null = device("null", 1, 3), full = device("full", 1, 7);
  if (null.empty() || full.empty()) GTEST_SKIP() << "mknod is not permitted here";
  EXPECT_EQ(message_of([&] { check_output_path(null, "-o"); }), "");
  write_file_atomic(null, "discarded\n");
  EXPECT_EQ(type_of(null), S_IFCHR);
  EXPECT_EQ(message_of([&] { check_output_path(full, "-o"); }), "") << "it opens; writes fail";
  EXPECT_EQ(message_of([&] { write_file_atomic(full, "lost\n"); }),
            full + ": write failed: " + std::strerror(ENOSPC));
  EXPECT_EQ(type_of(full), S_IFCHR);
  // A device takes any number of streams: two outputs onto one are not the same file.
  EXPECT_EQ(message_of([&] { check_distinct_files({{null, "-o"}, {null, "--paths"}}); }), "");
}

TEST_F(SpecialOutputs, AFifoWithoutAReaderPassesTheCheckWithoutBlocking) {
  const std::string fifo = at("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_EQ(message_of([&] { check_output_path(fifo, "-o"); }), "");
  ASSERT_EQ(chmod(fifo.c_str(), 0444), 0);
  if (geteuid() != 0) {
    EXPECT_NE(message_of([&] { check_output_path(fifo, "-o"); }).find("cannot be opened"),
              std::string::npos);
  }
}

TEST_F(SpecialOutputs, ASocketAFolderAndAnEmptyNameAreRefused) {
  const std::string path = at("sock");
  const int s = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(message_of([&] { check_output_path(path, "--json"); }),
            "--json " + path + ": is a socket, not a file");
  EXPECT_NE(message_of([&] { write_file_atomic(path, "x"); }), "");
  EXPECT_EQ(type_of(path), S_IFSOCK);
  close(s);
  EXPECT_EQ(message_of([&] { check_output_path(dir_, "-o"); }),
            "-o " + dir_ + ": is a folder, not a file");
  EXPECT_EQ(message_of([&] { check_output_path("", "-o", /*dash_is_stdout=*/true); }),
            "-o : an empty file name");
  EXPECT_NE(message_of([&] { AtomicFile f(""); }), "");
}

TEST_F(SpecialOutputs, AFolderWhereNoFileCanBeCreatedIsRefusedWhateverItsPermissions) {
  // /proc lets root "write" by its permissions, but no file can be created there.
  EXPECT_NE(message_of([&] {
              check_output_path("/proc/apsp-no-such-file", "-o");
            }).find("-o /proc/apsp-no-such-file: the folder /proc is not writable"),
            std::string::npos);
  EXPECT_NE(message_of([&] { check_output_folder("/proc/apsp-report", "--out"); }), "");
  EXPECT_EQ(message_of([&] { check_output_path(at("new.txt"), "-o"); }), "");
  EXPECT_EQ(fs::directory_iterator(dir_), fs::directory_iterator()) << "the probe left nothing";
}

TEST_F(SpecialOutputs, TheSameFileTwiceIsRefused) {
  std::ofstream(at("x")) << "x\n";
  std::ofstream(at("g.txt")) << "1 0\n";
  fs::create_symlink("x", at("link-to-x"));
  fs::create_hard_link(at("x"), at("hard-x"));
  const auto refusal = [](std::vector<FileUse> files) {
    return message_of([&] { check_distinct_files(files); });
  };
  EXPECT_EQ(refusal({{at("x"), "-o"}, {at("x"), "--paths"}}),
            "-o " + at("x") + " and --paths " + at("x") + " are the same file");
  EXPECT_NE(refusal({{at("x"), "-o"}, {at("link-to-x"), "--paths"}}), "");
  EXPECT_NE(refusal({{at("hard-x"), "-o"}, {at("x"), "--paths"}}), "");
  EXPECT_EQ(refusal({{at("g.txt"), "-o"}, {at("g.txt"), "the input", false}}),
            "-o " + at("g.txt") + " and the input " + at("g.txt") + " are the same file");
  // Not there yet: the same absolute path, symbolic links followed.
  fs::create_symlink("new.txt", at("to-new"));
  EXPECT_NE(refusal({{at("new.txt"), "-o"}, {dir_ + "/./sub/../new.txt", "--paths"}}), "");
  EXPECT_NE(refusal({{at("to-new"), "-o"}, {at("new.txt"), "--paths"}}), "");
  EXPECT_NE(refusal({{"-", "-o"}, {"-", "--paths"}}), "") << "standard output twice";
  // Different files, two inputs, and outputs not given are fine.
  EXPECT_EQ(refusal({{at("x"), "-o"}, {at("y"), "--paths"}, {at("g.txt"), "the input", false}}),
            "");
  EXPECT_EQ(refusal({{at("g.txt"), "--graph", false}, {at("g.txt"), "--baseline", false}}), "");
  EXPECT_EQ(refusal({{"", "-o"}, {"", "--paths"}}), "");
}

}  // namespace
}  // namespace apsp
