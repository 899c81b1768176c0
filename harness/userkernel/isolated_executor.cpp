#include "harness/userkernel/isolated_executor.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

extern char** environ;

namespace apsp::harness {

namespace {

using nlohmann::json;

std::runtime_error sys_error(const std::string& what) {
  return std::runtime_error(fmt::format("{}: {}", what, std::strerror(errno)));
}

// The two matrices (input, output) of size n, shared with the worker.
class SharedMatrices {
 public:
  SharedMatrices() {
    fd_ = memfd_create("apsp-matrices", MFD_CLOEXEC);
    if (fd_ < 0) throw sys_error("memfd_create");
  }
  ~SharedMatrices() {
    unmap();
    close(fd_);
  }
  int fd() const { return fd_; }
  void resize(int n) {
    unmap();
    n_ = n;
    bytes_ = shared_matrices_bytes(n);
    if (ftruncate(fd_, static_cast<off_t>(bytes_)) != 0)
      throw sys_error("ftruncate of the shared matrices");
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) throw sys_error("mmap of the shared matrices");
    base_ = static_cast<int32_t*>(p);
  }
  int n() const { return n_; }
  int32_t* input() const { return base_; }
  int32_t* output() const { return base_ + static_cast<size_t>(n_) * n_; }

 private:
  void unmap() {
    if (base_) munmap(base_, bytes_);
    base_ = nullptr;
  }
  int fd_ = -1, n_ = 0;
  size_t bytes_ = 0;
  int32_t* base_ = nullptr;
};

// One worker process and its socket.
class Worker {
 public:
  Worker(const std::string& program, int matrix_fd) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw sys_error("socketpair");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_adddup2(&fa, matrix_fd, kWorkerMatrixFd);
    char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>("--serve"), nullptr};
    const int rc = posix_spawn(&pid_, program.c_str(), &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    if (rc != 0) {
      close(sv[0]);
      throw std::runtime_error(
          fmt::format("cannot start the kernel worker {}: {}", program, std::strerror(rc)));
    }
    fd_ = sv[0];
  }
  ~Worker() {
    close(fd_);  // end of input: a healthy worker exits
    int status;
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }

  // Sends one command and waits for its answer, the lines before it (progress: {"sampled": ms})
  // each restarting the wait; throws when the worker dies or gives no line within `timeout_s`
  // (it is killed, and this Worker is spent).
  json ask(const json& command, double timeout_s) {
    const std::string line = command.dump() + "\n";
    for (size_t sent = 0; sent < line.size();) {
      const ssize_t w = send(fd_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) throw died();
      sent += static_cast<size_t>(w);
    }
    for (;;) {
      json reply = json::parse(read_line(timeout_s));
      if (!reply.contains("sampled")) return reply;
    }
  }

 private:
  // The next line from the worker, without its newline.
  std::string read_line(double timeout_s) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (buffer_.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        kill(pid_, SIGKILL);
        throw std::runtime_error(fmt::format(
            "no answer within {:g} s (--kernel-timeout); the kernel was stopped", timeout_s));
      }
      char buf[4096];
      const ssize_t r = read(fd_, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) throw died();
      buffer_.append(buf, static_cast<size_t>(r));
    }
    const size_t end = buffer_.find('\n');
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    return line;
  }

  std::runtime_error died() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (WIFSIGNALED(status))
      return std::runtime_error(
          fmt::format("the kernel worker died (signal {})", WTERMSIG(status)));
    return std::runtime_error(
        fmt::format("the kernel worker exited with code {}", WEXITSTATUS(status)));
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;  // read past the last line returned
};

// What the worker needs to build the same UserKernel: the file, its hash (the worker refuses a
// file changed since), the macros set from outside (the same compile-cache key) and the config.
json kernel_of(const Variant& v, const Config& c) {
  return {{"source", v.source},
          {"hash", v.kernel_hash},
          {"params", user_param_names(v)},
          {"config", c}};
}

class IsolatedExecutor final : public Executor {
 public:
  explicit IsolatedExecutor(WorkerOptions o) : o_(std::move(o)) {
    if (o_.program.empty()) o_.program = default_worker_program();
  }

  void load(const DistMatrix& input) override {
    if (matrices_.n() != input.n()) matrices_.resize(input.n());
    std::memcpy(matrices_.input(), input.data(), input.bytes());
    loaded_in_worker_ = false;
  }

  // The worker's Sampler takes it on its device executor, reporting each sample as it goes.
  Measurement measure(const Variant& v, const Config& c, const MeasureSpec& spec) override {
    return ask({{"op", "measure"}, {"kernel", kernel_of(v, c)}, {"spec", spec}})
        .at("measurement")
        .get<Measurement>();
  }

  DistMatrix output() override {
    ask({{"op", "output"}});
    DistMatrix out(matrices_.n());
    std::memcpy(out.data(), matrices_.output(), out.bytes());
    return out;
  }

  // On the host, from the worker's output: the worker holds no edges.
  std::string certify(const InEdges& g) override { return certify_host(output().view(), g); }

 private:
  json ask(json command) {
    command["arch"] = o_.compile.arch;
    command["cache"] = o_.compile.cache_dir;
    try {
      if (!worker_) worker_.emplace(o_.program, matrices_.fd());
      if (!loaded_in_worker_) {
        check(worker_->ask({{"op", "load"}, {"n", matrices_.n()}}, o_.timeout_s));
        loaded_in_worker_ = true;
      }
      return check(worker_->ask(command, o_.timeout_s));
    } catch (...) {
      // a worker that failed once is not trusted again: the next command starts another
      worker_.reset();
      loaded_in_worker_ = false;
      throw;
    }
  }
  static json check(json reply) {
    if (reply.contains("error")) throw std::runtime_error(reply.at("error").get<std::string>());
    return reply;
  }

  WorkerOptions o_;
  SharedMatrices matrices_;
  std::optional<Worker> worker_;
  bool loaded_in_worker_ = false;
};

}  // namespace

std::string default_worker_program() {
  if (const char* w = std::getenv("APSP_WORKER"); w && *w) return w;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (self.parent_path() / "apsp_worker").string();
}

std::unique_ptr<Executor> make_isolated_executor(const WorkerOptions& options) {
  return std::make_unique<IsolatedExecutor>(options);
}

}  // namespace apsp::harness
