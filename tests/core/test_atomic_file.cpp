// AtomicFile: the target appears whole or not at all, and nothing is left beside it, whether
// the writer commits, gives up, or is killed (the kills are real: a forked child signals itself).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"

namespace apsp {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt_name();
    fs::create_directories(dir_);
    target_ = (dir_ / "out.txt").string();
    std::ofstream(target_) << "old content\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string fmt_name() {
    return "apsp-atomic-" + std::to_string(getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string content() const {
    std::ifstream in(target_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Runs `body` in a child process and returns its wait status.
  template <class F>
  static int in_child(F body) {
    const pid_t pid = fork();
    if (pid == 0) {
      body();
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
  }

  fs::path dir_;
  std::string target_;
};

TEST_F(AtomicFileTest, CommitReplacesTheTargetAndLeavesNothingElse) {
  for (AtomicFile::Mode mode : {AtomicFile::Mode::automatic, AtomicFile::Mode::named}) {
    AtomicFile f(target_, mode);
    f.write("new content\n");
    EXPECT_EQ(content(), "old content\n") << "the target is untouched until commit";
    f.commit(/*sync=*/true);
    EXPECT_EQ(content(), "new content\n");
    EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
    std::ofstream(target_) << "old content\n";
  }
}

TEST_F(AtomicFileTest, UnnamedWhileWritingWhereTheFilesystemAllows) {
  AtomicFile f(target_);
  f.write("partial");
  if (!f.unnamed()) GTEST_SKIP() << "this filesystem has no O_TMPFILE";
  EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"}) << "nothing visible before commit";
  EXPECT_EQ(live_temporaries(), 0);
}

TEST_F(AtomicFileTest, NamedTemporaryIsGuardedWhileWriting) {
  AtomicFile f(target_, AtomicFile::Mode::named);
  EXPECT_FALSE(f.unnamed());
  EXPECT_EQ(entries().size(), 2u) << "the named temporary beside the target";
  EXPECT_EQ(live_temporaries(), 1);
}

TEST_F(AtomicFileTest, AbandonedWriteLeavesTheOldFile) {
  for (AtomicFile::Mode mode : {AtomicFile::Mode::automatic, AtomicFile::Mode::named}) {
    {
      AtomicFile f(target_, mode);
      f.write("half of it");
    }
    EXPECT_EQ(content(), "old content\n");
    EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
    EXPECT_EQ(live_temporaries(), 0);
  }
}

// SIGTERM and SIGINT in the named mode: the handler removes the temporary and the child still
// dies of the signal. SIGKILL in the default mode: the unnamed file goes with the process.
TEST_F(AtomicFileTest, KilledWriterLeavesTheOldFileAndNoTemporary) {
  struct Case {
    AtomicFile::Mode mode;
    int sig;
  };
  for (const Case c :
       {Case{AtomicFile::Mode::named, SIGTERM}, Case{AtomicFile::Mode::named, SIGINT},
        Case{AtomicFile::Mode::named, SIGHUP}, Case{AtomicFile::Mode::automatic, SIGKILL},
        Case{AtomicFile::Mode::automatic, SIGTERM}}) {
    const int status = in_child([&] {
      AtomicFile f(target_, c.mode);
      f.write(std::string(1 << 20, 'x'));
      kill(getpid(), c.sig);
      pause();
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << c.sig << ": the child exited normally";
    EXPECT_EQ(WTERMSIG(status), c.sig) << "the signal's default action ends the program";
    EXPECT_EQ(content(), "old content\n");
    EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"}) << "signal " << c.sig;
  }
}

TEST_F(AtomicFileTest, AnIgnoredSignalStaysIgnored) {
  const int status = in_child([&] {
    std::signal(SIGHUP, SIG_IGN);  // as under nohup
    AtomicFile f(target_, AtomicFile::Mode::named);
    kill(getpid(), SIGHUP);
    f.write("done\n");
    f.commit(false);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(content(), "done\n");
}

TEST_F(AtomicFileTest, NewFileHasTheUmaskPermissions) {
  fs::remove(target_);
  const mode_t old = umask(022);
  for (AtomicFile::Mode mode : {AtomicFile::Mode::automatic, AtomicFile::Mode::named}) {
    AtomicFile f(target_, mode);
    f.commit(false);
    struct stat st {};
    ASSERT_EQ(stat(target_.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
  }
  umask(old);
}

TEST_F(AtomicFileTest, RefusesAMissingFolderAndAFolderAsTarget) {
  try {
    AtomicFile f((dir_ / "no-such-folder" / "x.txt").string());
    FAIL() << "created a file in a missing folder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-folder/x.txt: cannot create a file in"),
              std::string::npos)
        << e.what();
  }
  try {
    AtomicFile f(dir_.string());
    FAIL() << "accepted a folder as the target";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace apsp
