// A minimal fork-join loop for host work (CPU reference, output formatting).
#pragma once

#include <functional>

namespace apsp {

// Threads this machine runs at once (at least 1).
int hardware_threads();

// Calls fn(i) for i in [0, count), on up to `threads` threads (0: all cores); returns when all
// are done. The first exception thrown by any fn is rethrown here.
void parallel_for(int count, int threads, const std::function<void(int)>& fn);

// The same with `chunk` consecutive i a task (rows of a matrix: fewer, larger tasks).
void parallel_for_chunks(int count, int chunk, int threads, const std::function<void(int)>& fn);

}  // namespace apsp
