// The programs' scaffold: what stops a program becomes one line "PROGRAM: what" on stderr and its
// exit code, whatever the program.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cli/program.hpp"

namespace apsp::harness {
namespace {

struct Ended {
  int rc;
  std::string err;
};

// run_program over `args` (after the program's name) with one option, --n INT, and `body`.
Ended run_with(std::vector<std::string> args, const std::function<int(const CLI::App&)>& body) {
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int n = 0;
  testing::internal::CaptureStderr();
  const int rc = run_program(
      {"prog", "prog: a test program."}, static_cast<int>(argv.size()), argv.data(),
      [&](CLI::App& app) { app.add_option("--n", n, "a number"); }, body);
  return {rc, testing::internal::GetCapturedStderr()};
}

TEST(Program, TheBodysReturnIsTheExitCode) {
  const Ended r = run_with({"--n", "4"}, [](const CLI::App&) { return 0; });
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.err, "");
}

TEST(Program, AUsageErrorIsOneLineAndExit2BeforeTheBody) {
  bool ran = false;
  const Ended r = run_with({"--bogus"}, [&](const CLI::App&) {
    ran = true;
    return 0;
  });
  EXPECT_EQ(r.rc, kExitRefused);
  EXPECT_FALSE(ran);
  // CLI11's own words between the program's name and the pointer to --help.
  EXPECT_TRUE(r.err.starts_with("prog: ")) << r.err;
  EXPECT_TRUE(r.err.ends_with(": --bogus (see --help)\n")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Program, AProgramExitEndsWithItsCodeAndLineAfterItsLog) {
  Ended r =
      run_with({}, [](const CLI::App&) -> int { throw ProgramExit(kExitNoDevice, "no device"); });
  EXPECT_EQ(r.rc, kExitNoDevice);
  EXPECT_EQ(r.err, "prog: no device\n");
  r = run_with({},
               [](const CLI::App&) -> int { throw ProgramExit(kExitRefused, "bad", "a\nlog"); });
  EXPECT_EQ(r.rc, kExitRefused);
  EXPECT_EQ(r.err, "a\nlog\nprog: bad\n");
}

TEST(Program, AnyOtherExceptionIsItsLineAndExit1) {
  const Ended r =
      run_with({}, [](const CLI::App&) -> int { throw std::runtime_error("disk gone"); });
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_EQ(r.err, "prog: disk gone\n");
}

TEST(Program, AStepThatThrowsEndsWithTheCodeItIsGiven) {
  const Ended r = run_with({}, [](const CLI::App&) {
    exit_if_thrown(kExitRefused, [] { throw std::invalid_argument("--n: too big"); });
    return 0;
  });
  EXPECT_EQ(r.rc, kExitRefused);
  EXPECT_EQ(r.err, "prog: --n: too big\n");
  // A ProgramExit inside keeps its own code.
  EXPECT_EQ(run_with({},
                     [](const CLI::App&) {
                       return exit_if_thrown(kExitRefused, []() -> int {
                         throw ProgramExit(kExitTooFewGpus, "two GPUs asked for");
                       });
                     })
                .rc,
            kExitTooFewGpus);
  EXPECT_EQ(exit_if_thrown(kExitRefused, [] { return 7; }), 7);
}

}  // namespace
}  // namespace apsp::harness
