#include "harness/userkernel/kernel_macros.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace apsp::harness {

namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string join_continuations(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (text[i] == '\\' && i + 2 < text.size() && text[i + 1] == '\r' &&
               text[i + 2] == '\n') {
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The end (one past) of the literal that opens at s[i] ('"' or '\''): its closing quote, or the
// end of the line for an unterminated one.
size_t literal_end(const std::string& s, size_t i) {
  const char quote = s[i];
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == quote) {
      return j + 1;
    } else if (s[j] == '\n') {
      return j;
    }
  }
  return s.size();
}

// The end (one past) of the raw string R"delim(...)delim" whose quote is at s[i].
size_t raw_literal_end(const std::string& s, size_t i) {
  const size_t open = s.find('(', i);
  if (open == std::string::npos) return s.size();
  const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
  const size_t at = s.find(close, open);
  return at == std::string::npos ? s.size() : at + close.size();
}

// R"( opens a raw string where the R is a prefix (R, LR, uR, UR, u8R), not an identifier's end.
bool opens_raw_literal(const std::string& s, size_t i) {
  if (i == 0 || s[i - 1] != 'R') return false;
  size_t start = i - 1;
  while (start > 0 && identifier_char(s[start - 1])) --start;
  const std::string prefix = s.substr(start, i - 1 - start);
  return prefix.empty() || prefix == "L" || prefix == "u" || prefix == "U" || prefix == "u8";
}

// The directive on a line: its name and the rest, trimmed; nothing when the line is none.
bool directive(const std::string& line, std::string& name, std::string& rest) {
  static const std::regex form(R"(^\s*#\s*([A-Za-z_]+)\s*(.*?)\s*$)");
  std::smatch m;
  if (!std::regex_match(line, m, form)) return false;
  name = m[1].str();
  rest = m[2].str();
  return true;
}

// The name an #ifndef NAME or #if !defined(NAME) tests; "" for any other line.
std::string guarded_name(const std::string& name, const std::string& rest) {
  static const std::regex ifndef(R"(^([A-Za-z_]\w*)$)");
  static const std::regex not_defined(
      R"(^!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))$)");
  std::smatch m;
  if (name == "ifndef" && std::regex_match(rest, m, ifndef)) return m[1].str();
  if (name == "if" && std::regex_match(rest, m, not_defined))
    return m[1].matched ? m[1].str() : m[2].str();
  return "";
}

// Whether a #define's value is a positive decimal integer that fits an int, in any parentheses.
bool positive_integer(std::string value) {
  static const std::regex parenthesised(R"(^\(\s*(.*?)\s*\)$)");
  std::smatch m;
  while (std::regex_match(value, m, parenthesised)) value = m[1].str();
  static const std::regex integer("^[1-9][0-9]{0,9}$");
  return std::regex_match(value, integer) && std::strtoll(value.c_str(), nullptr, 10) <= INT_MAX;
}

}  // namespace

std::string strip_comments(const std::string& text) {
  const std::string s = join_continuations(text);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      i = std::min(s.find('\n', i), s.size());
      out += ' ';
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      out += ' ';
    } else if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !identifier_char(s[i - 1])))) {
      // A quote after a digit or a letter is a digit separator (1'000), not a literal. A raw
      // string may span lines that look like directives: it becomes "".
      if (s[i] == '"' && opens_raw_literal(s, i)) {
        out += "\"\"";
        i = raw_literal_end(s, i);
        continue;
      }
      const size_t end = literal_end(s, i);
      out.append(s, i, end - i);
      i = end;
    } else {
      out += s[i++];
    }
  }
  return out;
}

KernelMacros scan_kernel_macros(const std::string& text) {
  static const std::regex define(R"(^([A-Za-z_]\w*)(\(?)\s*(.*)$)");
  KernelMacros out;
  std::stringstream lines(strip_comments(text));
  std::string guarded;  // the name the previous directive tested for being undefined
  std::string defined;  // the guarded name the previous directive defined to a positive integer
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r\f\v") == std::string::npos) continue;
    std::string name, rest;
    std::smatch m;
    const bool is_directive = directive(line, name, rest);
    // The guard closes right after the #define: a default, not an include guard around code.
    if (!defined.empty() && is_directive && (name == "endif" || name == "else" || name == "elif"))
      out.tunable.push_back(defined);
    defined.clear();
    if (is_directive && name == "define" && std::regex_match(rest, m, define)) {
      out.defined.insert(m[1].str());
      if (m[1].str() == guarded && m[2].length() == 0 && positive_integer(m[3].str()))
        defined = m[1].str();
    }
    guarded = is_directive ? guarded_name(name, rest) : "";
  }
  std::sort(out.tunable.begin(), out.tunable.end());
  out.tunable.erase(std::unique(out.tunable.begin(), out.tunable.end()), out.tunable.end());
  return out;
}

bool is_contract_param(const std::string& name) {
  return name == "TILE" || name == "BATCH2" || name == "BATCH3";
}

std::string macro_problem(const KernelMacros& m, const std::string& name) {
  if (std::binary_search(m.tunable.begin(), m.tunable.end(), name)) return "";
  if (!m.defined.count(name)) return fmt::format("the file has no macro {}", name);
  if (is_contract_param(name)) return "";
  return fmt::format(
      "the file fixes {0} (a bare #define, or a default that is not a positive integer); "
      "define it as #ifndef {0} / #define {0} VALUE / #endif so that it can be set",
      name);
}

}  // namespace apsp::harness
