// link_probe: what one broadcast of the distributed engine costs between this host's GPUs, for
// the multi-GPU model (harness/multigpu/multi_gpu_model.hpp, docs/multi-gpu.md): the median time
// of a broadcast through the engine's own transport (Transport::broadcast, NCCL by default) from
// each root in turn, at a few bytes (the fixed cost, the model's round_latency_s) and at the
// panel sizes of tile 128 (the bandwidth, the model's bytes_per_s), on every GPU count from 2 to
// P. Its last line is the model's flags: apsp_bench --dry-run ... --model-link-gbs B
// --model-latency-us L.
//   ./build/release/link_probe [P] [--transport NAME]   (exit 2 on bad arguments, 3 without a
//                                                        CUDA device, 4 with fewer than P GPUs)
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/integer.hpp"
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

struct Options {
  int most = 0;  // P; 0: every GPU here
  std::string transport = kDefaultTransport;
  bool help = false;
};

// Throws std::invalid_argument (one line).
Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help") {
      o.help = true;
      return o;
    } else if (a == "--transport") {
      if (i + 1 >= argc) throw std::invalid_argument("--transport needs a value");
      o.transport = argv[++i];
      if (!find_transport(o.transport))
        throw std::invalid_argument("--transport " + o.transport + ": one of " + transport_names());
    } else if (a.starts_with("-") || o.most != 0) {
      throw std::invalid_argument("unknown argument " + a + " (see --help)");
    } else {
      try {
        o.most = parse_integer(a, 2, 1 << 16);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("P: ") + e.what());
      }
    }
  }
  return o;
}

int run(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "link_probe: {}\n", e.what());
    return kExitRefused;
  }
  if (o.help) {
    std::puts(
        "link_probe [P] [--transport NAME]: the broadcast's fixed cost and bandwidth between 2 .. "
        "P GPUs (all of them by default) through the engine's transport (exit 2 on bad "
        "arguments, 3 without a CUDA device, 4 with fewer than P GPUs or fewer than 2)");
    return kExitOk;
  }
  if (!has_device()) {
    std::fputs("link_probe: no CUDA device\n", stderr);
    return kExitNoDevice;
  }
  const std::string& transport = o.transport;
  const bool shared = transport_shares_device(transport);
  const int most = o.most != 0 ? o.most : device_count();
  if (most < 2 || (!shared && most > device_count())) {
    fmt::print(stderr, "link_probe: {} GPUs asked, {} present (at least 2)\n", most,
               device_count());
    return kExitTooFewGpus;
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
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return apsp::run_program("link_probe", run, argc, argv); }
