#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/matrix_io.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

TEST(MatrixWriter, ExactOutputFormat) {
  DistMatrix d = DistMatrix::from_edges(parse_edge_list("3 2\n0 1 12\n1 2 0\n", "g"));
  floyd_warshall_plain(d);
  EXPECT_EQ(format_matrix(d.view()), "0 12 12\n1073741823 0 0\n1073741823 1073741823 0\n");
}

// The threaded fd writer gives exactly the bytes of the simple formatter, across several
// batches of rows.
TEST(MatrixWriter, ThreadedWriterMatchesFormatter) {
  GraphSpec spec;
  spec.num_vertices = 700;
  spec.density = 0.01;
  DistMatrix d = solve_reference(generate(spec));
  FILE* tmp = std::tmpfile();
  ASSERT_NE(tmp, nullptr);
  std::vector<int> reported;  // apsp's progress line: rows written after each batch, then all
  write_matrix(d.view(), fileno(tmp), 3, /*task_bytes=*/50000,  // 6 rows a task, 39 batches
               [&](int rows) { reported.push_back(rows); });
  ASSERT_EQ(reported.size(), 40u);
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_EQ(reported.front(), 0);
  EXPECT_EQ(reported[1], 18) << "the first batch is 3 tasks of 6 rows";
  EXPECT_EQ(reported.back(), 700);
  const off_t size = lseek(fileno(tmp), 0, SEEK_END);
  std::string got(static_cast<size_t>(size), '\0');
  ASSERT_EQ(pread(fileno(tmp), got.data(), got.size(), 0), size);
  std::fclose(tmp);
  EXPECT_EQ(got, format_matrix(d.view()));
}

// The banded writer (apsp copies a device's matrix down a band at a time) gives the bytes of
// the whole-matrix writer in every format, for bands that do not divide n, and counts them.
TEST(MatrixWriter, BandsGiveTheBytesOfTheWholeMatrix) {
  GraphSpec spec;
  spec.num_vertices = 301;
  spec.density = 0.02;
  const DistMatrix d = solve_reference(generate(spec));
  const auto bytes_of = [](const std::function<uint64_t(int fd)>& write, uint64_t* counted) {
    FILE* tmp = std::tmpfile();
    *counted = write(fileno(tmp));
    const off_t size = lseek(fileno(tmp), 0, SEEK_END);
    std::string got(static_cast<size_t>(size), '\0');
    EXPECT_EQ(pread(fileno(tmp), got.data(), got.size(), 0), size);
    std::fclose(tmp);
    return got;
  };
  for (const MatrixFormat* format : matrix_formats()) {
    uint64_t whole_bytes = 0;
    const std::string whole =
        bytes_of([&](int fd) { return write_matrix_as(d.view(), fd, *format, 2); }, &whole_bytes);
    EXPECT_EQ(whole_bytes, whole.size());
    for (int band_rows : {1, 7, 300, 301}) {
      std::vector<int32_t> copy;  // each band in a buffer of its own, as from a device
      const RowBand band = [&](int first, int count) {
        EXPECT_LE(count, band_rows);
        copy.assign(d.view().row(first), d.view().row(first) + static_cast<size_t>(count) * d.n());
        return copy.data();
      };
      int last = 0;
      uint64_t counted = 0;
      const std::string got = bytes_of(
          [&](int fd) {
            return write_matrix_bands(d.n(), band_rows, band, fd, *format, 2,
                                      [&](int r) { last = r; });
          },
          &counted);
      EXPECT_EQ(got, whole) << format->name << ", band of " << band_rows;
      EXPECT_EQ(counted, whole.size());
      EXPECT_EQ(last, d.n());
    }
  }
}

// --format's check and help come from the registry: every format once, by name, text first.
TEST(MatrixFormats, RegistryNamesEachFormatOnce) {
  EXPECT_EQ(matrix_format_names(), (std::vector<std::string>{"text", "bin", "npy"}));
  for (const MatrixFormat* f : matrix_formats()) EXPECT_EQ(parse_matrix_format(f->name), f);
  EXPECT_EQ(parse_matrix_format("csv"), nullptr);
  EXPECT_EQ(parse_matrix_format(""), nullptr);
  EXPECT_EQ(
      matrix_formats_help(),
      "text (the contest's: V lines of V distances, 1073741823 for no path), bin ('APSPDST1', V as "
      "int64, V*V int32, "
      "little-endian) or npy (NumPy: np.load reads an int32 (V, V) array (int64 on the 64-bit "
      "path))");
}

// The binary headers, byte for byte: bin's magic and V; npy's dict padded with spaces so that
// the data starts at a multiple of 64 bytes.
TEST(MatrixFormats, BinaryHeaders) {
  EXPECT_EQ(bin_matrix_format().header(3), std::string("APSPDST1\x03\0\0\0\0\0\0\0", 16));
  const std::string npy = npy_matrix_format().header(3);
  ASSERT_EQ(npy.size(), 128u);
  EXPECT_EQ(npy.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 3), }";
  EXPECT_EQ(npy.substr(10), dict + std::string(128 - 10 - dict.size() - 1, ' ') + "\n");
  EXPECT_EQ(text_matrix_format().header(3), "");
}

// The 64-bit path's outputs: every format's int64 form, through the same banded, atomic writer:
// bin and npy write distances past int32 whole and unreachable as kInf64, their headers saying
// int64; text is the contest's whatever solved it: unreachable 1073741823, a distance of
// 1073741823 or more saturated to it, 1073741822 written as it is.
TEST(MatrixFormats, SixtyFourBitOutputs) {
  const std::vector<int64_t> m{0, 3000000000, kInf64, 7, 0, 1073741822, kInf64, kInf, 0};
  const RowBand64 band = [&](int first, int) { return m.data() + static_cast<size_t>(first) * 3; };
  test::ScratchDir dir;
  const auto written = [&](const MatrixFormat& f) {
    const std::string path = dir.file("d." + f.name);
    const uint64_t bytes = write_matrix_output64(path, 3, 2, band, f, 2, "the distances");
    std::ifstream in(path, std::ios::binary);
    std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes, got.size()) << f.name;
    return got;
  };
  EXPECT_EQ(written(text_matrix_format()),
            "0 1073741823 1073741823\n7 0 1073741822\n1073741823 1073741823 0\n");
  EXPECT_EQ(count_saturated(m.data(), m.size(), 2), 2u) << "3000000000 and kInf; not kInf64";
  const std::string raw(reinterpret_cast<const char*>(m.data()), m.size() * sizeof(int64_t));
  EXPECT_EQ(written(bin_matrix_format()), std::string("APSPDS64\x03\0\0\0\0\0\0\0", 16) + raw);
  const std::string npy = written(npy_matrix_format());
  ASSERT_EQ(npy.size(), 128 + raw.size());
  EXPECT_NE(npy.find("'descr': '<i8'"), std::string::npos);
  EXPECT_EQ(npy.substr(128), raw);
}

}  // namespace
}  // namespace apsp
