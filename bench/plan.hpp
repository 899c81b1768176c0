// What apsp_bench will run: parsed and validated before any GPU work, printed by --dry-run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "variants/variant.hpp"
#include "variants/workbench.hpp"

namespace apsp::bench {

struct Entry {
  const Variant* variant;
  Config config;
  std::string name;  // config_name(...)
};

struct Plan {
  std::vector<int> sizes;
  std::vector<Entry> entries;  // naive first when it is timed
  bool naive_added = false;    // naive was not asked for but is timed for the speedups
  GraphSpec graph;             // generator settings (num_vertices set per n)
  std::string graph_file;      // --graph: sizes = {V of the file}
  int cpu_reference_max_n = kCpuReferenceMaxN;
};

// Parses "1000,2500,10000"; throws std::invalid_argument with one line on a bad value.
std::vector<int> parse_sizes(const std::string& text);

// Entries from --variant (names or "all") and --config texts; throws std::invalid_argument.
std::vector<Entry> select_entries(const std::string& variants, const std::vector<std::string>& configs);

}  // namespace apsp::bench
