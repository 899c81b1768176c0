// A program stopped by SIGINT or SIGTERM (core/interrupt.hpp): one line on stderr, exit 130 or
// 143, no temporary left; a signal ignored from the start stays ignored. In child processes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/atomic_file.hpp"
#include "core/interrupt.hpp"
#include "core/results.hpp"

namespace apsp {
namespace {

struct Child {
  int status = 0;
  std::string stderr_text;
};

// Runs `body` in a child whose stderr is read back; its exit status, as waitpid gives it.
template <typename Body>
Child run_child(Body body) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    body();
    _exit(0);
  }
  close(fds[1]);
  Child c;
  char buf[256];
  for (ssize_t r; (r = read(fds[0], buf, sizeof buf)) > 0;) c.stderr_text.append(buf, r);
  close(fds[0]);
  waitpid(pid, &c.status, 0);
  return c;
}

TEST(Interrupt, TheLineSaysWhichSignalAndWhatWasKept) {
  EXPECT_EQ(interrupted_line("apsp_bench", SIGTERM, "the finished runs are in r.json"),
            "apsp_bench: interrupted by SIGTERM; the finished runs are in r.json\n");
  EXPECT_EQ(interrupted_line("tuner", SIGINT, ""), "tuner: interrupted by SIGINT\n");
}

TEST(Interrupt, ExitsWith128PlusTheSignalAndLeavesNoTemporary) {
  std::string dir = testing::TempDir() + "apsp-interrupt-XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  for (const auto& [sig, code] : {std::pair{SIGTERM, kExitSigterm}, {SIGINT, kExitSigint}}) {
    const Child c = run_child([&, sig = sig] {
      exit_on_interrupt("prog", "kept in " + dir + "/r.json");
      // A file being written when the signal comes, in the mode that leaves a named temporary.
      AtomicFile f(dir + "/r.json", AtomicFile::Mode::named);
      f.write("half");
      raise(sig);
    });
    ASSERT_TRUE(WIFEXITED(c.status)) << "killed by signal " << WTERMSIG(c.status);
    EXPECT_EQ(WEXITSTATUS(c.status), code);
    EXPECT_EQ(c.stderr_text, interrupted_line("prog", sig, "kept in " + dir + "/r.json"));
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << "the temporary was removed";
  }
  std::filesystem::remove_all(dir);
}

TEST(Interrupt, AnIgnoredSignalStaysIgnored) {
  const Child c = run_child([] {
    signal(SIGINT, SIG_IGN);  // a background job of a shell without job control
    exit_on_interrupt("prog", "");
    raise(SIGINT);
    _exit(7);
  });
  ASSERT_TRUE(WIFEXITED(c.status));
  EXPECT_EQ(WEXITSTATUS(c.status), 7);
  EXPECT_EQ(c.stderr_text, "");
}

TEST(ResultsComplete, ReadBothWaysAndAbsentMeansComplete) {
  Results r;
  r.context.device = {{"name", "d"}};
  EXPECT_EQ(to_json(r).at("complete"), true);
  r.complete = false;
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j.at("complete"), false);
  EXPECT_FALSE(results_from_json(j).complete);
  j.erase("complete");
  EXPECT_TRUE(results_from_json(j).complete) << "files from before it was recorded are whole";
  j["complete"] = "no";
  try {
    results_from_json(j);
    ADD_FAILURE() << "a complete that is not a boolean was read";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/complete: not true or false");
  }
}

}  // namespace
}  // namespace apsp
