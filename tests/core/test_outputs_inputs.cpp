// What is checked before any work: output paths, the memory a graph may take; and inputs that
// are not regular files (pipes, folders).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/memory.hpp"
#include "harness/tune/solver_choice.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

using test::message_of;

// The progress line of long work (apsp's CPU solve and write, the tuner's points): the share
// done and the time left at the rate so far.
TEST(Progress, LineShowsTheShareAndTheTimeLeft) {
  EXPECT_EQ(progress_text("writing the output", 25, 100, 3.0),
            "writing the output: 25% (about 9 s left)");
  EXPECT_EQ(progress_text("solving", 1, 157, 1.7), "solving: 1% (about 4.4 min left)");
  EXPECT_EQ(progress_text("solving", 0, 157, 5.0), "solving: 0%") << "no rate yet, no guess";
  EXPECT_EQ(progress_text("solving", 157, 157, 267.0), "solving: 100%");
  EXPECT_EQ(time_left(0.4), "");
  EXPECT_EQ(time_left(119), "about 119 s left");
}

// Early in a long CPU solve, one line with the estimate (at the rate so far) and how to
// use a GPU; none for a short one, none before the rate means something.
TEST(Progress, LongCpuSolvesAreAnnounced) {
  EXPECT_EQ(harness::cpu_solve_estimate_s(0.3, 1, 157), std::nullopt) << "under a second of rounds";
  EXPECT_DOUBLE_EQ(*harness::cpu_solve_estimate_s(1.7, 1, 157), 1.7 * 157);
  EXPECT_DOUBLE_EQ(*harness::cpu_solve_estimate_s(0.2, 4, 4), 0.2) << "all rounds done";
  EXPECT_EQ(harness::cpu_solve_estimate_line(1000, 12.0), "");
  const std::string line = harness::cpu_solve_estimate_line(10000, 1.7 * 157);
  EXPECT_NE(line.find("V = 10000 will take about 4.4 min"), std::string::npos) << line;
  EXPECT_NE(line.find("solves on the GPU"), std::string::npos) << line;
}

// An exception becomes one line naming what was being done, and for memory how much it needed
// and what is available (gen_graph, apsp: a bare "std::bad_alloc" before).
TEST(FailureText, NamesWhatWasBeingDoneAndTheMemory) {
  try {
    const Doing outer("solving");
    const Doing inner("building the 46341 x 46341 distance matrix", matrix_bytes(46341));
    throw std::bad_alloc();
  } catch (const std::exception& e) {
    const std::string line = failure_text(e);
    EXPECT_EQ(
        line.rfind(
            "out of memory while building the 46341 x 46341 distance matrix (8.6 GB needed; ", 0),
        0u)
        << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
  }
  try {
    const Doing doing("reading g.txt");
    throw std::runtime_error("g.txt: cannot read: Input/output error");
  } catch (const std::exception& e) {
    EXPECT_EQ(failure_text(e), "while reading g.txt: g.txt: cannot read: Input/output error");
  }
  {
    const Doing outer("a step that handles a failure inside");
    try {
      const Doing doing("a step that fails and is handled");
      throw std::runtime_error("handled");
    } catch (const std::exception&) {
    }
  }
  EXPECT_EQ(failure_text(std::runtime_error("plain")), "plain")
      << "a handled failure leaves no stale record";
}

// The probes' command line: one argument at most, --help with the exit codes, and a refusal
// (exit 2, one line) for more, before any work.
TEST(ProbeArgument, OneArgumentHelpOrARefusal) {
  const char* none[] = {"probe"};
  const ProbeArgument empty = probe_argument(1, none, "probe", "n", "about", "a wrong value");
  EXPECT_EQ(empty.value, "");
  EXPECT_FALSE(empty.exit_code);

  const char* one[] = {"probe", "1024"};
  const ProbeArgument given = probe_argument(2, one, "probe", "n", "about", "a wrong value");
  EXPECT_EQ(given.value, "1024");
  EXPECT_FALSE(given.exit_code);

  const char* help[] = {"probe", "--help"};
  testing::internal::CaptureStdout();
  const ProbeArgument helped =
      probe_argument(2, help, "probe", "n", "probe: what it times", "a wrong value");
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(helped.exit_code);
  EXPECT_EQ(*helped.exit_code, kExitOk);
  EXPECT_EQ(out.rfind("probe: what it times\nExit codes", 0), 0u) << out;
  EXPECT_NE(out.find("a wrong value"), std::string::npos) << out;

  const char* two[] = {"probe", "1024", "2048"};
  testing::internal::CaptureStderr();
  const ProbeArgument refused = probe_argument(3, two, "probe", "n", "about", "a wrong value");
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(refused.exit_code);
  EXPECT_EQ(*refused.exit_code, kExitRefused);
  EXPECT_EQ(err, "probe: takes at most one argument, n (got 2); see --help\n");
}

