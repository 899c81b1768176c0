// The tuning-database reader (core/tuning_db: TuningDb::parse, what TuningDb::load reads):
// any bytes are either a database or one std::runtime_error line naming the source and the
// JSON path; an accepted database written back (TuningDb::text, what save writes) reads back
// to the same text.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/tuning_db.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace apsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  TuningDb db;
  std::string note;
  try {
    db = TuningDb::parse(text, "fuzz.json", &note);
  } catch (const std::runtime_error& e) {
    fuzz::expect_one_line(e.what());
    return 0;
  }
  if (!note.empty()) fuzz::expect_one_line(note);
  const std::string written = db.text();
  try {
    fuzz::expect(TuningDb::parse(written, "written").text() == written,
                 "a written database reads back different");
  } catch (const std::runtime_error& e) {
    fuzz::finding("an accepted database, written back, is refused", e.what());
  }
  return 0;
}
