// apsp's solve on the GPU with the matrix kept on the device from start to end: built there from
// the input (harness/solve/solve_input.hpp: the edges, so no V x V matrix on the host; or a
// matrix given), solved in the variant's layout (Variant::pitch),
// checked there by the certificate when asked, and read back a band of rows at a time for the
// output (two pinned bands of 64 MB: one copies down while the other is written). So the largest V apsp
// solves is the largest matrix the device holds, and the host holds two bands, not a matrix.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "core/edge_list.hpp"
#include "harness/solve/solve_input.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

class DeviceSolve {
 public:
  // Allocates the matrix in (v, c)'s layout for the input's V; the output is copied down in
  // bands of about `band_bytes` (two such pinned buffers on the host, made during the solve, or
  // by the first band() when the input was on the device).
  static constexpr size_t kBandBytes = size_t{64} << 20;
  DeviceSolve(const SolveInput& in, const Variant& v, const Config& c,
              size_t band_bytes = kBandBytes);
  ~DeviceSolve();
  DeviceSolve(const DeviceSolve&) = delete;
  DeviceSolve& operator=(const DeviceSolve&) = delete;

  struct Times {
    double build_ms = 0,
           solve_ms = 0;  // the build (SolveInput::build_on_device); the variant's solve
  };
  // Builds the matrix from the input and runs the solve; returns once both are done.
  Times run();
  // "" when the result is g's distance matrix (the certificate, harness/verify/certificate.hpp).
  std::string certify(const InEdges& g);
  // The result's largest entry below kInf, found on the device (core/precision.hpp's proof).
  int64_t max_finite();
  // The result as an n x n row-major matrix in device memory: the buffer itself when its rows are
  // n apart, else a compact copy made on first call (one more matrix of device memory).
  const int32_t* compact();
  int32_t at(int i, int j);
  // Rows [first, first + count) in host memory (count <= band_rows()), for write_matrix_bands;
  // the next band's copy starts as this one is returned. Valid until the next call.
  const int32_t* band(int first, int count);
  int band_rows() const { return band_rows_; }
  int n() const { return n_; }
  int pitch() const { return pitch_; }
  // The result in its layout, rows pitch() apart, for work that reads it where it is (the
  // reductions of harness/solve/summary.hpp); valid once run() has returned.
  const int32_t* matrix() const { return d_.get(); }

 private:
  const SolveInput& in_;
  const Variant& v_;
  Config c_;
  int n_, pitch_, band_rows_;
  DeviceBuffer<int32_t> d_, compact_;
  CudaStream stream_, copies_;
  struct Bands;
  std::unique_ptr<Bands> bands_;
};

}  // namespace apsp::harness
