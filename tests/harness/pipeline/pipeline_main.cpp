// main() of the pipeline tests: lists the test-only variants (cpu_variants.cpp) before anything
// reads the registry.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("APSP_TEST_VARIANTS", "1", 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
