// The config text parser (variants/config.cpp: parse_config, what --config, tuning databases
// and policies name configs with): any text is either a complete, compiled config of a
// registered variant or one std::invalid_argument line. What it accepts, printed by
// config_name, parses back to the same config.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tests/fuzz/fuzz_check.hpp"
#include "variants/variant.hpp"

using namespace apsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  NamedConfig parsed{};
  try {
    parsed = parse_config(text);
  } catch (const std::invalid_argument& e) {
    // The message quotes the text; the programs' own line escapes nothing, so only a text that
    // is itself printable must give a printable line.
    bool printable = true;
    for (unsigned char c : text) printable = printable && c >= 0x20 && c != 0x7f;
    if (printable) fuzz::expect_one_line(e.what());
    return 0;
  }
  fuzz::expect(parsed.variant != nullptr, "accepted without a variant", text);
  fuzz::expect(config_problem(parsed.variant->name, parsed.config).empty(),
               "accepted an invalid config", text);
  const std::string name = config_name(parsed.variant->name, parsed.config);
  try {
    const NamedConfig again = parse_config(name);
    fuzz::expect(again.variant == parsed.variant && again.config == parsed.config,
                 "round trip changed it", name);
  } catch (const std::invalid_argument& e) {
    fuzz::finding("an accepted config, printed by config_name, is refused", e.what());
  }
  return 0;
}
