// The batched variants: many small graphs solved in one launch sequence (core/graph_batch.hpp
// lays the batch out). A kind of its own beside Variant: a run takes a whole batch rather than one
// n x n matrix, so the single-graph bench, tuner and solver never see these. The parameters are
// declared as a Variant's are (Param, Constraint), so a search reads them the same way.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "core/graph_batch.hpp"
#include "variants/variant.hpp"

namespace apsp {

// One batch and where its distances go: device memory for a device variant, host memory for a
// host one. Checked before the run (check_batch, check_batch_output); max_n is the batch's
// largest graph (BatchFacts::max_n), which the host knows and the launches are sized by.
struct BatchRun {
  GraphBatchView graphs;
  BatchOutputView out;
  int max_n = 0;
};

struct BatchVariant {
  std::string name;     // "batch_shared"
  std::string summary;  // one line
  Target target = Target::kDevice;
  std::vector<Param> space;
  std::vector<Constraint> constraints;
  Config defaults;
  // Solves every graph of the batch; asynchronous on `stream` (unused by a host variant, which
  // returns when done). threads: the host variant's CPU threads (0: all cores).
  std::function<void(const BatchRun& run, const Config& c, cudaStream_t stream, int threads)> run;
  std::string source;  // the file that registered it; the list is sorted by its name
};

// Every registered batched variant, in the order of their files' names.
const std::vector<BatchVariant>& batch_registry();
// nullptr when there is none of that name.
const BatchVariant* find_batch_variant(const std::string& name);
// Every combination of `space` that every constraint allows, `defaults` first: what a variant of
// either kind has compiled (all_configs in variant.hpp, all_batch_configs below).
std::vector<Config> built_configs(const std::vector<Param>& space,
                                  const std::vector<Constraint>& constraints,
                                  const Config& defaults);
// Every compiled config of v (the product of its space less what a constraint rules out),
// its defaults first.
std::vector<Config> all_batch_configs(const BatchVariant& v);

struct BatchVariantRegistrar {
  BatchVariantRegistrar(BatchVariant (*factory)(), const char* file);
};
// In a batched variant's file, at namespace scope: APSP_REGISTER_BATCH_VARIANT(make_variant);
#define APSP_REGISTER_BATCH_VARIANT(factory)                                                   \
  namespace {                                                                                  \
  const ::apsp::BatchVariantRegistrar APSP_REGISTER_VARIANT_CAT(apsp_batch_variant_registrar_, \
                                                                __LINE__){factory, __FILE__};  \
  }

}  // namespace apsp
