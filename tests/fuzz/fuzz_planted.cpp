// A target with findings planted on purpose, for the test that a finding fails ctest
// (tests/fuzz/planted_finding.sh). APSP_FUZZ_PLANT picks one of libFuzzer's ways out, taken on
// every input (an input's own bytes would let the fuzzer mutate one plant into another):
// F a fuzz_check finding (an abort: libFuzzer's -error_exitcode), L a leak (LeakSanitizer, the
// same code), M one allocation beyond fuzz.sh's -rss_limit_mb (libFuzzer's malloc limit, the
// same code), U undefined behaviour (UBSan's own exit code), T an input that never ends
// (-timeout_exitcode). Unset, every input passes.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "tests/fuzz/fuzz_check.hpp"

static char* volatile lost;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* /*data*/, size_t size) {
  static const char* const plant = std::getenv("APSP_FUZZ_PLANT");
  switch (plant ? plant[0] : '\0') {
    case 'F':
      apsp::fuzz::finding("planted", "APSP_FUZZ_PLANT=F");
    case 'L':
      // Through a volatile pointer, so that the compiler keeps the allocation it never frees.
      lost = static_cast<char*>(std::malloc(64));
      lost = nullptr;
      return 0;
    case 'M':
      // Refused by libFuzzer's malloc hook before any of it is touched.
      lost = static_cast<char*>(std::malloc(size_t{3} << 30));
      std::free(lost);
      return 0;
    case 'U': {
      volatile int32_t x = INT32_MAX;
      x = x + static_cast<int32_t>(size | 1);
      return x;
    }
    case 'T':
      for (;;) sleep(1);
  }
  return 0;
}
