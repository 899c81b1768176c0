// core/graph_batch.hpp: format_batch_npz, a batch as NumPy's .npz: a zip archive of .npy files,
// stored (uncompressed) as np.savez writes it, so that np.load(path) gives the arrays a PyG Batch
// holds. A zip's sizes and offsets are 32-bit here (no ZIP64): past 4 GiB it is refused.
#include <fmt/format.h>
#include <zlib.h>

#include <cstring>
#include <limits>
#include <stdexcept>

#include "core/graph_batch.hpp"
#include "core/matrix_io.hpp"

namespace apsp {

namespace {

struct Member {
  std::string name;   // "ptr.npy"
  std::string bytes;  // the .npy file
  uint32_t crc = 0;
  uint32_t offset = 0;  // of its local header in the archive
};

template <class T>
void append_le(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);  // the host is little-endian (npy's too)
}

template <class T>
std::string npy_file(const char* descr, std::initializer_list<int64_t> shape,
                     const std::vector<const std::vector<T>*>& parts) {
  std::string f = npy_array_header(descr, shape);
  for (const auto* p : parts)
    f.append(reinterpret_cast<const char*>(p->data()), p->size() * sizeof(T));
  return f;
}

// The header fields a local and a central entry share: version, flags, method (stored), time,
// date, CRC, sizes, name length.
void common_fields(std::string& out, const Member& m) {
  append_le<uint16_t>(out, 20);    // version needed: 2.0
  append_le<uint16_t>(out, 0);     // flags
  append_le<uint16_t>(out, 0);     // stored
  append_le<uint16_t>(out, 0);     // time
  append_le<uint16_t>(out, 0x21);  // date: 1980-01-01
  append_le<uint32_t>(out, m.crc);
  append_le<uint32_t>(out, static_cast<uint32_t>(m.bytes.size()));
  append_le<uint32_t>(out, static_cast<uint32_t>(m.bytes.size()));
  append_le<uint16_t>(out, static_cast<uint16_t>(m.name.size()));
}

std::string zip_of(std::vector<Member>& members) {
  std::string zip, central;
  for (Member& m : members) {
    if (zip.size() + m.bytes.size() + 1024 > std::numeric_limits<uint32_t>::max()) {
      throw std::length_error("the batch's .npz would pass 4 GiB, more than a zip without ZIP64");
    }
    m.crc = static_cast<uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(m.bytes.data()), m.bytes.size()));
    m.offset = static_cast<uint32_t>(zip.size());
    append_le<uint32_t>(zip, 0x04034b50);
    common_fields(zip, m);
    append_le<uint16_t>(zip, 0);  // extra field length
    zip += m.name;
    zip += m.bytes;
    append_le<uint32_t>(central, 0x02014b50);
    append_le<uint16_t>(central, 20);  // version made by
    common_fields(central, m);
    for (int field = 0; field < 4; ++field) append_le<uint16_t>(central, 0);  // extra .. attrs
    append_le<uint32_t>(central, 0);                                          // external attrs
    append_le<uint32_t>(central, m.offset);
    central += m.name;
  }
  const auto directory_at = static_cast<uint32_t>(zip.size());
  zip += central;
  append_le<uint32_t>(zip, 0x06054b50);
  for (int field = 0; field < 2; ++field) append_le<uint16_t>(zip, 0);  // disk numbers
  append_le<uint16_t>(zip, static_cast<uint16_t>(members.size()));
  append_le<uint16_t>(zip, static_cast<uint16_t>(members.size()));
  append_le<uint32_t>(zip, static_cast<uint32_t>(central.size()));
  append_le<uint32_t>(zip, directory_at);
  append_le<uint16_t>(zip, 0);  // comment length
  return zip;
}

}  // namespace

std::string format_batch_npz(const GraphBatch& b) {
  const auto edges = static_cast<int64_t>(b.src.size());
  std::vector<Member> members;
  members.push_back({"ptr.npy", npy_file<int64_t>("<i8", {b.graphs() + 1}, {&b.vertex_ptr})});
  members.push_back({"edge_index.npy", npy_file<int64_t>("<i8", {2, edges}, {&b.src, &b.dst})});
  if (b.weighted) {
    members.push_back({"edge_weight.npy", npy_file<int32_t>("<i4", {edges}, {&b.weight})});
  }
  return zip_of(members);
}

}  // namespace apsp
