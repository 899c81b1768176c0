// apsp_lab._core: the Python module's bindings (nanobind), thin over the harness: the solves of
// harness/solve/array_solve.hpp on NumPy arrays, SciPy's sparse entries and DLPack device arrays;
// the variants' declarations; the bench's pipeline (bench.cpp). The conventions and every check
// a user sees first live in apsp_lab/ (Python); what reaches here is already validated there.
// No CUDA call is made at import: the first one is a solve or a query that needs the device.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <sys/mman.h>

#include <cstdlib>
#include <new>
#include <stdexcept>

#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "harness/solve/array_solve.hpp"
#include "python/src/batch.hpp"
#include "python/src/bench.hpp"
#include "python/src/reductions.hpp"
#include "variants/variant.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace apsp::python {
namespace {

using harness::ArraySolveRequest;
using harness::ArraySolveResult;
using harness::Element;

// Any 2-D array on the host (C or Fortran order, any dtype; checked here).
using HostMatrix = nb::ndarray<nb::ro, nb::ndim<2>, nb::device::cpu>;
using HostVector = nb::ndarray<nb::ro, nb::ndim<1>, nb::device::cpu>;
using DeviceMatrix = nb::ndarray<nb::ndim<2>, nb::device::cuda>;

Element element_of(nb::dlpack::dtype t) {
  using Code = nb::dlpack::dtype_code;
  const auto code = static_cast<Code>(t.code);
  if (t.lanes != 1) throw std::invalid_argument("vector element types are not read");
  if (code == Code::Bool) return Element::kBool;
  if (code == Code::Int) {
    switch (t.bits) {
      case 8:
        return Element::kInt8;
      case 16:
        return Element::kInt16;
      case 32:
        return Element::kInt32;
      case 64:
        return Element::kInt64;
    }
  }
  if (code == Code::UInt) {
    switch (t.bits) {
      case 8:
        return Element::kUInt8;
      case 16:
        return Element::kUInt16;
      case 32:
        return Element::kUInt32;
      case 64:
        return Element::kUInt64;
    }
  }
  if (code == Code::Float && t.bits == 32) return Element::kFloat32;
  if (code == Code::Float && t.bits == 64) return Element::kFloat64;
  if (code == Code::Float && t.bits == 16) return Element::kFloat16;  // device arrays only
  if (code == Code::Bfloat && t.bits == 16) return Element::kBFloat16;
  throw nb::type_error("the graph's dtype must be bool, an integer, float32 or float64");
}

Element out_element(const std::string& dtype) {
  if (dtype == "float64") return Element::kFloat64;
  if (dtype == "int32") return Element::kInt32;
  if (dtype == "int64") return Element::kInt64;
  throw std::invalid_argument("dtype must be float64, int32 or int64, not " + dtype);
}

size_t element_bytes(Element e) { return e == Element::kFloat64 || e == Element::kInt64 ? 8 : 4; }

// Host memory for an n x n result that the returned array owns: in 2 MB pages where the kernel
// gives them (fewer page faults when the result is first written, by many threads at once).
void* allocate_result(size_t bytes) {
  constexpr size_t kHuge = size_t{2} << 20;
  const size_t rounded = (std::max<size_t>(bytes, 1) + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, rounded);
  if (!p) throw std::bad_alloc();
  madvise(p, rounded, MADV_HUGEPAGE);  // advice only: where refused, plain pages
  return p;
}

nb::object host_array(void* data, Element e, size_t rows, int n) {
  nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
  const size_t shape[2] = {rows, static_cast<size_t>(n)};
  const nb::dlpack::dtype dt = e == Element::kFloat64 ? nb::dtype<double>()
                               : e == Element::kInt64 ? nb::dtype<int64_t>()
                                                      : nb::dtype<int32_t>();
  return nb::ndarray<nb::numpy>(data, 2, shape, owner, nullptr, dt).cast();
}

nb::dict info_of(const ArraySolveResult& r, const std::vector<std::string>& log) {
  nb::dict info;
  info["precision"] = r.precision;
  info["solved_with"] = r.solved_with;
  info["negative_cycle"] = r.negative_cycle;
  nb::list steps;
  for (const auto& [name, ms] : r.timing.steps) steps.append(nb::make_tuple(name, ms));
  info["timing_ms"] = steps;
  info["log"] = log;
  return info;
}

ArraySolveRequest request_of(bool directed, bool unweighted, bool predecessors,
                             const std::string& device, const std::string& variant,
                             const std::string& dtype, int threads, std::vector<std::string>& log,
                             std::vector<int> rows = {}) {
  ArraySolveRequest r;
  r.rows = std::move(rows);
  r.directed = directed;
  r.unweighted = unweighted;
  r.predecessors = predecessors;
  r.device = device;
  r.variant = variant;
  r.out = out_element(dtype);
  r.threads = threads;
  r.log = [&log](const std::string& line) { log.push_back(line); };
  return r;
}

// The result arrays: `out` when the caller gives one (overwrite), else new ones.
struct Outputs {
  void* dist = nullptr;
  int32_t* pred = nullptr;
  bool own_dist = true;
  ~Outputs() {
    if (own_dist) std::free(dist);
    std::free(pred);
  }
};

// The rows of the result a request asked for: r.rows, or every one.
size_t rows_of(const ArraySolveRequest& r, int n) {
  return r.rows.empty() ? static_cast<size_t>(n) : r.rows.size();
}

// The arrays (dist None when it was the caller's) and the solve's info.
nb::tuple finish(Outputs& o, Element e, size_t rows, int n, const ArraySolveResult& r,
                 const std::vector<std::string>& log) {
  nb::object dist = o.own_dist ? host_array(o.dist, e, rows, n) : nb::none();
  o.own_dist = false;
  nb::object pred = nb::none();
  if (o.pred) {
    pred = host_array(o.pred, Element::kInt32, rows, n);
    o.pred = nullptr;
  }
  return nb::make_tuple(dist, pred, info_of(r, log));
}

nb::tuple solve_dense(
    HostMatrix a, std::optional<HostMatrix> mask,
    std::optional<nb::ndarray<double, nb::ndim<2>, nb::c_contig, nb::device::cpu>> out,
    bool directed, bool unweighted, bool predecessors, const std::string& device,
    const std::string& variant, const std::string& dtype, int threads, std::vector<int> rows) {
  if (a.shape(0) != a.shape(1)) throw std::invalid_argument("graph should be a square array");
  const int n = static_cast<int>(a.shape(0));
  harness::DenseArray in{a.data(), element_of(a.dtype()), n, a.stride(0), a.stride(1)};
  if (mask) {
    if (mask->shape(0) != a.shape(0) || mask->shape(1) != a.shape(1) ||
        element_of(mask->dtype()) != Element::kBool)
      throw std::invalid_argument("the mask must be a bool array of the graph's shape");
    in.mask = static_cast<const uint8_t*>(mask->data());
    in.mask_row_stride = mask->stride(0);
    in.mask_col_stride = mask->stride(1);
  }
  std::vector<std::string> log;
  const ArraySolveRequest r = request_of(directed, unweighted, predecessors, device, variant, dtype,
                                         threads, log, std::move(rows));
  const size_t cells = rows_of(r, n) * n;
  Outputs o;
  if (out) {
    if (r.out != Element::kFloat64 || !r.rows.empty() || out->shape(0) != a.shape(0) ||
        out->shape(1) != a.shape(1))
      throw std::invalid_argument("out must be a float64 C-ordered array of the graph's shape");
    o.dist = out->data();
    o.own_dist = false;
  } else {
    o.dist = allocate_result(cells * element_bytes(r.out));
  }
  if (predecessors) o.pred = static_cast<int32_t*>(allocate_result(cells * 4));
  ArraySolveResult result;
  {
    nb::gil_scoped_release unlocked;
    result = harness::solve_dense(in, r, o.dist, o.pred);
  }
  return finish(o, r.out, rows_of(r, n), n, result, log);
}

nb::tuple solve_sparse(int n, HostVector row, HostVector col, HostVector values, bool directed,
                       bool unweighted, bool predecessors, const std::string& device,
                       const std::string& variant, const std::string& dtype, int threads,
                       std::vector<int> rows) {
  const size_t count = row.shape(0);
  if (col.shape(0) != count || values.shape(0) != count)
    throw std::invalid_argument("rows, columns and values of different lengths");
  const Element ri = element_of(row.dtype()), ci = element_of(col.dtype());
  const bool contiguous =
      count <= 1 || (row.stride(0) == 1 && col.stride(0) == 1 && values.stride(0) == 1);
  if (ri != ci || (ri != Element::kInt32 && ri != Element::kInt64) || !contiguous)
    throw std::invalid_argument("indices must be contiguous int32 or int64 arrays of one type");
  harness::SparseArray in{n,
                          count,
                          row.data(),
                          col.data(),
                          ri == Element::kInt64,
                          values.data(),
                          element_of(values.dtype())};
  std::vector<std::string> log;
  const ArraySolveRequest r = request_of(directed, unweighted, predecessors, device, variant, dtype,
                                         threads, log, std::move(rows));
  const size_t cells = rows_of(r, n) * n;
  Outputs o;
  o.dist = allocate_result(cells * element_bytes(r.out));
  if (predecessors) o.pred = static_cast<int32_t*>(allocate_result(cells * 4));
  ArraySolveResult result;
  {
    nb::gil_scoped_release unlocked;
    result = harness::solve_sparse(in, r, o.dist, o.pred);
  }
  return finish(o, r.out, rows_of(r, n), n, result, log);
}

cudaStream_t stream_of(uintptr_t handle) {
  // DLPack's stream numbers: 1 the legacy default stream, 2 the per-thread one.
  if (handle == 1) return cudaStreamLegacy;
  if (handle == 2) return cudaStreamPerThread;
  return reinterpret_cast<cudaStream_t>(handle);
}

// A device array's element type: any integer or floating type (the conventions are SciPy's).
Element device_element(const DeviceMatrix& m, const char* what) {
  const auto code = static_cast<nb::dlpack::dtype_code>(m.dtype().code);
  if (code == nb::dlpack::dtype_code::Bool || code == nb::dlpack::dtype_code::Complex)
    throw nb::type_error((std::string(what) +
                          ": a device array of bool or complex is not a graph's weights (an "
                          "integer or floating dtype is)")
                             .c_str());
  return element_of(m.dtype());
}

void check_device_matrix(const DeviceMatrix& m, const char* what) {
  if (m.shape(0) != m.shape(1))
    throw std::invalid_argument(std::string(what) + ": graph should be a square array");
  if (m.stride(1) != 1 || m.stride(0) < static_cast<int64_t>(m.shape(1)))
    throw std::invalid_argument(std::string(what) + ": a device array must be row-major (C order)");
}

// A device array solved into `out` (the same array: in place), on the device `a` is on.
// Integer types are solved into int32 distances, floating ones into float64 (harness:
// solve_device_matrix); `out` is of that type.
nb::dict solve_device(DeviceMatrix a, std::optional<DeviceMatrix> given, uintptr_t stream,
                      bool directed, bool unweighted, const std::string& variant, int threads) {
  check_device_matrix(a, "csgraph");
  const Element type = device_element(a, "csgraph");
  const DeviceMatrix out = given ? *given : a;
  check_device_matrix(out, "out");
  const bool floating = harness::is_floating(type);
  if (out.dtype() != (floating ? nb::dtype<double>() : nb::dtype<int32_t>()))
    throw nb::type_error(floating ? "out: a floating graph's distances are float64"
                                  : "out: an integer graph's distances are int32");
  if (out.shape(0) != a.shape(0) || out.device_id() != a.device_id())
    throw std::invalid_argument("out must have the graph's shape, on its device");
  std::vector<std::string> log;
  ArraySolveRequest r = request_of(directed, unweighted, false, "cuda", variant,
                                   floating ? "float64" : "int32", threads, log);
  ArraySolveResult result;
  {
    nb::gil_scoped_release unlocked;
    const DeviceGuard on(static_cast<int>(a.device_id()));  // the caller's device afterwards
    result =
        harness::solve_device_matrix({a.data(), type, static_cast<int>(a.shape(0)), a.stride(0)},
                                     out.data(), out.stride(0), stream_of(stream), r);
  }
  return info_of(result, log);
}

// A new n x n array of int32 or float64 ("int32", "float64") on CUDA device `device`, owned by
// the returned array (cudaFree).
nb::object device_empty(int n, int device, const std::string& dtype) {
  const bool wide = dtype == "float64";
  if (!wide && dtype != "int32") throw std::invalid_argument("device_empty: int32 or float64");
  const DeviceGuard on(device);
  void* p = nullptr;
  const size_t bytes = std::max<size_t>(static_cast<size_t>(n) * n * (wide ? 8 : 4), 8);
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::bad_alloc();
  }
  nb::capsule owner(p, [](void* q) noexcept { cudaFree(q); });
  const size_t shape[2] = {static_cast<size_t>(n), static_cast<size_t>(n)};
  // array_api: an object with __dlpack__ (any framework's from_dlpack takes it), not a capsule.
  return nb::ndarray<nb::array_api, nb::ndim<2>, nb::device::cuda>(
             p, 2, shape, owner, nullptr, wide ? nb::dtype<double>() : nb::dtype<int32_t>(),
             nb::device::cuda::value, device)
      .cast();
}

