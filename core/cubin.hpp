// What the harness reads from a compiled CUDA module (a cubin: an ELF64 file) without a GPU:
// its kernels, each kernel's static shared memory, and the bytes of an initialised global. The
// run-time compiled user kernels (harness/user_kernel) are checked against their contract
// through it before anything is launched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

class Cubin {
 public:
  // Throws std::runtime_error when `image` is not a 64-bit little-endian ELF file.
  explicit Cubin(std::string image);

  const std::string& image() const { return image_; }
  // Whether the module defines an entry (a global function symbol) of that name.
  bool has_function(const std::string& name) const;
  // The bytes the module reserves as static shared memory for a kernel (its
  // .nv.shared.<kernel> section; 0 when it has none).
  int64_t static_shared_bytes(const std::string& kernel) const;
  // The initial values of an int array defined in the module (a __device__ const int[]); empty
  // when there is no such symbol.
  std::vector<int32_t> int_array(const std::string& symbol) const;

 private:
  struct Section {
    std::string name;
    uint32_t type = 0;
    uint64_t offset = 0, size = 0;
    uint32_t link = 0;
  };
  struct Symbol {
    std::string name;
    uint8_t type = 0;
    uint16_t section = 0;
    uint64_t value = 0, size = 0;
  };
  const Section* section(const std::string& name) const;

  std::string image_;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
};

}  // namespace apsp
