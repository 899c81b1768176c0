// Run-time compiled user kernels on the CPU: NVRTC compiles with no GPU present, so the
// contract checks, the compile cache and the geometry read from the cubin run in CI.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/cubin.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/userkernel/user_kernel.hpp"
#include "tests/support/kernel_files.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

namespace fs = std::filesystem;

const std::string& kExamples = test::kExampleKernels;
const std::string& kPlanted = test::kPlantedKernels;

// A fresh cache folder per test: hits and misses are the test's own.
class UserKernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = scratch_.path() / "cache";
    options_.cache_dir = cache_.string();
  }

  CompiledKernel compile(const std::string& path, const Config& macros = {}) {
    return compile_kernel(read_kernel_source(path), macros, options_);
  }
  // The message of the ContractError compiling `path` throws.
  std::string contract_error(const std::string& path, const Config& macros = {}) {
    try {
      compile(path, macros);
    } catch (const ContractError& e) {
      return e.what();
    }
    ADD_FAILURE() << path << " compiled without a contract error";
    return "";
  }

  test::ScratchDir scratch_;
  fs::path cache_;
  CompileOptions options_;
};

TEST_F(UserKernelTest, PlainExampleCompilesWithItsGeometry) {
  const CompiledKernel k = compile(kExamples + "fw32.cu");
  EXPECT_FALSE(k.from_cache);
  EXPECT_EQ(k.geometry.tile, 32);
  EXPECT_EQ(k.geometry.threads_x, 32);
  EXPECT_EQ(k.geometry.threads_y, 32);
  EXPECT_FALSE(k.geometry.declares_batch2);
  EXPECT_EQ(k.geometry.batch2, 1);
  EXPECT_EQ(k.geometry.config(), (Config{{"TILE", 32}}));
  // Phase 1 holds one tile, phases 2 and 3 two, in static shared memory (plus what the
  // architecture reserves per block).
  EXPECT_GE(k.geometry.static_smem[0], 32 * 32 * 4);
  EXPECT_GE(k.geometry.static_smem[2], 2 * 32 * 32 * 4);
  EXPECT_LT(k.geometry.static_smem[2], 3 * 32 * 32 * 4);
  EXPECT_EQ(k.geometry.dynamic_smem, (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(geometry_problem(k.geometry, 1000, nominal_h200()), "");
}

TEST_F(UserKernelTest, BatchedExampleTakesItsBatchesFromOutside) {
  const CompiledKernel def = compile(kExamples + "fw_batched.cu");
  EXPECT_EQ(def.geometry.config(), (Config{{"BATCH2", 4}, {"BATCH3", 4}, {"TILE", 32}}));
  EXPECT_EQ(def.geometry.dynamic_smem[1], (1 + 4) * 32 * 32 * 4);
  const CompiledKernel k = compile(kExamples + "fw_batched.cu", {{"BATCH2", 2}, {"BATCH3", 7}});
  EXPECT_EQ(k.geometry.batch2, 2);
  EXPECT_EQ(k.geometry.batch3, 7);
  EXPECT_EQ(k.geometry.dynamic_smem[2], 2 * 7 * 32 * 32 * 4);
  EXPECT_NE(k.cubin, def.cubin);
}

TEST_F(UserKernelTest, TheCacheAnswersARerunAndKeysOnTheMacros) {
  const CompiledKernel first = compile(kExamples + "fw32.cu");
  ASSERT_FALSE(first.from_cache);
  ASSERT_TRUE(fs::is_regular_file(first.cache_file)) << first.cache_file;
  const CompiledKernel again = compile(kExamples + "fw32.cu");
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.cubin, first.cubin);
  EXPECT_EQ(again.cache_file, first.cache_file);
  const CompiledKernel other = compile(kExamples + "fw32.cu", {{"TILE", 16}});
  EXPECT_FALSE(other.from_cache);
  EXPECT_EQ(other.geometry.tile, 16);
  EXPECT_NE(other.cache_file, first.cache_file);
  // A damaged entry is compiled again, not trusted.
  { std::ofstream(first.cache_file, std::ios::trunc) << "not a cubin"; }
  const CompiledKernel repaired = compile(kExamples + "fw32.cu");
  EXPECT_FALSE(repaired.from_cache);
  EXPECT_EQ(repaired.cubin, first.cubin);
}

TEST_F(UserKernelTest, ASyntaxErrorNamesTheFileAndLine) {
  try {
    compile(kPlanted + "syntax_error_kernel.cu");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    // The semicolon is missing at the end of line 25; the compiler notices on line 26.
    EXPECT_NE(e.log.find("syntax_error_kernel.cu(26): error"), std::string::npos) << e.log;
    EXPECT_NE(std::string(e.what()).find("syntax_error_kernel.cu: does not compile"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(UserKernelTest, EachContractViolationIsNamed) {
  EXPECT_NE(contract_error(kPlanted + "wrong_signature_kernel.cu")
                .find("wrong_signature_kernel.cu(36): fw_phase2 has the wrong signature; the "
                      "contract's is extern \"C\" "
                      "__global__ void fw_phase2(int* d, int n, int k)"),
            std::string::npos);
  EXPECT_NE(contract_error(kPlanted + "missing_phase3_kernel.cu").find("no phase kernel fw_phase3"),
            std::string::npos);
  EXPECT_NE(contract_error(kPlanted + "no_tile_kernel.cu").find("the file does not #define TILE"),
            std::string::npos);
  EXPECT_NE(
      contract_error(kPlanted + "fixed_tile_kernel.cu", {{"TILE", 16}})
          .find(
              "TILE=16 was asked, but the file sets TILE to 32; wrap its #define in #ifndef TILE"),
      std::string::npos);
  // Shared memory over the device's limit compiles, and is refused before any launch.
  const CompiledKernel big = compile(kPlanted + "too_much_smem_kernel.cu");
  EXPECT_NE(geometry_problem(big.geometry, 1000, nominal_h200())
                .find("fw_phase3 needs 316416 bytes of shared memory per block"),
            std::string::npos);
  EXPECT_NE(geometry_problem(big.geometry, 1000, nominal_h200()).find("the device allows 232448"),
            std::string::npos);
}

TEST_F(UserKernelTest, AParamTheFileDoesNotUseIsNamed) {
  try {
    UserKernel k(read_kernel_source(kExamples + "fw32.cu"), {parse_kernel_param("UNROLL=1:4")},
                 options_);
    FAIL() << "compiled";
  } catch (const ContractError& e) {
    EXPECT_NE(std::string(e.what()).find("--param UNROLL: the file has no macro UNROLL"),
              std::string::npos)
        << e.what();
  }
  // THREADS_X is fw32's, but fixed by a bare #define: no parameter either.
  try {
    UserKernel k(read_kernel_source(kExamples + "fw32.cu"), {parse_kernel_param("THREADS_X=8")},
                 options_);
    FAIL() << "compiled";
  } catch (const ContractError& e) {
    EXPECT_NE(std::string(e.what()).find("--param THREADS_X: the file fixes THREADS_X"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NE(contract_error(kExamples + "fw32.cu", {{"UNROLL", 2}})
                .find("UNROLL=2 was asked, but the file has no macro UNROLL"),
            std::string::npos);
}

TEST_F(UserKernelTest, AUserKernelIsAVariantWithAnyValue) {
  UserKernel k(read_kernel_source(kExamples + "fw_batched.cu"), {parse_kernel_param("BATCH2=1:3")},
               options_);
  const Variant v = k.variant(Target::kIsolated);
  EXPECT_EQ(v.name, "fw_batched");
  EXPECT_EQ(v.defaults, (Config{{"BATCH2", 4}, {"BATCH3", 4}, {"TILE", 32}}));
  EXPECT_EQ(v.kernel_hash, k.source().hash);
  EXPECT_EQ(user_param_names(v), std::vector<std::string>{"BATCH2"});
  EXPECT_EQ(v.check({{"BATCH2", 8}, {"BATCH3", 2}, {"TILE", 32}}, 1000, nominal_h200()), "");
  EXPECT_NE(v.check({{"BATCH2", 1}, {"BATCH3", 1}, {"TILE", 64}}, 1000, nominal_h200())
                .find("the file sets TILE to 32"),
            std::string::npos);
  // 12 x 12 tiles of 4 KB in phase 3: 1.1 MB of shared memory.
  EXPECT_NE(v.check({{"BATCH2", 1}, {"BATCH3", 140}, {"TILE", 32}}, 1000, nominal_h200())
                .find("shared memory"),
            std::string::npos);
}

TEST(KernelParam, RangesListsAndBadText) {
  EXPECT_EQ(parse_kernel_param("BATCH2=1:4").values, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_kernel_param("TILE=16,32").values, (std::vector<int>{16, 32}));
  for (const char* bad :
       {"BATCH2", "=1", "B=0", "B=+1", "B=1,", "B=1,1", "B=4:1", "B=a:3", "2B=1", "B=1:99999"})
    EXPECT_THROW(parse_kernel_param(bad), std::invalid_argument) << bad;
}

TEST(Cubin, RefusesWhatIsNotAnElfImage) {
  EXPECT_THROW(
      Cubin("not an ELF file at all, but long enough to have a header of sixty-four bytes"),
      std::runtime_error);
  EXPECT_THROW(Cubin(std::string("\x7f"
                                 "ELF\x02\x01",
                                 6)),
               std::runtime_error);
}

TEST(KernelSourceFile, MissingFilesAndNamesThatCannotBeVariants) {
  EXPECT_THROW(read_kernel_source("/nonexistent/fw.cu"), std::invalid_argument);
  EXPECT_THROW(read_kernel_source("/"), std::invalid_argument);
}

}  // namespace
}  // namespace apsp::harness