// A program's command line through CLI11: parsed (go on), --help (0) or a usage error as one line (2).
TEST(CommandLine, ParsedHelpedOrRefusedInOneLine) {
  auto parse = [](std::vector<std::string> args, int& seed) {
    CLI::App app{"prog: what it does"};
    add_integer_option(app, "--seed", seed, 0, 100, "seed");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return parse_command_line(app, static_cast<int>(argv.size()), argv.data(), "prog");
  };
  int seed = 1;
  EXPECT_EQ(parse({"prog", "--seed", "7"}, seed), std::nullopt);
  EXPECT_EQ(seed, 7);

  testing::internal::CaptureStdout();
  const std::optional<int> helped = parse({"prog", "--help"}, seed);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(helped, kExitOk);
  EXPECT_NE(out.find("prog: what it does"), std::string::npos) << out;

  testing::internal::CaptureStderr();
  const std::optional<int> refused = parse({"prog", "--seed", "101"}, seed);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(refused, kExitRefused);
  EXPECT_EQ(err, "prog: --seed: 101 is out of range [0, 100] (see --help)\n");
  EXPECT_EQ(seed, 7);
}

TEST(OutputPath, FolderMustExistAndTheTargetMustNotBeAFolder) {
  const test::ScratchDir scratch;
  const std::string dir = scratch.path().string() + "/";
  std::ofstream(scratch.file("a_file")) << "x";
  EXPECT_EQ(message_of([&] { check_output_path(dir + "r.json", "--json"); }), "");
  EXPECT_EQ(message_of([&] { check_output_path("r.json", "--json"); }), "") << "the current folder";
  EXPECT_EQ(message_of([&] { check_output_path("/no-such-folder/r.json", "--json"); }),
            "--json /no-such-folder/r.json: the folder /no-such-folder does not exist");
  EXPECT_EQ(message_of([&] { check_output_path(dir, "-o"); }),
            "-o " + dir + ": is a folder, not a file");
  EXPECT_EQ(message_of([&] { check_output_path(dir + "a_file/x", "-o"); }),
            "-o " + dir + "a_file/x: " + dir + "a_file is not a folder");
  EXPECT_EQ(message_of([&] { check_output_path("-", "-o", /*dash_is_stdout=*/true); }), "");
  EXPECT_NE(message_of([&] { check_output_path("", "--db"); }), "");
}

TEST(OutputPath, AReadOnlyFolderIsRefused) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write into any folder";
  const test::ScratchDir scratch;
  const std::string dir = scratch.file("read-only");
  std::filesystem::create_directories(dir);
  chmod(dir.c_str(), 0555);
  EXPECT_NE(message_of([&] { check_output_path(dir + "/x", "-o"); }).find("is not writable"),
            std::string::npos);
  chmod(dir.c_str(), 0755);
}

TEST(OutputPath, AFolderToCreateNeedsAWritableAncestorAndNoFileOnTheWay) {
  const test::ScratchDir scratch;
  EXPECT_EQ(message_of([&] { check_output_folder(scratch.file("a/b/c"), "--out"); }), "");
  std::ofstream(scratch.file("a_file")) << "x";
  EXPECT_EQ(message_of([&] { check_output_folder(scratch.file("a_file/report"), "--out"); }),
            "--out " + scratch.file("a_file/report") + ": " + scratch.file("a_file") +
                " is not a folder");
}

TEST(MemoryLimit, TheTightestSourceWinsAndIsNamed) {
  EXPECT_EQ(tightest({}).bytes, UINT64_MAX);
  const MemoryLimit m = tightest({8'000'000'000, 2'000'000'000, 5'000'000'000});
  EXPECT_EQ(m.bytes, 2'000'000'000u);
  EXPECT_EQ(m.source, "what the cgroup's memory limit leaves");
  EXPECT_EQ(tightest({8'000'000'000, std::nullopt, 1'000}).source, "what ulimit -v leaves");
  EXPECT_EQ(tightest({8'000'000'000, std::nullopt, std::nullopt}).source,
            "available memory (MemAvailable)");
}

TEST(MemoryLimit, ThisMachineHasSomeAndNotMoreThanItsRam) {
  const MemorySources s = memory_sources();
  ASSERT_TRUE(s.meminfo_available) << "/proc/meminfo has MemAvailable on Linux 3.14 and later";
  const uint64_t ram = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  EXPECT_GT(available_memory().bytes, 0u);
  EXPECT_LE(available_memory().bytes, ram);
}

TEST(ReadInput, APipeIsStreamedToItsEnd) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string text = "3 2\n";
  for (int i = 0; i < 200000; ++i) text += "# padding that makes the pipe fill several times\n";
  std::thread writer([&] {
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t w = write(fds[1], text.data() + done, text.size() - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    close(fds[1]);
  });
  const std::string got = read_whole_input("/proc/self/fd/" + std::to_string(fds[0]));
  writer.join();
  close(fds[0]);
  EXPECT_EQ(got, text);
}

TEST(ReadInput, AFolderIsRefusedWithoutAllocating) {
  EXPECT_EQ(message_of([] { read_whole_input("/tmp"); }),
            "/tmp: is a folder, not an edge-list file");
}

}  // namespace
}  // namespace apsp
