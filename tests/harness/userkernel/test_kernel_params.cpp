// A user kernel's parameters are the same in every program: the macros it guards with #ifndef
// (found in its text), besides TILE and BATCH2/BATCH3. The tuner and the bench name a compiled
// kernel alike, a tuning-database entry the tuner wrote is what apsp_bench --tuned and
// apsp --kernel --db pick, and a kernel no run of which fits the device is found before any run.
// NVRTC compiles without a GPU: all of it runs on the CPU.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "core/tuning_db.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/solve/solve_steps.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/tune/tuned.hpp"
#include "harness/userkernel/kernel_macros.hpp"
#include "harness/userkernel/user_kernel.hpp"
#include "tests/support/kernel_files.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

namespace fs = std::filesystem;

const std::string& kExamples = test::kExampleKernels;
const std::string& kPlanted = test::kPlantedKernels;

TEST(KernelMacros, GuardedPositiveIntegerDefaultsAreTunable) {
  const KernelMacros m = scan_kernel_macros(R"(
#ifndef TILE
#define TILE 32
#endif
#  if !defined(PER_THREAD)
#    define PER_THREAD (4)  /* a comment after the value */
#  endif
#if !defined SPLIT
// between the guard and the define: a comment line
#define SPLIT \
  2
#endif
#ifndef FW_KERNEL_CU
#define FW_KERNEL_CU
#endif
#ifndef INCLUDE_GUARD_WITH_A_VALUE
#define INCLUDE_GUARD_WITH_A_VALUE 1
__device__ int code_inside_the_guard;
#endif
#ifndef WITH_AN_ELSE
#define WITH_AN_ELSE 2
#else
#endif
#ifndef DERIVED
#define DERIVED (TILE / PER_THREAD)
#endif
#ifndef ZERO
#define ZERO 0
#endif
#ifndef HUGE
#define HUGE 99999999999
#endif
#ifndef FUNCTION
#define FUNCTION(x) 4
#endif
#define THREADS_X 32
)");
  EXPECT_EQ(m.tunable, (std::vector<std::string>{"PER_THREAD", "SPLIT", "TILE", "WITH_AN_ELSE"}));
  for (const char* name :
       {"TILE", "PER_THREAD", "SPLIT", "FW_KERNEL_CU", "INCLUDE_GUARD_WITH_A_VALUE", "DERIVED",
        "ZERO", "HUGE", "FUNCTION", "THREADS_X"})
    EXPECT_EQ(m.defined.count(name), 1u) << name;
  EXPECT_EQ(macro_problem(m, "PER_THREAD"), "");
  EXPECT_EQ(macro_problem(m, "NOPE"), "the file has no macro NOPE");
  EXPECT_NE(macro_problem(m, "DERIVED").find("the file fixes DERIVED"), std::string::npos);
  EXPECT_NE(macro_problem(m, "THREADS_X").find("#ifndef THREADS_X / #define THREADS_X VALUE"),
            std::string::npos);
}

TEST(KernelMacros, CommentsAndLiteralsHideNoGuardAndMakeNone) {
  const KernelMacros m = scan_kernel_macros(R"(
// #ifndef IN_A_LINE_COMMENT
// #define IN_A_LINE_COMMENT 4
/*
#ifndef IN_A_BLOCK_COMMENT
#define IN_A_BLOCK_COMMENT 4
#endif
*/
const char* s = "/* not a comment";
#ifndef AFTER_A_STRING
#define AFTER_A_STRING 8
#endif
const int big = 1'000; const char c = '"';
#ifndef AFTER_LITERALS
#define AFTER_LITERALS 2
#endif
const char* raw = R"x(
#ifndef IN_A_RAW_STRING
#define IN_A_RAW_STRING 4
#endif
)x";
#ifndef GUARD /* a comment
spanning lines */
#define GUARD 3
#endif
#ifndef INTERRUPTED
int between;
#define INTERRUPTED 4
#endif
)");
  EXPECT_EQ(m.tunable, (std::vector<std::string>{"AFTER_A_STRING", "AFTER_LITERALS", "GUARD"}));
  EXPECT_EQ(m.defined.count("IN_A_LINE_COMMENT"), 0u);
  EXPECT_EQ(m.defined.count("IN_A_BLOCK_COMMENT"), 0u);
  EXPECT_EQ(m.defined.count("INTERRUPTED"), 1u);
  EXPECT_EQ(strip_comments("a // b\nc /* d\ne */ f"), "a  \nc   f");
}

