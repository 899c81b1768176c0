// harness/multigpu/launch.hpp: the launchers' variables read.
#include "harness/multigpu/launch.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace apsp::harness {

namespace {

int integer(const GetEnv& env, const char* name, int lowest) {
  const char* text = env(name);
  const std::string s = text ? text : "";
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lowest)
    throw std::invalid_argument(std::string(name) + "=" + s +
                                ": an integer >= " + std::to_string(lowest) + " was expected");
  return v;
}

// APSP_RENDEZVOUS_TIMEOUT, when set: a number of seconds above 0.
double timeout_s(const GetEnv& env, double otherwise) {
  const char* text = env("APSP_RENDEZVOUS_TIMEOUT");
  if (!text) return otherwise;
  const std::string s = text;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !(v > 0))
    throw std::invalid_argument("APSP_RENDEZVOUS_TIMEOUT=" + s +
                                ": a number of seconds above 0 was expected");
  return v;
}

struct Launcher {
  const char* name;
  const char *rank, *size, *local_rank;
};
constexpr Launcher kLaunchers[] = {
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"Slurm", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID"},
};

// host:port, or MASTER_ADDR and MASTER_PORT (+ 1 under torchrun, whose store holds MASTER_PORT).
void meeting_point(const GetEnv& env, LaunchWorld& w) {
  if (const char* at = env("APSP_RENDEZVOUS"); at && *at) {
    const std::string s = at;
    const size_t colon = s.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw std::invalid_argument("APSP_RENDEZVOUS=" + s + ": host:port was expected");
    w.host = s.substr(0, colon);
    int port = 0;
    const auto [end, ec] = std::from_chars(s.data() + colon + 1, s.data() + s.size(), port);
    if (ec != std::errc() || end != s.data() + s.size() || port < 1 || port > 65535)
      throw std::invalid_argument("APSP_RENDEZVOUS=" + s + ": a port in [1, 65535] was expected");
    w.port = port;
    return;
  }
  const char* addr = env("MASTER_ADDR");
  if (!addr || !*addr || !env("MASTER_PORT"))
    throw std::invalid_argument(
        w.launcher + " started " + std::to_string(w.size) +
        " processes, and MASTER_ADDR and MASTER_PORT (the host of rank 0 and a free port) are not "
        "set: export them, or APSP_RENDEZVOUS=host:port (docs/multi-gpu.md)");
  w.host = addr;
  const bool torchrun = w.launcher == "torchrun";
  w.port = integer(env, "MASTER_PORT", 1) + (torchrun ? 1 : 0);
  if (w.port > 65535)
    throw std::invalid_argument(std::string("MASTER_PORT: a port in [1, ") +
                                (torchrun ? "65534" : "65535") + "] was expected");
}

}  // namespace

std::optional<LaunchWorld> launch_world(const GetEnv& env) {
  for (const Launcher& l : kLaunchers) {
    if (!env(l.size)) continue;
    LaunchWorld w;
    w.launcher = l.name;
    w.size = integer(env, l.size, 1);
    if (w.size == 1) return std::nullopt;
    w.rank = integer(env, l.rank, 0);
    if (w.rank >= w.size)
      throw std::invalid_argument(std::string(l.rank) + "=" + std::to_string(w.rank) +
                                  " is not below " + l.size + "=" + std::to_string(w.size));
    w.local_rank = env(l.local_rank) ? integer(env, l.local_rank, 0) : 0;
    meeting_point(env, w);
    w.rendezvous_timeout_s = timeout_s(env, w.rendezvous_timeout_s);
    return w;
  }
  return std::nullopt;
}

std::optional<LaunchWorld> launch_world() {
  return launch_world([](const char* name) { return std::getenv(name); });
}

std::string gpus_per_process_problem(const LaunchWorld& w, int gpus) {
  if (gpus == w.size) return "";
  return "--gpus " + std::to_string(gpus) + " under " + w.launcher + " with " +
         std::to_string(w.size) + " processes: one GPU a process, so --gpus is " +
         std::to_string(w.size) + " (or left out)";
}

}  // namespace apsp::harness
