// Which macros of a user kernel file are its parameters, read from the source text: a macro the
// file defines with a tunable default, `#ifndef NAME` / `#define NAME <positive integer>` /
// `#endif` (or `#if !defined(NAME)`; `#else` may stand for the `#endif`, and blank or comment
// lines may come between), besides the contract's TILE, BATCH2 and BATCH3. An include guard,
// whose #define is followed by code, is none. Comments,
// string and character literals and line continuations are handled as the preprocessor would,
// so a commented-out guard is no parameter. Host code only.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace apsp::harness {

struct KernelMacros {
  std::vector<std::string> tunable;  // guarded, with a positive integer default; sorted
  std::set<std::string> defined;     // every name some #define of the file defines
};

// The source as the preprocessor's directives see it: backslash-newline continuations joined and
// each comment replaced by one space; string and character literals left as they are, but a raw
// string literal's R"(...)" part made "" (it may span lines that look like directives).
std::string strip_comments(const std::string& text);

KernelMacros scan_kernel_macros(const std::string& text);

// TILE, BATCH2, BATCH3: parameters however the file defines them (a fixed one takes only its
// own value: compile_kernel compares the value asked with the value compiled).
bool is_contract_param(const std::string& name);

// "" when `name` is a parameter of the file: a contract parameter it defines, or a tunable macro.
// Otherwise why not, one line without the file's name: it has no such macro, or fixes it.
std::string macro_problem(const KernelMacros& m, const std::string& name);

}  // namespace apsp::harness
