// apsp_lab._core's batched solve (harness/batch): many small graphs from 1-D arrays, NumPy's on
// the host or DLPack device arrays where they are, the distances returned in the same memory.
// The Python side (apsp_lab/_batch.py) makes the arrays and checks their dtypes first.
#include "python/src/batch.hpp"

#include <cuda_runtime_api.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/batch/batch_solve.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace apsp::python {
namespace {

using Vector = nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig>;

bool on_cuda(const Vector& v) { return v.device_type() == nb::device::cuda::value; }

template <class T>
const T* data_of(const Vector& v, const char* name) {
  if (v.dtype() != nb::dtype<T>()) {
    throw nb::type_error(
        (std::string(name) + " must be " + (sizeof(T) == 8 ? "int64" : "int32")).c_str());
  }
  return static_cast<const T*>(v.data());
}

nb::dlpack::dtype dtype_of(BatchDistType t) {
  switch (t) {
    case BatchDistType::kU8:
      return nb::dtype<uint8_t>();
    case BatchDistType::kI16:
      return nb::dtype<int16_t>();
    case BatchDistType::kI32:
      break;
  }
  return nb::dtype<int32_t>();
}

// An array of shape[0 .. ndim) that owns memory allocated here: host memory as NumPy's, device
// memory (cudaMalloc on the batch's device) as an object with __dlpack__.
struct Shape {
  size_t ndim;
  size_t extents[4];
};

nb::object device_array(int device_id, size_t bytes, const Shape& shape, nb::dlpack::dtype dt,
                        void** data) {
  APSP_CUDA_CHECK(cudaMalloc(data, std::max<size_t>(bytes, 1)));
  nb::capsule owner(*data, [](void* q) noexcept { cudaFree(q); });
  return nb::ndarray<nb::array_api>(*data, shape.ndim, shape.extents, owner, nullptr, dt,
                                    nb::device::cuda::value, device_id)
      .cast();
}

// GCC at -Os reports a member of nanobind's capsule as maybe used uninitialized once it inlines
// the constructor here (it does not in module.cpp's like function): a false positive.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
nb::object host_array(void* data, const Shape& shape, nb::dlpack::dtype dt) {
  nb::capsule owner(data, [](void* q) noexcept { std::free(q); });
  return nb::ndarray<nb::numpy>(data, shape.ndim, shape.extents, owner, nullptr, dt).cast();
}
#pragma GCC diagnostic pop

nb::object owned_array(bool device, int device_id, size_t bytes, const Shape& shape,
                       nb::dlpack::dtype dt, void** data) {
  if (device) return device_array(device_id, bytes, shape, dt, data);
  *data = std::malloc(std::max<size_t>(bytes, 1));
  if (!*data) throw std::bad_alloc();
  return host_array(*data, shape, dt);
}

harness::BatchRequest request_of(const Vector& vertex_ptr, const std::optional<Vector>& edge_ptr,
                                 const Vector& src, const Vector& dst,
                                 const std::optional<Vector>& weight) {
  harness::BatchRequest r;
  r.on_device = on_cuda(vertex_ptr);
  for (const Vector* v : {&src, &dst}) {
    if (on_cuda(*v) != r.on_device)
      throw std::invalid_argument("the arrays are not all on one device");
  }
  if (src.shape(0) != dst.shape(0) || (weight && weight->shape(0) != src.shape(0))) {
    throw std::invalid_argument("edge_index's rows and edge_weight differ in length");
  }
  if (vertex_ptr.shape(0) < 1) throw std::invalid_argument("ptr needs at least one entry (0)");
  r.edges = static_cast<int64_t>(src.shape(0));
  r.graphs = {static_cast<int64_t>(vertex_ptr.shape(0)) - 1,
              data_of<int64_t>(vertex_ptr, "ptr"),
              edge_ptr ? data_of<int64_t>(*edge_ptr, "edge_ptr") : nullptr,
              data_of<int64_t>(src, "edge_index"),
              data_of<int64_t>(dst, "edge_index"),
              weight ? data_of<int32_t>(*weight, "edge_weight") : nullptr};
  return r;
}

// An array in the plan's layout, where the batch lies: 1-D ragged, or [B, N, N] padded, with a
// last axis of `last` entries a pair when last > 0 (the edge paths); the distances when dt is
// the plan's type.
nb::object plan_array(const harness::BatchRequest& r, const harness::BatchPlan& plan, int device_id,
                      int last, nb::dlpack::dtype dt, void** data) {
  const size_t per_pair = last > 0 ? static_cast<size_t>(last) : 1;
  const size_t count = static_cast<size_t>(plan.elements) * per_pair;
  const size_t n = static_cast<size_t>(plan.out.padded_n);
  Shape shape{1, {count}};
  if (n > 0) shape = {last > 0 ? 4u : 3u, {static_cast<size_t>(r.graphs.graphs), n, n, per_pair}};
  return owned_array(r.on_device, device_id, count * dt.bits / 8, shape, dt, data);
}

// The ragged offsets (graphs + 1) as an array where the batch lies.
nb::object offsets_array(const harness::BatchRequest& r, const harness::BatchPlan& plan,
                         int device_id) {
  void* o = nullptr;
  const size_t count = static_cast<size_t>(r.graphs.graphs) + 1;
  nb::object offsets =
      owned_array(r.on_device, device_id, count * 8, Shape{1, {count}}, nb::dtype<int64_t>(), &o);
  if (r.on_device) {
    APSP_CUDA_CHECK(
        cudaMemcpyAsync(o, plan.out.offsets, count * 8, cudaMemcpyDeviceToDevice, r.stream));
  } else {
    std::memcpy(o, plan.out.offsets, count * 8);
  }
  return offsets;
}

}  // namespace

