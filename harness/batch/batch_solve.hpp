// The batched solve's entry point (the Python module's, and the bench's): a batch of small graphs
// (core/graph_batch.hpp) on the host or already on the GPU is checked where it lies, its element
// type and variant chosen, its output sized, and solved. Every fault is found before any work.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/graph_batch.hpp"
#include "variants/batch_variant.hpp"

namespace apsp::harness {

struct BatchRequest {
  // Host memory, or device memory when on_device. edge_ptr may be null: then it is derived from
  // the edges' sources (edge_ptr_from_sources), which must be grouped by graph, as PyTorch
  // Geometric's Batch keeps them.
  GraphBatchView graphs;
  bool on_device = false;
  // How many edges the caller holds (the length of src, dst and weight): edge_ptr's last entry
  // must equal it.
  int64_t edges = 0;
  std::optional<int64_t> unreachable;  // what "no path" is written as; default: the type's
  // Ragged (nullopt: graph g's n x n block at the prefix sum of n^2), or padded to this many
  // vertices a graph (0: the batch's largest graph), the rest of each block pad_value.
  std::optional<int> padded_n;
  std::optional<int64_t> pad_value;  // default: the unreachable value
  std::string variant = "auto";      // auto: batch_shared on the GPU, batch_cpu on the host
  Config config;                     // empty: the variant's defaults
  int threads = 0;                   // the host variant's CPU threads (0: all cores)
  cudaStream_t stream = nullptr;     // where a device batch's work goes
  // Each shortest path's first max_dist edges beside the distances (0: none; at most
  // kMaxBatchGraphVertices - 1, the longest path; the edges then at most 2^31 - 1). Which paths
  // are written is run_batch's paths to say; the rule is kernels/batch_paths.cuh's, whichever
  // variant solved.
  int max_dist = 0;
};

// What the checks decided: the output's layout and type, and who solves.
struct BatchPlan {
  BatchFacts facts;
  BatchOutputView out;   // dist still null: the caller's memory, given to run_batch
  int64_t elements = 0;  // of out.type, in the output
  const BatchVariant* variant = nullptr;
  Config config;
  // The ragged offsets (graphs + 1) where the batch lies; out.offsets points into one of them.
  std::vector<int64_t> host_offsets;
  DeviceBuffer<int64_t> device_offsets;
  // The batch as solved: the request's, with edge_ptr derived here when it gave none.
  GraphBatchView graphs;
  std::vector<int64_t> host_edge_ptr;
  DeviceBuffer<int64_t> device_edge_ptr;
};

// Checks the request and the batch where it lies (on the GPU: a kernel, and one small record
// back) and plans the output. Throws std::invalid_argument with one line naming the first fault.
BatchPlan plan_batch(const BatchRequest& r);

// Where the paths go, in the batch's memory and the distances' layout: pred (int16, the vertex
// before j on the path from i, numbered in its graph; -1 for none, and in the padding) with
// plan.elements entries, edges (int32, edge ids in the batch's order; -1 past a path's end, for
// none, and in the padding) with r.max_dist entries a pair. Null: not asked.
struct BatchPathOutput {
  int16_t* pred = nullptr;
  int32_t* edges = nullptr;
};

// Solves into dist (plan.elements of plan.out.type, in the batch's memory), then the paths the
// request asks for into paths. Asynchronous on r.stream for a device batch.
void run_batch(const BatchRequest& r, const BatchPlan& plan, void* dist,
               const BatchPathOutput& paths = {});

// The paths of a solved batch (dist holds its distances, `elements` entries) by
// kernels/batch_paths.cuh's rule: on the host's threads (0: all cores), or on the GPU,
// asynchronous on stream (the batch's vertices counted on the host: vertices).
void batch_paths_host(const GraphBatchView& b, const BatchOutputView& dist, int64_t elements,
                      const BatchPathOutput& paths, int max_dist, int threads);
void batch_paths_device(const GraphBatchView& b, int64_t vertices, const BatchOutputView& dist,
                        int64_t elements, const BatchPathOutput& paths, int max_dist,
                        cudaStream_t stream);

// check_batch on a batch in device memory (device_check.cpp), naming the same first fault
// (std::invalid_argument), from what run_batch_checks finds there (batch_device.cu): the lowest
// graph and edge at fault (-1: none), the largest graph and weight.
BatchFacts check_batch_on_device(const GraphBatchView& b, int64_t edges, cudaStream_t stream);
struct BatchCheckResult {
  int64_t bad_graph, bad_edge;
  int max_n, max_weight;
};
BatchCheckResult run_batch_checks(const GraphBatchView& b, int64_t edges, cudaStream_t stream);
// The edge pointers of a batch from its edges' sources: graph g's edges are as many as have their
// source in it, counted where the batch lies. Edges not grouped by graph then show as edges
// that leave the graph their position gives them (check_batch).
std::vector<int64_t> edge_ptr_from_sources(const GraphBatchView& b, int64_t edges);
DeviceBuffer<int64_t> edge_ptr_from_sources_on_device(const GraphBatchView& b, int64_t edges,
                                                      cudaStream_t stream);
// The ragged offsets of a batch in device memory, there (graphs + 1 entries).
DeviceBuffer<int64_t> ragged_offsets_on_device(const GraphBatchView& b, cudaStream_t stream);

}  // namespace apsp::harness
