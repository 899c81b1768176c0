// How much memory this process may still take: the least of what the machine has available
// (MemAvailable, not the total), what its cgroup allows (v2 memory.max less memory.current, v1
// memory.limit_in_bytes less memory.usage_in_bytes, at every level up to the root) and what
// `ulimit -v` leaves (RLIMIT_AS less the address space in use). Checked before a graph's
// matrix is allocated, so a graph too large for the machine is refused before any work.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace apsp {

struct MemoryLimit {
  uint64_t bytes = UINT64_MAX;  // UINT64_MAX: nothing known limits it
  std::string source;           // which limit it is, for messages ("cgroup memory.max", ...)
};

// What each source says; nullopt where a source is absent or unlimited.
struct MemorySources {
  std::optional<uint64_t> meminfo_available;   // /proc/meminfo MemAvailable
  std::optional<uint64_t> cgroup_left;         // the tightest cgroup level's limit less its usage
  std::optional<uint64_t> address_space_left;  // RLIMIT_AS less this process's VmSize
};

// The tightest of the sources (pure: the tests give it made-up sources).
MemoryLimit tightest(const MemorySources& s);
// The sources of this process and machine, read now.
MemorySources memory_sources();
MemoryLimit available_memory();

std::string human_bytes(uint64_t bytes);  // "1.2 GB"

}  // namespace apsp
