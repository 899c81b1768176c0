#include "core/cubin.hpp"

#include <cstring>
#include <stdexcept>

namespace apsp {

namespace {

constexpr uint32_t kSymtab = 2;  // SHT_SYMTAB
constexpr uint8_t kFunc = 2;     // STT_FUNC

// A little-endian field of the image, bounds-checked: a truncated file is an error, not a read
// past the end.
template <class T>
T field(const std::string& image, uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T))
    throw std::runtime_error("cubin: truncated ELF image");
  T v;
  std::memcpy(&v, image.data() + offset, sizeof(T));
  return v;
}

std::string c_string(const std::string& image, uint64_t offset) {
  if (offset >= image.size()) throw std::runtime_error("cubin: string table offset out of range");
  return std::string(image.c_str() + offset, strnlen(image.data() + offset, image.size() - offset));
}

}  // namespace

Cubin::Cubin(std::string image) : image_(std::move(image)) {
  if (image_.size() < 64 ||
      image_.compare(0, 4,
                     "\x7f"
                     "ELF") != 0 ||
      image_[4] != 2 || image_[5] != 1)
    throw std::runtime_error("cubin: not a 64-bit little-endian ELF image");
  const auto shoff = field<uint64_t>(image_, 0x28);
  const auto shentsize = field<uint16_t>(image_, 0x3a);
  const auto shnum = field<uint16_t>(image_, 0x3c);
  const auto shstrndx = field<uint16_t>(image_, 0x3e);
  if (shentsize < 64 || shstrndx >= shnum)
    throw std::runtime_error("cubin: malformed section table");
  std::vector<uint32_t> name_offsets;
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint64_t h = shoff + uint64_t{i} * shentsize;
    name_offsets.push_back(field<uint32_t>(image_, h));
    sections_.push_back({"", field<uint32_t>(image_, h + 4), field<uint64_t>(image_, h + 0x18),
                         field<uint64_t>(image_, h + 0x20), field<uint32_t>(image_, h + 0x28)});
  }
  const uint64_t names = sections_[shstrndx].offset;
  for (size_t i = 0; i < sections_.size(); ++i)
    sections_[i].name = c_string(image_, names + name_offsets[i]);
  for (const Section& s : sections_) {
    if (s.type != kSymtab || s.link >= sections_.size()) continue;
    const uint64_t strings = sections_[s.link].offset;
    for (uint64_t at = s.offset; at + 24 <= s.offset + s.size; at += 24) {
      Symbol sym;
      sym.name = c_string(image_, strings + field<uint32_t>(image_, at));
      sym.type = field<uint8_t>(image_, at + 4) & 0xf;
      sym.section = field<uint16_t>(image_, at + 6);
      sym.value = field<uint64_t>(image_, at + 8);
      sym.size = field<uint64_t>(image_, at + 16);
      symbols_.push_back(std::move(sym));
    }
  }
}

const Cubin::Section* Cubin::section(const std::string& name) const {
  for (const Section& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

bool Cubin::has_function(const std::string& name) const {
  for (const Symbol& s : symbols_)
    if (s.name == name && s.type == kFunc) return true;
  return false;
}

int64_t Cubin::static_shared_bytes(const std::string& kernel) const {
  const Section* s = section(".nv.shared." + kernel);
  return s ? static_cast<int64_t>(s->size) : 0;
}

std::vector<int32_t> Cubin::int_array(const std::string& symbol) const {
  for (const Symbol& s : symbols_) {
    if (s.name != symbol || s.section >= sections_.size()) continue;
    const uint64_t start = sections_[s.section].offset + s.value;
    std::vector<int32_t> out;
    for (uint64_t i = 0; i + 4 <= s.size; i += 4) out.push_back(field<int32_t>(image_, start + i));
    return out;
  }
  return {};
}

}  // namespace apsp
