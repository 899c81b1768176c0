// bin: the 8 bytes "APSPDST1", V as an int64, then V * V int32, row-major; all little-endian.
// Its int64 form: "APSPDS64", V as an int64, then V * V int64. k rows chosen from the matrix
// (apsp --sources): "APSPROW1", k and V as int64, then k * V int32 ("APSPRO64" and k * V int64
// on the 64-bit path).
#include <bit>

#include "core/matrix_io.hpp"

namespace apsp {
namespace {

std::string header_with(const char* magic, int64_t n) {
  static_assert(std::endian::native == std::endian::little,
                "the binary formats are written as the host holds them");
  std::string h = magic;
  h.append(reinterpret_cast<const char*>(&n), sizeof n);
  return h;
}

std::string bin_header(int64_t n) { return header_with("APSPDST1", n); }
std::string bin_header64(int64_t n) { return header_with("APSPDS64", n); }
std::string rows_header_with(const char* magic, int64_t rows, int64_t n) {
  std::string h = header_with(magic, rows);
  h.append(reinterpret_cast<const char*>(&n), sizeof n);
  return h;
}
std::string bin_rows_header(int64_t rows, int64_t n) {
  return rows_header_with("APSPROW1", rows, n);
}
std::string bin_rows_header64(int64_t rows, int64_t n) {
  return rows_header_with("APSPRO64", rows, n);
}

}  // namespace

const MatrixFormat& bin_matrix_format() {
  static const MatrixFormat format{
      "bin",           "'APSPDST1', V as int64, V*V int32, little-endian",
      bin_header,      write_raw_rows,
      bin_header64,    write_raw_rows64,
      bin_rows_header, bin_rows_header64};
  return format;
}

}  // namespace apsp
