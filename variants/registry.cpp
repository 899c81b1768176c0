#include <fmt/format.h>

#include <cstdlib>

#include "variants/all.hpp"

namespace apsp {

std::string check_launch(int n, int threads, int smem_bytes, const DeviceInfo& dev) {
  if (n < 1) return fmt::format("n must be at least 1, got {}", n);
  if (threads > dev.max_threads_per_block) {
    return fmt::format("needs {} threads per block, the device allows {}", threads,
                       dev.max_threads_per_block);
  }
  if (smem_bytes > dev.smem_per_block_optin) {
    return fmt::format("needs {} bytes of shared memory per block, the device allows {}",
                       smem_bytes, dev.smem_per_block_optin);
  }
  return "";
}

const std::vector<Variant>& registry() {
  static const std::vector<Variant> variants = [] {
    std::vector<Variant> v = {make_naive(),   make_blocked32(),    make_regtile64(),
                              make_batched(), make_batched_edge(), make_sm90()};
    if (std::getenv("APSP_PLANT_WRONG_VARIANT")) v.push_back(make_planted_wrong());
    return v;
  }();
  return variants;
}

}  // namespace apsp
