// What the harness needs to know of the GPU: recorded with every result, read by each
// variant's check() (shared memory, threads).
#pragma once

#include <cstdint>
#include <string>

namespace apsp {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sms = 0;
  int clock_mhz = 0;  // SM clock
  int memory_clock_mhz = 0;
  uint64_t memory_bytes = 0;
  uint64_t l2_bytes = 0;
  int smem_per_block_optin = 0;  // the most dynamic shared memory a block may opt in to
  int smem_per_sm = 0;
  int max_threads_per_block = 0;
  int regs_per_block = 0;
  std::string driver;   // "13.0"
  std::string runtime;  // "13.0"

  std::string cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

// The device query is defined in apsp_cuda (device_info.cpp); build_info() in the host-only
// apsp_core (build_info.cpp), so a program that only reads results need not link CUDA.

// Number of CUDA devices usable here; 0 when there is no device or no driver.
int device_count();
inline bool has_device() { return device_count() > 0; }
// For a program that needs a GPU and has nothing else to say without one (the probes): false,
// with "<program>: no CUDA device" on stderr, where there is none; the caller exits
// kExitNoDevice, which ctest reads as skipped.
bool device_or_say_none(const char* program);
// Queries a device; throws CudaError if there is none.
DeviceInfo query_device(int ordinal = 0);
// The device memory free now (cudaMemGetInfo on the current device).
uint64_t device_free_bytes();

// The build this binary came from (git describe, nvcc version, architectures).
struct BuildInfo {
  std::string git, nvcc, archs;
};
BuildInfo build_info();

}  // namespace apsp
