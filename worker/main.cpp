// apsp_worker: runs run-time compiled user kernels for apsp_bench and tuner, one process per
// worker, so that a kernel that faults takes only its own run down
// (harness/userkernel/isolated_executor.hpp). Started by them; not for use by hand.
#include <cstdio>
#include <cstring>

#include "harness/userkernel/isolated_executor.hpp"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return apsp::harness::serve_worker();
  std::fprintf(stderr,
               "apsp_worker: runs user kernels for apsp_bench and tuner (--kernel); they start it, "
               "with --serve.\n"
               "Exit codes: 0 served until end of input, 1 a command failed, 2 usage.\n");
  return 2;
}
