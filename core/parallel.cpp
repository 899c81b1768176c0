#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace apsp {

int hardware_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void parallel_for(int count, int threads, const std::function<void(int)>& fn) {
  if (count <= 0) return;
  if (threads <= 0) threads = hardware_threads();
  threads = std::min(threads, count);
  if (threads == 1) {
    for (int i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<int> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (int i; (i = next.fetch_add(1)) < count;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  pool.clear();  // joins
  if (error) std::rethrow_exception(error);
}

void parallel_for_chunks(int count, int chunk, int threads, const std::function<void(int)>& fn) {
  if (count <= 0) return;
  chunk = std::max(chunk, 1);
  parallel_for((count + chunk - 1) / chunk, threads, [&](int task) {
    for (int i = task * chunk; i < std::min(count, (task + 1) * chunk); ++i) fn(i);
  });
}

}  // namespace apsp
