#include "core/graph_formats.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <stdexcept>

#include "core/graph_text.hpp"
#include "core/memory.hpp"

namespace apsp {

const std::vector<const GraphFormat*>& graph_formats() {
  // Auto-detection asks each after the first in this order (mtx's banner starts with SNAP's
  // '%' comment, so mtx comes before snap), and falls back on the first.
  static const std::vector<const GraphFormat*> formats{
      &edges_graph_format(), &dimacs_graph_format(), &mtx_graph_format(), &snap_graph_format()};
  return formats;
}

const GraphFormat* parse_graph_format(std::string_view name) {
  for (const GraphFormat* f : graph_formats())
    if (f->name == name) return f;
  return nullptr;
}

std::vector<std::string> graph_format_names() {
  std::vector<std::string> names{"auto"};
  for (const GraphFormat* f : graph_formats()) names.push_back(f->name);
  return names;
}

std::string graph_formats_help() {
  std::string by_extension;
  for (const GraphFormat* f : graph_formats())
    for (const std::string& ext : f->extensions)
      by_extension += fmt::format("{}{} {}", by_extension.empty() ? "" : ", ", ext, f->name);
  std::string help = fmt::format(
      "auto (by the extension after .gz: {}; else by a format's own signature: a 'c' or 'p' "
      "line, %%MatrixMarket, a '#' or '%' comment; else edges)",
      by_extension);
  for (const GraphFormat* f : graph_formats())
    help += fmt::format(", {} ({})", f->name, f->description);
  return help + "; any of them gzipped";
}

namespace {

struct Inflater {
  z_stream z{};
  explicit Inflater(std::string_view source) {
    if (inflateInit2(&z, 15 + 16) != Z_OK)
      throw InputError(fmt::format("{}: zlib cannot start", source));
  }
  ~Inflater() { inflateEnd(&z); }
};

// The first allocation for what `in` unpacks to: its last member's ISIZE (the size modulo
// 2^32), a hint only, at most 16 times `in` (text rarely packs tighter) and `cap`.
size_t first_allocation(std::string_view in, uint64_t cap) {
  uint64_t isize = 0;
  if (in.size() >= 4)
    for (int b = 3; b >= 0; --b)
      isize = isize << 8 | static_cast<unsigned char>(in[in.size() - 4 + static_cast<size_t>(b)]);
  return static_cast<size_t>(
      std::min({std::max<uint64_t>(isize, 1 << 16), 16 * static_cast<uint64_t>(in.size()), cap}));
}

// Every gzip member of `in`, unpacked, at most max_bytes of it: inflated straight into the
// output, grown by doubling (a bounce buffer and appends cost a copy of the whole text).
std::string inflate_all(std::string_view in, std::string_view source, uint64_t max_bytes) {
  Inflater inf(source);
  z_stream& z = inf.z;
  // One byte more than max_bytes tells that it unpacks to more.
  const uint64_t cap = max_bytes == UINT64_MAX ? max_bytes : max_bytes + 1;
  std::string out(first_allocation(in, cap), '\0');
  const auto too_large = [&] {
    return InputError(
        fmt::format("{}: unpacks to more than the {} available", source, human_bytes(max_bytes)));
  };
  size_t used = 0, fed = 0;
  for (;;) {
    if (z.avail_in == 0 && fed < in.size()) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + fed));
      z.avail_in = static_cast<uInt>(std::min<size_t>(in.size() - fed, 1u << 30));
      fed += z.avail_in;
    }
    if (used == out.size()) {
      if (used > max_bytes) throw too_large();
      out.resize(static_cast<size_t>(std::min<uint64_t>(2 * used, cap)));
    }
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - used, 1u << 30));
    const size_t room = z.avail_out;
    const int rc = inflate(&z, Z_NO_FLUSH);
    used += room - z.avail_out;
    const bool all_fed = z.avail_in == 0 && fed == in.size();
    if (rc == Z_STREAM_END && all_fed) {
      if (used > max_bytes) throw too_large();
      out.resize(used);
      return out;
    }
    if (rc == Z_STREAM_END) {
      inflateReset(&z);  // the next member of a concatenation (cat a.gz b.gz)
      continue;
    }
    if (rc == Z_BUF_ERROR && all_fed && z.avail_out > 0)
      throw InputError(fmt::format("{}: the gzip data is cut short", source));
    if (rc != Z_OK && rc != Z_BUF_ERROR)
      throw InputError(fmt::format("{}: damaged gzip data at byte {}: {}", source, fed - z.avail_in,
                                   z.msg ? z.msg : "inflate failed"));
  }
}

}  // namespace

