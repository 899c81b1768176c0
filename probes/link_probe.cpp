// link_probe: what one broadcast of the distributed engine costs between this host's GPUs, for
// the multi-GPU model (harness/multigpu/multi_gpu_model.hpp, docs/multi-gpu.md): the median time
// of a broadcast through the engine's own transport (Transport::broadcast, NCCL by default) from
// each root in turn, at a few bytes (the fixed cost, the model's round_latency_s) and at the
// panel sizes of tile 128 (the bandwidth, the model's bytes_per_s), on every GPU count from 2 to
// P. Its last line is the model's flags: apsp_bench --dry-run ... --model-link-gbs B
// --model-latency-us L.
//   ./build/release/link_probe [P] [--transport NAME]   (exit 3 without a CUDA device; 4 with
//                                                        fewer than P GPUs)
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "harness/multigpu/transport.hpp"

namespace {

using namespace apsp;
using namespace apsp::harness;

constexpr int kRounds = 40;  // broadcasts timed per size, each root in turn

// The median of kRounds broadcasts of `bytes` over t's ranks, in seconds: each timed from rank 0
// waiting for every rank's stream before to every rank's stream after (host clock).
double broadcast_s(Transport& t, std::vector<DeviceBuffer<char>>& buf,
                   const std::vector<cudaStream_t>& streams, size_t bytes) {
  const int P = t.ranks();
  std::vector<void*> ptrs(P);
  for (int r = 0; r < P; ++r) ptrs[r] = buf[r].get();
  const auto sync = [&] {
    for (int r = 0; r < P; ++r) {
      DeviceGuard g(t.device(r));
      APSP_CUDA_CHECK(cudaStreamSynchronize(streams[r]));
    }
  };
  std::vector<double> s;
  for (int i = -4; i < kRounds; ++i) {  // 4 untimed: NCCL's first calls set up its channels
    sync();
    const auto t0 = std::chrono::steady_clock::now();
    t.broadcast((i + 4) % P, ptrs, bytes, streams);
    sync();
    if (i >= 0)
      s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
  return s[s.size() / 2];
}

int run(int argc, char** argv) {
  int most = device_count();
  std::string transport = kDefaultTransport;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--transport" && i + 1 < argc) {
      transport = argv[++i];
    } else if (a == "--help") {
      std::puts(
          "link_probe [P] [--transport NAME]: the broadcast's fixed cost and bandwidth "
          "between 2 .. P GPUs (all of them by default) through the engine's transport");
      return 0;
    } else {
      most = std::atoi(a.c_str());
    }
  }
  if (!has_device()) {
    std::fputs("link_probe: no CUDA device\n", stderr);
    return kExitNoDevice;
  }
  const bool shared = transport_shares_device(transport);
  if (most < 2 || (!shared && most > device_count())) {
    fmt::print(stderr, "link_probe: {} GPUs asked, {} present (at least 2)\n", most,
               device_count());
    return 4;
  }
  const std::vector<size_t> sizes = {64, size_t{128} * 10112 * 4, size_t{128} * 30080 * 4,
                                     size_t{128} * 100096 * 4};
  double latency = 0, gbs = 0;
  for (int P = 2; P <= most; ++P) {
    auto t = make_transport(transport, P, 0);
    std::vector<DeviceBuffer<char>> buf;
    std::vector<cudaStream_t> streams(P);
    for (int r = 0; r < P; ++r) {
      DeviceGuard g(t->device(r));
      buf.emplace_back(sizes.back());
      APSP_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
    }
    for (size_t bytes : sizes) {
      const double s = broadcast_s(*t, buf, streams, bytes);
      if (bytes == sizes.front()) {
        latency = std::max(latency, s);
        fmt::print("{} GPUs: {:>10} bytes: {:8.1f} us (the fixed cost)\n", P, bytes, s * 1e6);
      } else {
        const double rate = static_cast<double>(bytes) / s / 1e9;
        if (bytes == sizes.back()) gbs = gbs == 0 ? rate : std::min(gbs, rate);
        fmt::print(
            "{} GPUs: {:>10} bytes: {:8.1f} us, {:6.1f} GB/s (a panel of tile 128 at n = "
            "{})\n",
            P, bytes, s * 1e6, rate, bytes / (128 * 4));
      }
    }
    for (int r = 0; r < P; ++r) {
      DeviceGuard g(t->device(r));
      cudaStreamDestroy(streams[r]);
      buf[r] = DeviceBuffer<char>();
    }
  }
  fmt::print(
      "model flags (the slowest count's bandwidth, the largest fixed cost): "
      "--model-link-gbs {:.0f} --model-latency-us {:.0f}\n",
      gbs, latency * 1e6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return apsp::run_program("link_probe", run, argc, argv); }
