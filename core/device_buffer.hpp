// RAII device memory, streams and CUDA events, and the priority streams and ordering events that
// sm90's look-ahead and the distributed solver make and destroy themselves.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"

namespace apsp {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count > 0) APSP_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() {
    if (ptr_) cudaFree(ptr_);  // no throw from a destructor; a failed free leaks at worst
    ptr_ = nullptr;
  }
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// A device copy of a host array of the same element size; one element at least, so that an
// empty array still has an address to pass to a kernel. The copy has landed when it returns:
// a plain cudaMemcpy from pageable memory may return before its DMA ends, and work on a
// non-blocking stream (all of ours) is not ordered after it, so it could read the old bytes.
template <class T, class U>
DeviceBuffer<T> to_device(const std::vector<U>& src) {
  static_assert(sizeof(T) == sizeof(U));
  DeviceBuffer<T> dst(std::max<size_t>(src.size(), 1));
  if (!src.empty()) {
    APSP_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(U),
                                    cudaMemcpyHostToDevice, cudaStreamLegacy));
    APSP_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  }
  return dst;
}

class CudaEvent {
 public:
  CudaEvent() { APSP_CUDA_CHECK(cudaEventCreate(&event_)); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent() { cudaEventDestroy(event_); }
  void record(cudaStream_t s) { APSP_CUDA_CHECK(cudaEventRecord(event_, s)); }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Milliseconds between two events recorded on one stream; waits for `stop`.
inline float elapsed_ms(const CudaEvent& start, const CudaEvent& stop) {
  APSP_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  float ms = 0;
  APSP_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

// A non-blocking stream at the device's highest priority (its blocks are dispatched ahead of
// other streams' waiting ones) or its lowest, the default's; the caller destroys it.
inline cudaStream_t make_priority_stream(bool highest) {
  int least = 0, greatest = 0;
  APSP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaStream_t s = nullptr;
  APSP_CUDA_CHECK(
      cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, highest ? greatest : least));
  return s;
}

// An event for ordering streams only (no timing); the caller destroys it.
inline cudaEvent_t make_ordering_event() {
  cudaEvent_t e = nullptr;
  APSP_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return e;
}

class CudaStream {
 public:
  CudaStream() { APSP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  ~CudaStream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }
  void synchronize() const { APSP_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace apsp

namespace apsp {

// Page-locked host memory: copies to and from the device run at full speed and asynchronously.
template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t count) : count_(count) {
    if (count > 0)
      APSP_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

}  // namespace apsp

namespace apsp {

// Makes `device` the calling thread's current CUDA device for its scope, then restores the
// previous one (the multi-GPU layer works on several devices from one thread).
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    APSP_CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) APSP_CUDA_CHECK(cudaSetDevice(device));
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  ~DeviceGuard() { cudaSetDevice(previous_); }  // no throw from a destructor

 private:
  int previous_ = 0;
};

}  // namespace apsp