std::string gunzip_if_gzip(std::string bytes, std::string_view source, uint64_t max_bytes,
                           std::string* note) {
  if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f ||
      static_cast<unsigned char>(bytes[1]) != 0x8b)
    return bytes;
  std::string text = inflate_all(bytes, source, max_bytes ? max_bytes : available_memory().bytes);
  if (note)
    *note = fmt::format("{}: gzip, {} unpacked to {}", source, human_bytes(bytes.size()),
                        human_bytes(text.size()));
  return text;
}

namespace {

std::string_view extension_of(std::string_view path) {
  if (path.ends_with(".gz")) path.remove_suffix(3);
  const size_t slash = path.rfind('/'), dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return "";
  return path.substr(dot);
}

}  // namespace

namespace {

// What `why` holds when auto fell back on the contest edge list: never said, it tells parse_graph
// that the format was a default, not a choice.
constexpr std::string_view kFallback = "input format: edges, no other format's signature";

// "snap, dimacs or mtx": the formats a fault's hint offers instead of `format`.
std::string other_format_names(const GraphFormat& format) {
  std::vector<std::string> names;
  for (const GraphFormat* f : graph_formats())
    if (f != &format) names.push_back(f->name);
  std::string out;
  for (size_t k = 0; k < names.size(); ++k)
    out += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
  return out;
}

}  // namespace

const GraphFormat& choose_graph_format(std::string_view requested, std::string_view path,
                                       std::string_view text, std::string* why) {
  if (why) why->clear();
  if (requested != "auto") {
    if (const GraphFormat* f = parse_graph_format(requested)) return *f;
    throw std::invalid_argument(fmt::format("--input-format: unknown format '{}'", requested));
  }
  const std::string_view ext = extension_of(path);
  for (const GraphFormat* f : graph_formats()) {
    if (ext.empty() ||
        std::find(f->extensions.begin(), f->extensions.end(), ext) == f->extensions.end())
      continue;
    if (why)
      *why = fmt::format("input format: {}, by the extension {} (--input-format overrides)",
                         f->name, ext);
    return *f;
  }
  const auto& formats = graph_formats();
  for (auto f = formats.begin() + 1; f != formats.end(); ++f) {
    if (!(*f)->looks_like(skip_byte_order_mark(text))) continue;
    if (why)
      *why = fmt::format("input format: {}, by its content (--input-format overrides)", (*f)->name);
    return **f;
  }
  if (why) *why = kFallback;
  return *formats.front();
}

EdgeList parse_graph(const GraphFormat& format, const std::string& why, std::string_view text,
                     std::string_view source, uint64_t max_matrix_bytes,
                     const std::function<void(const std::string&)>& say) {
  std::string note;
  EdgeList g;
  try {
    g = format.parse(text, source, max_matrix_bytes, &note);
  } catch (const InputError& e) {
    // A format auto chose may not be the one the user meant: the fault says which was read.
    if (why.empty()) throw;
    throw InputError(
        fmt::format("{} (read as {}: if this is another format, name it with "
                    "--input-format {})",
                    e.what(), format.name, other_format_names(format)));
  }
  if (!why.empty() && why != kFallback) say(why);
  if (!note.empty()) say(note);
  return g;
}

EdgeList read_graph(const std::string& path, std::string_view requested, uint64_t max_matrix_bytes,
                    const std::function<void(const std::string&)>& say) {
  const std::string source = path == "-" ? "<stdin>" : path;
  std::string note;
  const std::string text = gunzip_if_gzip(read_whole_input(path), source, 0, &note);
  if (!note.empty()) say(note);
  const GraphFormat& format = choose_graph_format(requested, path, text, &note);
  return parse_graph(format, note, text, source, max_matrix_bytes, say);
}

}  // namespace apsp
