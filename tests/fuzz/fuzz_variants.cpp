// Variants for the fuzz targets that need a registry (the config parser, the policy reader):
// host-only stand-ins with the shapes of the real spaces (the real ones are CUDA files, and the
// fuzzers are built by clang from host sources only): no parameters (naive), two value lists
// (batched), four lists with a constraint (sm90), and any positive value (a user kernel).
#include "variants/variant.hpp"

namespace apsp {
namespace {

Variant stand_in(const char* name) {
  Variant v;
  v.name = name;
  v.summary = "fuzz stand-in";
  v.target = Target::kHost;
  v.check = [](const Config&, int n, const DeviceInfo&) {
    return n >= 1 ? std::string() : std::string("n < 1");
  };
  v.run = [](int*, int, const Config&, cudaStream_t, PhaseTimer*) {};
  return v;
}

Variant make_naive() { return stand_in("naive"); }

Variant make_batched() {
  Variant v = stand_in("batched");
  v.space = {Param{"batch2", {1, 2, 3, 4, 5, 6, 7, 8}, "", "batch"},
             Param{"batch3", {1, 2, 3, 4, 5, 6, 7, 8}, "", "batch"}};
  v.defaults = {{"batch2", 6}, {"batch3", 6}};
  return v;
}

Variant make_sm90() {
  Variant v = stand_in("sm90");
  v.space = {Param{"tile", {64, 128}, "", "tile"}, Param{"chunk", {8, 16, 32}, "", "tile"},
             Param{"per_thread", {4, 8}, "", "tile"}, Param{"lookahead", {0, 1, 2}, "", "tile"}};
  v.constraints = {Constraint{"(tile / per_thread)^2 <= 256 threads", [](const Config& c) {
                                const int edge = c.at("tile") / c.at("per_thread");
                                return edge * edge <= 256;
                              }}};
  v.defaults = {{"tile", 128}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 1}};
  return v;
}

Variant make_user_kernel() {
  Variant v = stand_in("fw_user");
  v.space = {Param{"TILE", {32}, "", "contract", /*any_value=*/true},
             Param{"BATCH", {1, 2, 4}, "", "kernel", true}};
  v.defaults = {{"TILE", 32}, {"BATCH", 1}};
  return v;
}

}  // namespace
}  // namespace apsp

APSP_REGISTER_VARIANT(apsp::make_naive)
APSP_REGISTER_VARIANT(apsp::make_batched)
APSP_REGISTER_VARIANT(apsp::make_sm90)
APSP_REGISTER_VARIANT(apsp::make_user_kernel)