nb::list variants() {
  nb::list out;
  for (const Variant& v : registry()) {
    nb::dict d;
    d["name"] = v.name;
    d["summary"] = v.summary;
    d["precision"] = v.precision;
    d["target"] = v.target == Target::kDevice ? "device"
                  : v.target == Target::kHost ? "host"
                                              : "isolated";
    nb::dict space, defaults;
    for (const Param& p : v.space) space[p.name.c_str()] = p.values;
    for (const auto& [k, x] : v.defaults) defaults[k.c_str()] = x;
    d["space"] = space;
    d["defaults"] = defaults;
    d["default_config"] = config_name(v.name, v.defaults);
    d["multi_gpu"] = v.multi_gpu != nullptr;
    out.append(d);
  }
  return out;
}

nb::object device_info() {
  if (!has_device()) return nb::none();
  const DeviceInfo d = query_device();
  nb::dict info;
  info["name"] = d.name;
  info["cc"] = d.cc();
  info["sms"] = d.sms;
  info["memory_bytes"] = d.memory_bytes;
  info["driver"] = d.driver;
  info["runtime"] = d.runtime;
  info["count"] = device_count();
  return info;
}

// The solver's messages name its request's fields (harness/solve/request.hpp: mention); a
// Python user knows them by floyd_warshall's keywords, which are the fields' names but one.
std::string keyword_of(std::string_view field) {
  return field == "predecessors" ? "return_predecessors" : std::string(field);
}

}  // namespace
}  // namespace apsp::python

