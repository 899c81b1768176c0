#include "core/memory.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace apsp {

namespace {

std::optional<uint64_t> read_number(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// Limit less usage at `dir` and every folder above it up to `root`: a parent's limit binds too.
std::optional<uint64_t> cgroup_left(const std::filesystem::path& root, std::filesystem::path dir,
                                    const char* limit_file, const char* usage_file) {
  std::optional<uint64_t> best;
  std::error_code ec;
  if (!std::filesystem::is_directory(root / dir.relative_path(), ec))
    dir = "/";  // another namespace
  for (std::filesystem::path d = dir;; d = d.parent_path()) {
    const auto folder = root / d.relative_path();
    const auto limit = read_number(folder / limit_file), usage = read_number(folder / usage_file);
    // cgroup v1 writes "no limit" as a huge page-aligned number (2^63 rounded down).
    if (limit && *limit < (uint64_t{1} << 62)) {
      const uint64_t left = usage && *usage < *limit ? *limit - *usage : 0;
      best = std::min(best.value_or(UINT64_MAX), left);
    }
    if (d == d.parent_path() || d.empty()) break;
  }
  return best;
}

std::optional<uint64_t> cgroup_left_of_self() {
  std::ifstream in("/proc/self/cgroup");
  std::optional<uint64_t> best;
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2, unified) or "4:memory:/path" (v1)
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    std::optional<uint64_t> left;
    if (controllers.empty())
      left = cgroup_left("/sys/fs/cgroup", path, "memory.max", "memory.current");
    else if (("," + controllers + ",").find(",memory,") != std::string::npos)
      left = cgroup_left("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                         "memory.usage_in_bytes");
    if (left) best = std::min(best.value_or(UINT64_MAX), *left);
  }
  return best;
}

std::optional<uint64_t> meminfo_available() {
  std::ifstream in("/proc/meminfo");
  // Line by line: some lines have no unit (HugePages_Total:  0), so tokens do not pair up.
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kb = 0;
    if (fields >> key >> kb && key == "MemAvailable:") return kb * 1024;
  }
  return std::nullopt;
}

std::optional<uint64_t> address_space_left() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream in("/proc/self/statm");
  uint64_t pages = 0;
  in >> pages;
  const uint64_t used = pages * static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  return r.rlim_cur > used ? r.rlim_cur - used : 0;
}

}  // namespace

MemoryLimit tightest(const MemorySources& s) {
  MemoryLimit m;
  const auto consider = [&](const std::optional<uint64_t>& v, const char* source) {
    if (v && *v < m.bytes) m = {*v, source};
  };
  consider(s.meminfo_available, "available memory (MemAvailable)");
  consider(s.cgroup_left, "what the cgroup's memory limit leaves");
  consider(s.address_space_left, "what ulimit -v leaves");
  return m;
}

MemorySources memory_sources() {
  return {meminfo_available(), cgroup_left_of_self(), address_space_left()};
}

MemoryLimit available_memory() { return tightest(memory_sources()); }

std::string human_bytes(uint64_t b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1000.0 && u < 6) {
    v /= 1000.0;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, units[u]);
}

}  // namespace apsp
