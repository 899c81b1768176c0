// 16-bit distances (sm90_u16): the rule that decides when they are exact, the input's largest
// weight it is decided from, and the variant's declaration (admission, precision, scratch).
#include <gtest/gtest.h>

#include "core/generators.hpp"
#include "core/precision.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

// (n - 1) * w < 0x7FFF: at the limit (0x7FFE) admitted, one step over (0x7FFF) refused.
TEST(U16Admission, ExactlyUpToTheLimit) {
  EXPECT_EQ(u16_admission(16384, 2), "") << "16383 * 2 = 0x7FFE, the largest distance 16 bits hold";
  EXPECT_EQ(u16_admission(16385, 2),
            "16-bit distances are exact only while (V - 1) * the largest weight < 32767; here "
            "16384 * 2 = 32768");
  EXPECT_EQ(u16_admission(32767, 1), "");
  EXPECT_EQ(u16_admission(32768, 1),
            "16-bit distances are exact only while (V - 1) * the largest weight < 32767; here "
            "32767 * 1 = 32767");
  EXPECT_EQ(u16_admission(2, 0x7FFE), "");
  EXPECT_NE(u16_admission(2, 0x7FFF), "");
  EXPECT_EQ(u16_admission(1 << 20, 0), "") << "zero weights: distances 0 or unreachable at any n";
  EXPECT_EQ(u16_admission(1, 0), "");
  EXPECT_EQ(u16_admission(1, 40000),
            "16-bit distances need every finite entry below 32767; here the largest is 40000");
  EXPECT_NE(u16_admission(1 << 20, 1), "");
  EXPECT_NE(u16_admission(46341, kInf - 1), "") << "no overflow in the product";
}

TEST(U16Admission, TheLargestFiniteEntryOfTheInput) {
  EdgeList g{5, {{0, 1, 7}, {0, 1, 3}, {1, 2, 0}, {3, 3, 900}, {2, 0, 5}}};
  const DistMatrix d = DistMatrix::from_edges(g);
  EXPECT_EQ(max_finite_entry(d), 5)
      << "duplicates keep their smallest weight, self loops never enter, kInf is not finite";
  EXPECT_EQ(max_edge_weight(g), 7)
      << "the edge list's bound: at least the matrix's, self loops left out";
  EXPECT_EQ(max_finite_entry(DistMatrix(4)), 0) << "no edges: only the zero diagonal";
  EXPECT_EQ(max_finite_entry(DistMatrix()), 0);
  EXPECT_EQ(max_edge_weight(EdgeList{3, {}}), 0);
  for (int threads : {1, 3}) {
    DistMatrix big(300);
    big.at(299, 17) = 12345;
    EXPECT_EQ(max_finite_entry(big, threads), 12345);
  }
  GraphSpec unweighted;
  unweighted.num_vertices = 500;
  unweighted.wmax = 1;  // apsp_bench --wmax 1
  EXPECT_EQ(max_finite_entry(DistMatrix::from_edges(generate(unweighted))), 1);
  GraphSpec small;
  small.num_vertices = 500;
  small.wmin = 0;
  small.wmax = 3;
  small.duplicates = 0.5;
  EXPECT_LE(max_finite_entry(DistMatrix::from_edges(generate(small))), 3);
}

// The variant declares what it is: 16-bit, admitting by the rule, its own scratch, the caller's
// matrix unpadded; every other built-in variant admits every graph and computes in int32 (or,
// the 64-bit path, in int64: tests/core/test_wide.cpp).
TEST(U16Admission, TheVariantsDeclareIt) {
  const Variant* u16 = find_variant("sm90_u16");
  ASSERT_NE(u16, nullptr);
  EXPECT_EQ(u16->precision, kPrecisionU16x2);
  EXPECT_EQ(admission_problem(*u16, 10000, 3), "");
  EXPECT_EQ(admission_problem(*u16, 10924, 3),
            "sm90_u16 does not solve this graph exactly: 16-bit distances are exact only while (V "
            "- 1) * the "
            "largest weight < 32767; here 10923 * 3 = 32769");
  EXPECT_EQ(row_pitch(*u16, u16->defaults, 1000), 1000) << "it takes the int32 matrix as it is";
  EXPECT_EQ(scratch_bytes(*u16, u16->defaults, 1000), 1024u * 1024 * 2 + 256 + 2u * 128 * 1024 * 4)
      << "1000 padded to tile 128, 2 bytes each, and the panel config's two panels of 128 x 1024 "
         "words";
  Config side_stream = u16->defaults;
  side_stream["tile"] = 64;
  EXPECT_EQ(scratch_bytes(*u16, side_stream, 1000), 1024u * 1024 * 2 + 256)
      << "1000 padded to tile 64, no panel";
  Config pairs = u16->defaults;
  pairs["lookahead"] = 3;
  EXPECT_EQ(scratch_bytes(*u16, pairs, 1000), 1024u * 1024 * 2 + 256 + 4u * 128 * 1024 * 4)
      << "pairs of rounds: two panels of two columns of tiles";
  EXPECT_TRUE(is_built(*u16, u16->defaults));
  EXPECT_GE(all_configs(*u16).size(), 3u);
  EXPECT_LE(all_configs(*u16).size(), 8u) << "a small space: the build stays fast";
  for (const Variant& v : registry()) {
    if (&v == u16 || v.precision == kPrecisionInt64) continue;
    EXPECT_EQ(v.precision, kPrecisionInt32) << v.name;
    EXPECT_EQ(admission_problem(v, 1 << 20, kInf - 1), "") << v.name;
  }
}

// The largest distance bounded from below by one sweep from the vertex with the most out-edges:
// exact below `enough`, `enough` where a vertex is at least that far, and a vertex first reached
// far but then by a shorter way is not counted as far.
TEST(DistanceFloor, OneSweepFromTheBusiestVertex) {
  const EdgeList chain{4, {{0, 1, 10}, {1, 2, 10}, {2, 3, 10}}};
  EXPECT_EQ(largest_distance_floor(chain, 1000).distance, 30);
  EXPECT_EQ(largest_distance_floor(chain, 1000).source, 0);
  EXPECT_EQ(largest_distance_floor(chain, 25).distance, 25) << "vertex 3 is 30 away";
  EXPECT_EQ(largest_distance_floor(chain, 30).distance, 30);
  EXPECT_EQ(largest_distance_floor(chain, 31).distance, 30);
  const EdgeList shortcut{3, {{0, 1, 100}, {0, 2, 1}, {2, 1, 1}, {1, 1, 0}}};
  EXPECT_EQ(largest_distance_floor(shortcut, 50).distance, 2);
  const EdgeList busy{4, {{3, 0, 7}, {3, 1, 9}, {0, 1, 1}, {2, 2, 5}, {2, 2, 5}}};
  EXPECT_EQ(largest_distance_floor(busy, 100).source, 3) << "self loops are no out-edges";
  EXPECT_EQ(largest_distance_floor(busy, 100).distance, 8);
  EXPECT_EQ(largest_distance_floor(EdgeList{3, {}}, 100).distance, 0);
  EXPECT_THROW(largest_distance_floor(chain, (int64_t{1} << 24) + 1), std::invalid_argument);
}

}  // namespace
}  // namespace apsp
