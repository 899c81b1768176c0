// One process per GPU without a GPU: the launchers' variables (harness/multigpu/launch.hpp) and the
// rendezvous (harness/multigpu/rendezvous.hpp) among P forked processes on this host.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/multigpu/launch.hpp"
#include "harness/multigpu/rendezvous.hpp"

namespace apsp::harness {
namespace {

GetEnv env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(LaunchWorld, NoLauncherOrOneProcessIsNoWorld) {
  EXPECT_FALSE(launch_world(env_of({})));
  EXPECT_FALSE(launch_world(env_of({{"WORLD_SIZE", "1"}, {"RANK", "0"}})));
  // a Slurm batch script is one process, whatever its allocation holds
  EXPECT_FALSE(launch_world(env_of({{"SLURM_NTASKS", "8"}, {"SLURM_PROCID", "0"}})));
}

TEST(LaunchWorld, TorchrunMeetsAfterItsOwnStore) {
  const auto w = launch_world(env_of({{"RANK", "2"},
                                      {"WORLD_SIZE", "4"},
                                      {"LOCAL_RANK", "2"},
                                      {"MASTER_ADDR", "node7"},
                                      {"MASTER_PORT", "29500"}}));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->launcher, "torchrun");
  EXPECT_EQ(w->rank, 2);
  EXPECT_EQ(w->size, 4);
  EXPECT_EQ(w->local_rank, 2);
  EXPECT_EQ(w->host, "node7");
  EXPECT_EQ(w->port, 29501);
  EXPECT_EQ(w->rendezvous_timeout_s, 300);
}

TEST(LaunchWorld, OpenMpiAndSlurm) {
  const auto mpi = launch_world(env_of({{"OMPI_COMM_WORLD_RANK", "5"},
                                        {"OMPI_COMM_WORLD_SIZE", "16"},
                                        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                        {"MASTER_ADDR", "10.0.0.1"},
                                        {"MASTER_PORT", "6000"}}));
  ASSERT_TRUE(mpi);
  EXPECT_EQ(mpi->launcher, "Open MPI");
  EXPECT_EQ(mpi->rank, 5);
  EXPECT_EQ(mpi->size, 16);
  EXPECT_EQ(mpi->local_rank, 1);
  EXPECT_EQ(mpi->port, 6000);
  const auto slurm = launch_world(env_of({{"SLURM_PROCID", "3"},
                                          {"SLURM_STEP_NUM_TASKS", "8"},
                                          {"SLURM_LOCALID", "3"},
                                          {"APSP_RENDEZVOUS", "head:7000"},
                                          {"APSP_RENDEZVOUS_TIMEOUT", "12.5"}}));
  ASSERT_TRUE(slurm);
  EXPECT_EQ(slurm->rendezvous_timeout_s, 12.5);
  EXPECT_EQ(slurm->launcher, "Slurm");
  EXPECT_EQ(slurm->rank, 3);
  EXPECT_EQ(slurm->host, "head");
  EXPECT_EQ(slurm->port, 7000);
}

TEST(LaunchWorld, MalformedOrMissingIsOneLine) {
  const auto refused = [](const std::map<std::string, std::string>& vars) {
    try {
      launch_world(env_of(vars));
    } catch (const std::invalid_argument& e) {
      const std::string line = e.what();
      EXPECT_EQ(line.find('\n'), std::string::npos) << line;
      return line;
    }
    return std::string();
  };
  EXPECT_NE(
      refused({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}}).find("MASTER_ADDR"),
      std::string::npos);
  EXPECT_NE(
      refused({{"RANK", "4"}, {"WORLD_SIZE", "4"}, {"MASTER_ADDR", "a"}, {"MASTER_PORT", "1"}})
          .find("RANK=4"),
      std::string::npos);
  EXPECT_NE(refused({{"RANK", "x"}, {"WORLD_SIZE", "2"}}).find("RANK=x"), std::string::npos);
  EXPECT_NE(refused({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"APSP_RENDEZVOUS", "nohost"}})
                .find("host:port"),
            std::string::npos);
  // a timeout that is no positive number of seconds is refused, not taken as the default
  for (const char* t : {"abc", "-5", "0", "10s", ""})
    EXPECT_NE(refused({{"RANK", "0"},
                       {"WORLD_SIZE", "2"},
                       {"APSP_RENDEZVOUS", "a:1"},
                       {"APSP_RENDEZVOUS_TIMEOUT", t}})
                  .find(std::string("APSP_RENDEZVOUS_TIMEOUT=") + t + ":"),
              std::string::npos)
        << t;
  // the highest port: MASTER_PORT itself under Open MPI, MASTER_PORT + 1 under torchrun
  const std::map<std::string, std::string> mpi = {{"OMPI_COMM_WORLD_RANK", "0"},
                                                  {"OMPI_COMM_WORLD_SIZE", "2"},
                                                  {"MASTER_ADDR", "a"},
                                                  {"MASTER_PORT", "65536"}};
  EXPECT_NE(refused(mpi).find("[1, 65535]"), std::string::npos);
  EXPECT_NE(
      refused({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "a"}, {"MASTER_PORT", "65535"}})
          .find("[1, 65534]"),
      std::string::npos);
}

TEST(LaunchWorld, OneGpuAProcess) {
  LaunchWorld w;
  w.launcher = "Slurm";
  w.size = 16;
  EXPECT_EQ(gpus_per_process_problem(w, 16), "");
  EXPECT_EQ(gpus_per_process_problem(w, 8),
            "--gpus 8 under Slurm with 16 processes: one GPU a process, so --gpus is 16 (or left "
            "out)");
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// Ranks 1 .. P-1 forked (each exits 0 when what it received is right), rank 0 here.
TEST(Rendezvous, AllgatherAndBroadcastAmongForkedProcesses) {
  for (int P : {2, 4}) {
    SCOPED_TRACE(P);
    LaunchWorld w;
    w.size = P;
    w.host = "127.0.0.1";
    w.port = free_port();
    const auto expected = [P] {
      std::vector<std::string> all;
      for (int r = 0; r < P; ++r) all.push_back(std::string(r * 1000, 'a' + r));
      return all;
    }();
    std::vector<pid_t> children;
    for (int r = 1; r < P; ++r) {
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        int rc = 1;
        try {
          LaunchWorld mine = w;
          mine.rank = r;
          Rendezvous meet(mine, 20);
          const bool ok =
              meet.allgather(expected[r]) == expected && meet.broadcast("ignored") == "from zero";
          rc = ok ? 0 : 2;
        } catch (...) {
          rc = 3;
        }
        ::_exit(rc);
      }
      children.push_back(pid);
    }
    w.rank = 0;
    Rendezvous meet(w, 20);
    EXPECT_EQ(meet.allgather(expected[0]), expected);
    EXPECT_EQ(meet.broadcast("from zero"), "from zero");
    for (pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
  }
}

// A process that never comes: a one-line error after the timeout, not a hang.
TEST(Rendezvous, AMissingProcessTimesOut) {
  LaunchWorld w;
  w.size = 3;
  w.host = "127.0.0.1";
  w.port = free_port();
  try {
    Rendezvous meet(w, 0.5);
    FAIL() << "met a world of 3 alone";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("timed out"), std::string::npos) << e.what();
  }
  w.rank = 1;  // and a process whose rank 0 never listens
  try {
    Rendezvous meet(w, 0.5);
    FAIL() << "connected to nobody";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("did not listen"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace apsp::harness
