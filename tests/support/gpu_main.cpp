// main() of every GPU test binary: with no CUDA device it exits 77 before any test runs, and
// ctest (SKIP_RETURN_CODE 77) reports the test skipped rather than passed.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/device_info.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();  // listing needs no device
  if (!apsp::has_device()) {
    std::printf("no CUDA device: GPU tests skipped\n");
    return 77;
  }
  const apsp::DeviceInfo dev = apsp::query_device();
  std::printf("device: %s (cc %s, %d SMs)\n", dev.name.c_str(), dev.cc().c_str(), dev.sms);
  return RUN_ALL_TESTS();
}
