#include "core/graph_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "core/console.hpp"

namespace apsp {

namespace {

// ' ', '\t' and '\r' separate tokens ('\n' ends the line): one table look-up a byte.
constexpr std::array<bool, 256> kSpace = [] {
  std::array<bool, 256> t{};
  t[' '] = t['\t'] = t['\r'] = true;
  return t;
}();
bool is_space(char c) { return kSpace[static_cast<unsigned char>(c)]; }

// A real of integral value ("3.0", "3.000000000000000e+00", as SciPy and NetworkX write them);
// false when tok is no real at all.
bool parse_real(std::string_view tok, double& v) {
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return ec == std::errc() && ptr == tok.data() + tok.size() && std::isfinite(v);
}

}  // namespace

std::string shown(std::string_view tok) {
  return tok.size() > 24 ? escaped(tok.substr(0, 21)) + "..." : escaped(tok);
}

std::string_view skip_byte_order_mark(std::string_view text) {
  return text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text;
}

GraphText::GraphText(std::string_view text, std::string_view source, uint64_t max_matrix_bytes)
    : text_(skip_byte_order_mark(text)), source_(source), max_matrix_bytes_(max_matrix_bytes) {}

bool GraphText::next_line(std::string_view comments) {
  while (next_ < text_.size()) {
    ++line_;
    line_start_ = next_;
    const void* nl = std::memchr(text_.data() + next_, '\n', text_.size() - next_);
    const size_t end =
        nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) : text_.size();
    next_ = nl ? end + 1 : end;
    rest_ = text_.substr(line_start_, end - line_start_);
    column_ = 1;
    size_t i = 0;
    while (i < rest_.size() && is_space(rest_[i])) ++i;
    if (i < rest_.size() && comments.find(rest_[i]) == std::string_view::npos) return true;
  }
  rest_ = {};
  return false;
}

std::string_view GraphText::token() {
  const char* begin = rest_.data();
  const char* const end = begin + rest_.size();
  while (begin < end && is_space(*begin)) ++begin;
  const char* stop = begin;
  while (stop < end && !is_space(*stop)) ++stop;
  column_ = static_cast<int64_t>(begin - (text_.data() + line_start_)) + 1;
  rest_ = std::string_view(stop, static_cast<size_t>(end - stop));
  return std::string_view(begin, static_cast<size_t>(stop - begin));
}

bool GraphText::at_end_of_line() {
  while (!rest_.empty() && is_space(rest_.front())) rest_.remove_prefix(1);
  return rest_.empty();
}

std::string_view GraphText::rest_of_line() {
  at_end_of_line();
  return rest_;
}

std::string_view GraphText::take(size_t n) {
  at_end_of_line();
  n = std::min(n, rest_.size());
  column_ = static_cast<int64_t>(rest_.data() - (text_.data() + line_start_)) + 1;
  const std::string_view tok = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return tok;
}

int64_t GraphText::integer(std::string_view what) {
  const std::string_view tok = token();
  if (tok.empty()) fail(fmt::format("missing {}: the line ends", what));
  return integer_of(tok, what);
}

int64_t GraphText::integer_beyond_18_digits(std::string_view tok, std::string_view what) const {
  int64_t v = 0;
  const std::string field = what.empty() ? "" : fmt::format("{}: ", what);
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(fmt::format("{}integer out of range: '{}'", field, shown(tok)));
  if (ec != std::errc() || ptr != tok.data() + tok.size())
    fail(fmt::format("{}expected an integer, found '{}'", field, shown(tok)));
  return v;
}

int32_t GraphText::weight() {
  const std::string_view tok = token();
  if (tok.empty()) fail("missing the weight: the line ends");
  return weight_of(tok);
}

int32_t GraphText::weight_of(std::string_view tok) const {
  int64_t w = 0;
  double real = 0;
  const auto integral = [&] {
    if (small_integer(tok, w)) return true;
    auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), w);
    return ec == std::errc() && ptr == tok.data() + tok.size();
  };
  if (!integral()) {
    if (!parse_real(tok, real)) fail(fmt::format("expected a weight, found '{}'", shown(tok)));
    if (real != std::floor(real))
      fail(fmt::format("weight {} is not an integer: weights are integers", shown(tok)));
    w = real < 0 ? -1 : real > kMaxWeight ? kMaxWeight + 1 : static_cast<int64_t>(real);
  }
  if (w < 0 || w > kMaxWeight) fail(weight_fault(w, shown(tok)));  // shown only for a fault
  return static_cast<int32_t>(w);
}

int32_t GraphText::vertex(int64_t V, int base, std::string_view what) {
  const int64_t v = integer(what);
  if (v < base || v - base >= V)
    fail(fmt::format("{} {} out of range [{}, {}]", what, v, base, V - 1 + base));
  return static_cast<int32_t>(v - base);
}

void GraphText::end_of_line(std::string_view expected) {
  if (at_end_of_line()) return;
  const std::string_view tok = token();
  fail(fmt::format("unexpected '{}': expected {}", shown(tok), expected));
}

void GraphText::check_vertex_count(int64_t V) {
  if (!limit_known_) limit_ = matrix_limit(max_matrix_bytes_), limit_known_ = true;
  if (const std::string fault = vertex_count_fault(V, limit_); !fault.empty()) fail(fault);
}

void GraphText::fail(const std::string& what) const { fail_at(line_, column_, what); }

void GraphText::fail_at(int64_t line, int64_t column, const std::string& what) const {
  throw InputError(fmt::format("{}:{}:{}: {}", source_, line, column, what));
}

void GraphText::fail_at_end(const std::string& what) const {
  fail_at(line_ + (text_.empty() || text_.back() == '\n' ? 1 : 0), 1, what);
}

}  // namespace apsp
