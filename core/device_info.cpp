#include "core/device_info.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "core/cuda_check.hpp"

namespace apsp {

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

bool device_or_say_none(const char* program) {
  if (has_device()) return true;
  std::fprintf(stderr, "%s: no CUDA device\n", program);
  return false;
}

namespace {
std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}
int attribute(cudaDeviceAttr attr, int dev) {
  int v = 0;
  APSP_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
  return v;
}
}  // namespace

DeviceInfo query_device(int ordinal) {
  cudaDeviceProp p{};
  APSP_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sms = p.multiProcessorCount;
  // CUDA 13 removed clockRate from cudaDeviceProp; the attributes remain (kHz).
  d.clock_mhz = attribute(cudaDevAttrClockRate, ordinal) / 1000;
  d.memory_clock_mhz = attribute(cudaDevAttrMemoryClockRate, ordinal) / 1000;
  d.memory_bytes = p.totalGlobalMem;
  d.l2_bytes = static_cast<uint64_t>(p.l2CacheSize);
  d.smem_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
  d.smem_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.regs_per_block = p.regsPerBlock;
  int drv = 0, rt = 0;
  APSP_CUDA_CHECK(cudaDriverGetVersion(&drv));
  APSP_CUDA_CHECK(cudaRuntimeGetVersion(&rt));
  d.driver = version_text(drv);
  d.runtime = version_text(rt);
  return d;
}

}  // namespace apsp

namespace apsp {
uint64_t device_free_bytes() {
  size_t free = 0, total = 0;
  APSP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}
}  // namespace apsp
