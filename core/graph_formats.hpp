// The graph files apsp and apsp_bench read: the contest edge list, DIMACS .gr, SNAP-style edge
// lists (NetworkX's among them) and Matrix Market coordinate files, each also gzipped. Each
// format is one file (core/graph_format_<name>.cpp) and one line in graph_formats();
// --input-format's check, help and auto-detection come from that list. Every reader gives one
// EdgeList (duplicate edges are kept; the matrix keeps the smallest weight, as for the edge list)
// or one InputError line "SOURCE:LINE:COLUMN: what", and applies the bounds of
// core/edge_list.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/edge_list.hpp"

namespace apsp {

struct GraphFormat {
  std::string name;         // as --input-format takes it
  std::string description;  // one line for --help
  // The file name endings auto-detection takes for it (".gr"; none for the contest's).
  std::vector<std::string> extensions;
  // Parses a whole text; `note` gets a line worth telling the user ("" for none), e.g. how ids
  // map to rows.
  EdgeList (*parse)(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
                    std::string* note);
  // Whether the text (after blank lines; a byte order mark is skipped before) starts with this
  // format's own signature: a banner, a comment of its kind. Never a guess from numbers: a
  // broken contest edge list must be refused as one, not read as another graph.
  bool (*looks_like)(std::string_view text);
};

// Every format; the first is the default of a file with no telling extension or content.
const std::vector<const GraphFormat*>& graph_formats();
// nullptr when no format has this name.
const GraphFormat* parse_graph_format(std::string_view name);
// "auto, edges (...), dimacs (...), ...": for --input-format's help.
std::string graph_formats_help();
// The names --input-format takes: "auto" and every format's.
std::vector<std::string> graph_format_names();

// The formats, one file each.
const GraphFormat& edges_graph_format();   // "V E", then E lines "src dst w" (0-based)
const GraphFormat& dimacs_graph_format();  // c comments, "p sp V E", "a u v w" (1-based)
const GraphFormat& snap_graph_format();    // # or % comments, "u v [w | {dict}]", ids sorted
const GraphFormat& mtx_graph_format();     // %%MatrixMarket coordinate, 1-based

// gzip (by its magic bytes 1f 8b): the text it holds, every member; else `bytes` itself. `note`
// gets "SOURCE: gzip, 1.0 MB unpacked to 4.2 MB" when it unpacked. InputError when the stream is
// damaged or unpacks to more than max_bytes (0: the memory this process may still take).
std::string gunzip_if_gzip(std::string bytes, std::string_view source, uint64_t max_bytes,
                           std::string* note);

// The format `requested` names, or for "auto" the one the path's extension (after .gz) or else
// the text's signature tells, and else the contest edge list; `why` gets one line saying what
// auto chose and why ("" when the format was named). std::invalid_argument for an unknown name.
const GraphFormat& choose_graph_format(std::string_view requested, std::string_view path,
                                       std::string_view text, std::string* why);

// `text` parsed as `format`; then `why` (what auto chose, "" for none) and the reader's note go to
// `say`, except the line of the contest edge list auto fell back on (the usual case goes without
// a word). A fault of a format auto chose says which format was read and how to name another.
EdgeList parse_graph(const GraphFormat& format, const std::string& why, std::string_view text,
                     std::string_view source, uint64_t max_matrix_bytes,
                     const std::function<void(const std::string&)>& say);

// A whole graph file ("-": standard input) read, unpacked, its format chosen and parsed; each
// line worth telling the user (what auto chose, gzip, remapped ids) goes to `say`.
EdgeList read_graph(const std::string& path, std::string_view requested, uint64_t max_matrix_bytes,
                    const std::function<void(const std::string&)>& say);

}  // namespace apsp
