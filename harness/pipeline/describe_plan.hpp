// What a --dry-run prints (apsp_bench, tuner): the plan a real run would carry out on this
// device, or, without a GPU, on an H200 by name (dry_run_device), checked as far as that goes
// without running anything: each request's config per size and why, what cannot run and why,
// the memory each size takes, the multi-GPU model; for a tuner's search, each space, the points
// rejected at each size and the default measured beside them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/plan.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// One request's space as a search visits it (harness/tune/tuning.hpp).
struct SearchSpace {
  std::vector<Param> params;   // the parameters searched
  std::vector<Config> points;  // their combinations that have a compiled kernel
  size_t combinations = 0;     // all of their combinations
  std::string strategy;        // resolved for this space
  size_t visits = 0;           // the most points the search measures at a size
  int budget = 0;              // --budget
};

// What the plan alone does not say.
struct PlanNotes {
  // apsp_bench --tuned: the database the requests marked tuned pick from.
  std::optional<TunedSource> tuned;
  // The tuner's: a search per request, in the plan's order, instead of one config per size.
  std::optional<std::vector<SearchSpace>> searches;
};

// The dry run's text, every line ending in '\n'. Only the runs a real run makes are listed (the
// added baseline is left out above baseline_max_n, as run_plan leaves it out). Memory is in
// human units, and a size that does not fit gets a warning line, by the real run's check
// (memory_problem) against the device the dry run plans for: this GPU's free memory, or the
// assumed H200's whole memory; the host's against this machine's. `fits` (if given) is set
// false when the device lacks the memory for some size: a real run there refuses the plan.
std::string describe_plan(const Plan& plan, const PlanNotes& notes = {}, bool* fits = nullptr);

}  // namespace apsp::harness
