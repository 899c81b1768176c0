// The results-JSON reader (core/results: results_from_json, after json_read::parse): any bytes
// are either read or refused with one std::runtime_error line ("/runs/3/n: ..."); no other
// exception (a bare nlohmann type_error names no JSON path) and no undefined behaviour (a
// float cast out of range). What it accepts, written back (to_json), reads back the same.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "core/json_read.hpp"
#include "core/results.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace apsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Results r;
  try {
    r = results_from_json(
        json_read::parse(std::string_view(reinterpret_cast<const char*>(data), size)));
  } catch (const std::runtime_error& e) {
    fuzz::expect_one_line(e.what());
    return 0;
  }
  const nlohmann::json written = to_json(r);
  try {
    fuzz::expect(to_json(results_from_json(written)) == written,
                 "a written results file reads back different");
  } catch (const std::runtime_error& e) {
    fuzz::finding("an accepted results file, written back, is refused", e.what());
  }
  return 0;
}
