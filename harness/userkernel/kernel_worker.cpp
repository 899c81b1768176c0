// The worker's side of harness/userkernel/isolated_executor.hpp: one process per worker, serving one
// parent. Every command is answered with one JSON line on fd 1 (a measurement's after a progress
// line per sample); after an error it answers and exits, because its CUDA context may be dead.
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/device_info.hpp"
#include "harness/measure/sampler.hpp"
#include "harness/userkernel/isolated_executor.hpp"

namespace apsp::harness {

namespace {

using nlohmann::json;

class WorkerState {
 public:
  WorkerState()
      : device_(query_device()), executor_(make_executor(Target::kDevice, device_.l2_bytes)) {}
  ~WorkerState() { unmap(); }

  // `progress` sends a line ahead of the answer.
  json handle(const json& cmd, const std::function<void(const json&)>& progress) {
    const std::string op = cmd.at("op").get<std::string>();
    if (op == "load") return load(cmd.at("n").get<int>());
    if (op == "output") {
      const DistMatrix out = executor_->output();
      std::memcpy(map_ + static_cast<size_t>(n_) * n_, out.data(), out.bytes());
      return {{"ok", true}};
    }
    const json& k = cmd.at("kernel");
    const Variant& v = variant(cmd, k);
    const Config c = k.at("config").get<Config>();
    if (op == "measure") {
      const auto spec = cmd.at("spec").get<MeasureSpec>();
      Sampler sampler(*executor_, v, c);
      return {{"measurement", sampler.take(spec, [&](double ms) { progress({{"sampled", ms}}); })}};
    }
    throw std::invalid_argument(fmt::format("unknown command '{}'", op));
  }

 private:
  json load(int n) {
    unmap();
    n_ = n;
    bytes_ = shared_matrices_bytes(n);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, kWorkerMatrixFd, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error(
          fmt::format("the worker cannot map the matrices: {}", std::strerror(errno)));
    map_ = static_cast<int32_t*>(p);
    DistMatrix input(n);
    std::memcpy(input.data(), map_, input.bytes());
    executor_->load(input);
    return {{"ok", true}};
  }

  void unmap() {
    if (map_) munmap(map_, bytes_);
    map_ = nullptr;
  }

  const Variant& variant(const json& cmd, const json& k) {
    const std::string path = k.at("source").get<std::string>();
    const auto names = k.at("params").get<std::vector<std::string>>();
    const std::string key = fmt::format("{}\n{}", path, fmt::join(names, ","));
    auto it = variants_.find(key);
    if (it != variants_.end()) return it->second;
    KernelSource src = read_kernel_source(path);
    if (src.hash != k.at("hash").get<std::string>())
      throw std::runtime_error(fmt::format("{} changed on disk since the run started", path));
    std::vector<Param> params;
    for (const std::string& name : names) params.push_back(Param{name, {}, "", "kernel"});
    const CompileOptions options{cmd.at("arch").get<std::string>(),
                                 cmd.at("cache").get<std::string>()};
    auto& kernel = kernels_.emplace_back(
        std::make_unique<UserKernel>(std::move(src), std::move(params), options));
    return variants_.emplace(key, kernel->variant(Target::kDevice)).first->second;
  }

  DeviceInfo device_;
  std::unique_ptr<LocalExecutor> executor_;
  std::vector<std::unique_ptr<UserKernel>> kernels_;
  std::map<std::string, Variant> variants_;
  int n_ = 0;
  size_t bytes_ = 0;
  int32_t* map_ = nullptr;
};

void reply(int fd, const json& j) {
  const std::string line = j.dump() + "\n";
  for (size_t sent = 0; sent < line.size();) {
    const ssize_t w = write(fd, line.data() + sent, line.size() - sent);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return;  // the parent has gone: nothing to tell
    sent += static_cast<size_t>(w);
  }
}

}  // namespace

int serve_worker() {
  // fd 1 carries the answers: whatever else the process prints goes to stderr.
  const int answers = dup(1);
  dup2(2, 1);
  try {
    WorkerState state;
    for (std::string line; std::getline(std::cin, line);) {
      try {
        reply(answers,
              state.handle(json::parse(line), [answers](const json& j) { reply(answers, j); }));
      } catch (const std::exception& e) {
        reply(answers, {{"error", e.what()}});
        return 1;
      }
    }
  } catch (const std::exception& e) {  // no device, or none usable
    std::string ignored;
    std::getline(std::cin, ignored);
    reply(answers, {{"error", e.what()}});
    return 1;
  }
  return 0;
}

}  // namespace apsp::harness
