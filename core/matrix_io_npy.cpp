// npy: NumPy's format 1.0, dtype '<i4' ('<i8' on the 64-bit path), shape (V, V) (k rows chosen:
// (k, V)), C order: np.load reads it as it is.
#include <fmt/format.h>

#include <bit>

#include "core/matrix_io.hpp"

namespace apsp {

std::string npy_array_header(const char* descr, std::initializer_list<int64_t> shape) {
  static_assert(std::endian::native == std::endian::little,
                "the binary formats are written as the host holds them");
  std::string dims;
  for (const int64_t d : shape) dims += fmt::format("{}{}", dims.empty() ? "" : ", ", d);
  if (shape.size() == 1) dims += ',';
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Magic (6), version (2), length (2), then the dict padded with spaces and ended by '\n' so
  // that the data starts at a multiple of 64 bytes.
  const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  const uint16_t len = static_cast<uint16_t>(dict.size());
  std::string h("\x93NUMPY\x01\x00", 8);
  h.append(reinterpret_cast<const char*>(&len), 2);
  return h + dict;
}

namespace {

std::string npy_header_of(const char* descr, int64_t rows, int64_t n) {
  return npy_array_header(descr, {rows, n});
}

std::string npy_header(int64_t n) { return npy_header_of("<i4", n, n); }
std::string npy_header64(int64_t n) { return npy_header_of("<i8", n, n); }
std::string npy_rows_header(int64_t rows, int64_t n) { return npy_header_of("<i4", rows, n); }
std::string npy_rows_header64(int64_t rows, int64_t n) { return npy_header_of("<i8", rows, n); }

}  // namespace

const MatrixFormat& npy_matrix_format() {
  static const MatrixFormat format{
      "npy",           "NumPy: np.load reads an int32 (V, V) array (int64 on the 64-bit path)",
      npy_header,      write_raw_rows,
      npy_header64,    write_raw_rows64,
      npy_rows_header, npy_rows_header64};
  return format;
}

}  // namespace apsp
