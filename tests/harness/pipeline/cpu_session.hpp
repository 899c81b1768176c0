// A session for the pipeline tests without a GPU: a nominal H200 named "Test Device", a test
// build, and host executors (the CPU-backed test variants) for every target.
#pragma once

#include "harness/pipeline/pipeline.hpp"

namespace apsp::test {

inline harness::Session cpu_session() {
  harness::Session s;
  DeviceInfo d = harness::nominal_h200();
  d.name = "Test Device";
  s.device = d;
  s.build = {"test-commit", "test-kernels"};
  s.executors = [](Target) { return harness::make_executor(Target::kHost, 0); };
  return s;
}

}  // namespace apsp::test