nb::tuple solve_batch(Vector vertex_ptr, std::optional<Vector> edge_ptr, Vector src, Vector dst,
                      std::optional<Vector> weight, std::optional<int64_t> unreachable,
                      std::optional<int> padded_n, std::optional<int64_t> pad_value,
                      const std::string& variant, int threads, uintptr_t stream, bool predecessors,
                      int max_dist) {
  harness::BatchRequest r = request_of(vertex_ptr, edge_ptr, src, dst, weight);
  r.unreachable = unreachable;
  r.padded_n = padded_n;
  r.pad_value = pad_value;
  r.variant = variant;
  r.threads = threads;
  r.stream = stream == 1 ? cudaStreamLegacy : reinterpret_cast<cudaStream_t>(stream);
  r.max_dist = max_dist;
  const int device_id = r.on_device ? vertex_ptr.device_id() : 0;
  std::optional<DeviceGuard> on;  // the batch's GPU current while it is solved, then the caller's
  if (r.on_device) on.emplace(device_id);
  const harness::BatchPlan plan = harness::plan_batch(r);
  void* dist = nullptr;
  nb::object dist_array = plan_array(r, plan, device_id, 0, dtype_of(plan.out.type), &dist);
  nb::object offsets = plan.out.padded_n == 0 ? offsets_array(r, plan, device_id) : nb::none();
  harness::BatchPathOutput paths;
  nb::object pred = nb::none(), edges = nb::none();
  if (predecessors) {
    pred = plan_array(r, plan, device_id, 0, nb::dtype<int16_t>(),
                      reinterpret_cast<void**>(&paths.pred));
  }
  if (max_dist > 0) {
    edges = plan_array(r, plan, device_id, max_dist, nb::dtype<int32_t>(),
                       reinterpret_cast<void**>(&paths.edges));
  }
  {
    nb::gil_scoped_release unlocked;
    harness::run_batch(r, plan, dist, paths);
    if (r.on_device) APSP_CUDA_CHECK(cudaStreamSynchronize(r.stream));
  }
  return nb::make_tuple(dist_array, offsets, name_of(plan.out.type), plan.variant->name, pred,
                        edges);
}

void bind_batch(nb::module_& m) {
  m.def("solve_batch", &solve_batch, "vertex_ptr"_a, "edge_ptr"_a.none(), "src"_a, "dst"_a,
        "weight"_a.none(), "unreachable"_a.none(), "padded_n"_a.none(), "pad_value"_a.none(),
        "variant"_a, "threads"_a, "stream"_a, "predecessors"_a = false, "max_dist"_a = 0);
}

}  // namespace apsp::python