// A folder of the test's own, for the compile cache and the database.
class KernelParams : public ::testing::Test {
 protected:
  void SetUp() override { options_.cache_dir = (dir_ / "cache").string(); }

  test::ScratchDir scratch_;
  fs::path dir_ = scratch_.path();
  CompileOptions options_;
};

TEST_F(KernelParams, AGuardedMacroIsInTheConfigAndSetFromOutside) {
  const KernelSource src = read_kernel_source(kPlanted + "unrolled_kernel.cu");
  const CompiledKernel def = compile_kernel(src, {}, options_);
  EXPECT_EQ(def.geometry.config(), (Config{{"TILE", 32}, {"UNROLL", 4}}));
  const CompiledKernel eight = compile_kernel(src, {{"TILE", 32}, {"UNROLL", 8}}, options_);
  EXPECT_EQ(eight.geometry.config(), (Config{{"TILE", 32}, {"UNROLL", 8}}));
  EXPECT_NE(eight.cubin, def.cubin);  // the pragma took the macro's value
  // fw32 has no such macro, and THREADS_X it fixes.
  const KernelSource fw32 = read_kernel_source(kExamples + "fw32.cu");
  EXPECT_EQ(compile_kernel(fw32, {}, options_).geometry.config(), (Config{{"TILE", 32}}));
  EXPECT_THROW(compile_kernel(fw32, {{"THREADS_X", 16}}, options_), ContractError);
}

// The file as the tuner builds it: it searches UNROLL over 1 and 8.
UserKernel tuner_kernel(const CompileOptions& o) {
  return UserKernel(read_kernel_source(kPlanted + "unrolled_kernel.cu"),
                    {parse_kernel_param("UNROLL=1,8")}, o);
}
// The file as apsp_bench and apsp register it, knowing only the file: for the process (parse_config
// finds it), so kept as long as the process.
const Variant& registered_variant(const CompileOptions& o) {
  static const UserKernels k =
      register_user_kernels({kPlanted + "unrolled_kernel.cu"}, {}, Target::kDevice, o);
  return *k.variants.front();
}

TEST_F(KernelParams, TheBenchAndTheTunerNameAKernelAlike) {
  UserKernel k = tuner_kernel(options_);
  const Variant tuner = k.variant(Target::kIsolated);
  const Variant& v = registered_variant(options_);
  EXPECT_EQ(v.defaults, tuner.defaults);
  std::vector<std::string> space;
  for (const Param& p : v.space) space.push_back(p.name);
  EXPECT_EQ(space, (std::vector<std::string>{"TILE", "UNROLL"}));
  EXPECT_EQ(user_param_names(tuner), std::vector<std::string>{"UNROLL"});
  // The tuner's points, named as it names them, are what the bench's --config reads back.
  const std::vector<Config> points =
      enumerate_space(params_in_group(tuner, "kernel"), tuner.defaults);
  ASSERT_EQ(points.size(), 2u);
  const std::string eight = config_name(tuner.name, points[1]);
  EXPECT_EQ(eight, "unrolled_kernel[TILE=32,UNROLL=8]");
  EXPECT_EQ(config_name(v.name, parse_config("unrolled_kernel[UNROLL=8]").config), eight);
  EXPECT_EQ(config_name(v.name, parse_config(eight).config), eight);
  EXPECT_EQ(config_problem(v.name, points[1]), "");
}

