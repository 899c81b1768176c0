// harness/solve/request.hpp: the request's fields marked in messages, and named when shown.
#include "harness/solve/request.hpp"

#include <algorithm>

namespace apsp::harness {

namespace {

// A mention is the field's name between these two bytes, which no message of the solver holds
// otherwise (the paths and ids it quotes are the user's, so a stray one is left as it is: only a
// field-like name, lower case and underscores, between the two counts).
constexpr char kOpen = '\x1e', kClose = '\x1f';

bool field_like(std::string_view name) {
  return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || c == '_';
  });
}

}  // namespace

std::string mention(std::string_view field) {
  std::string m;
  m += kOpen;
  m += field;
  m += kClose;
  return m;
}

std::string with_field_names(std::string_view marked, const FieldNames& name) {
  std::string out;
  size_t i = 0;
  while (i < marked.size()) {
    const size_t open = marked.find(kOpen, i);
    const size_t close = open == std::string_view::npos ? open : marked.find(kClose, open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view field = marked.substr(open + 1, close - open - 1);
    if (!field_like(field)) {  // not a mention: the byte is the text's
      out.append(marked.substr(i, open + 1 - i));
      i = open + 1;
      continue;
    }
    out.append(marked.substr(i, open - i));
    out += name ? name(field) : std::string(field);
    i = close + 1;
  }
  out.append(marked.substr(i));
  return out;
}

}  // namespace apsp::harness
