// What plan_batch refuses a request with: its one line, or "" when it plans.
#pragma once

#include <stdexcept>
#include <string>

#include "harness/batch/batch_solve.hpp"

namespace apsp::harness {

inline std::string plan_fault(const BatchRequest& r) {
  try {
    plan_batch(r);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace apsp::harness