NB_MODULE(_core, m) {
  using namespace apsp::python;
  m.doc() = "apsp_lab's compiled core (use the apsp_lab package, not this module)";
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const apsp::harness::SolveError& e) {
      const std::string line = e.line(keyword_of);
      PyErr_SetString(
          e.fault == apsp::harness::SolveFault::kRefused ? PyExc_ValueError : PyExc_RuntimeError,
          line.c_str());
    } catch (const std::range_error& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    }
  });
  m.def("solve_dense", &solve_dense, "a"_a, "mask"_a.none(), "out"_a.none(), "directed"_a,
        "unweighted"_a, "predecessors"_a, "device"_a, "variant"_a, "dtype"_a, "threads"_a,
        "rows"_a = std::vector<int>{});
  m.def("solve_sparse", &solve_sparse, "n"_a, "row"_a, "col"_a, "values"_a, "directed"_a,
        "unweighted"_a, "predecessors"_a, "device"_a, "variant"_a, "dtype"_a, "threads"_a,
        "rows"_a = std::vector<int>{});
  m.def("solve_device", &solve_device, "a"_a, "out"_a.none(), "stream"_a, "directed"_a,
        "unweighted"_a, "variant"_a, "threads"_a);
  m.def("device_empty", &device_empty, "n"_a, "device"_a, "dtype"_a = "int32");
  m.def("variants", &variants);
  m.def("device_info", &device_info);
  m.def("device_count", [] { return apsp::device_count(); });
  m.def("bench", &apsp::python::bench_json, "options_json"_a);
  m.def("check_results", &apsp::python::check_results_json, "text"_a, "source"_a);
  bind_batch(m);
  bind_reductions(m);
}
