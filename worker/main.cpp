// apsp_worker: runs run-time compiled user kernels for apsp_bench and tuner, one process per
// worker, so that a kernel that faults takes only its own run down
// (harness/userkernel/isolated_executor.hpp). Started by them; not for use by hand.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "harness/userkernel/isolated_executor.hpp"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) {
    // Never outlive the program that started it: an idle worker sees the end of its input when
    // the program exits, but one in a solve (a kernel that hangs) would hold the GPU on. The
    // signal comes when the thread that started the worker ends: the programs start workers
    // from their main thread. A parent gone before prctl: the end of input stops the worker.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) return 1;
    return apsp::harness::serve_worker();
  }
  std::fprintf(stderr,
               "apsp_worker: runs user kernels for apsp_bench and tuner (--kernel); they start it, "
               "with --serve.\n"
               "Exit codes: 0 served until end of input, 1 a command failed, 2 usage.\n");
  return 2;
}