TEST_F(KernelParams, TheTunersPickRunsInTheBenchAndInApsp) {
  UserKernel k = tuner_kernel(options_);
  const Variant tuner = k.variant(Target::kIsolated);
  const Variant& v = registered_variant(options_);
  const Config eight{{"TILE", 32}, {"UNROLL", 8}};
  // A database as the tuner writes it: the file's values and UNROLL=8, faster, at n = 1000.
  const DeviceInfo dev = nominal_h200();
  TuningDb db;
  for (const auto& [config, ms] : {std::pair{tuner.defaults, 10.0}, {eight, 5.0}})
    db.upsert(TuningEntry{DeviceModel::of(dev),
                          tuner.name,
                          1000,
                          config,
                          config_name(tuner.name, config),
                          GraphKey{"random", 0.1, 1000},
                          1,
                          build_of(tuner, current_build()),
                          "ok",
                          "",
                          {ms},
                          ms,
                          ""});
  // apsp_bench --tuned.
  TunedSource tuned{&db, {}, "tuning.json"};
  tuned.match.device = DeviceModel::of(dev);
  tuned.match.graph = GraphKey{"random", 0.1, 1000};
  tuned.match.kernels = build_of(v, current_build()).kernels;
  const Resolved bench_pick = resolve_config({&v, std::nullopt, &tuned}, 1000, &dev);
  EXPECT_TRUE(bench_pick.tuned) << bench_pick.note;
  EXPECT_EQ(bench_pick.config, eight);
  // apsp --kernel FILE --db: the same pick, from the file.
  const std::string path = (dir_ / "tuning.json").string();
  db.save(path);
  const Choice with_db{parse_config(v.name), true, path,
                       std::make_shared<const TuningDb>(TuningDb::load_existing(path))};
  const auto [chosen, why] = pick(with_db, dev, 1100, 1000);
  EXPECT_EQ(chosen.config, eight) << why;
  EXPECT_NE(why.find("tuned at n = 1000"), std::string::npos) << why;
  // Without the database: the file's values.
  const auto [plain, plain_why] =
      pick(Choice{parse_config(v.name), true, "", nullptr}, dev, 1100, 1000);
  EXPECT_EQ(plain.config, v.defaults) << plain_why;
}

TEST_F(KernelParams, AKernelNoRunOfWhichFitsTheDeviceIsFound) {
  const DeviceInfo dev = nominal_h200();
  const auto never_runs = [&](const std::string& file) {
    UserKernel k(read_kernel_source(file), {}, options_);
    const Variant v = k.variant(Target::kIsolated);
    return kernel_never_runs(v, {{v.defaults, 1000}, {v.defaults, 3000}}, dev);
  };
  const std::string threads = never_runs(kPlanted + "too_many_threads_kernel.cu");
  EXPECT_NE(threads.find("cannot run at any n of the plan on"), std::string::npos) << threads;
  EXPECT_NE(threads.find("too_many_threads_kernel[TILE=32] at n = 1000: THREADS_X x THREADS_Y = "
                         "2048 threads per block, the device allows 1024"),
            std::string::npos)
      << threads;
  EXPECT_NE(never_runs(kPlanted + "too_much_smem_kernel.cu").find("bytes of shared memory"),
            std::string::npos);
  EXPECT_EQ(never_runs(kExamples + "fw32.cu"), "");
  // One run that fits is enough: fw_batched at TILE = 64 cannot (its TILE is fixed), at its
  // own values it can.
  UserKernel batched(read_kernel_source(kExamples + "fw_batched.cu"), {}, options_);
  const Variant b = batched.variant(Target::kIsolated);
  Config tile64 = b.defaults;
  tile64["TILE"] = 64;
  EXPECT_NE(kernel_never_runs(b, {{tile64, 1000}}, dev).find("the file sets TILE to 32"),
            std::string::npos);
  EXPECT_EQ(kernel_never_runs(b, {{tile64, 1000}, {b.defaults, 1000}}, dev), "");
}

}  // namespace
}  // namespace apsp::harness
