// The scaffold every program runs in: its command line (CLI11), --help, the one line
// "PROGRAM: what" on stderr for whatever stops it, the exit codes (core/console.hpp) and the
// last check of standard output. A program brings its options and its body; a step of the body
// that ends the program throws ProgramExit. Host only: programs that link no CUDA use it too.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/console.hpp"

namespace apsp::harness {

// Ends the program with `code` and the line "PROGRAM: what()" on stderr, after `log` (a
// compiler's output, on lines of its own) where there is one.
struct ProgramExit : std::runtime_error {
  ProgramExit(int code, const std::string& line, std::optional<std::string> log = std::nullopt)
      : std::runtime_error(line), code(code), log(std::move(log)) {}
  int code;
  std::optional<std::string> log;
};

// Runs `step`; any exception it throws, but a ProgramExit, ends the program with `code` and the
// exception's one line (failure_text): a step that refuses (2) or fails (1) as a whole.
template <class Step>
decltype(auto) exit_if_thrown(int code, Step&& step) {
  try {
    return std::forward<Step>(step)();
  } catch (const ProgramExit&) {
    throw;
  } catch (const std::exception& e) {
    throw ProgramExit(code, failure_text(e));
  }
}

struct Program {
  std::string name;            // the start of each of its lines on stderr
  std::string about;           // --help's text above the options
  bool line_buffered = false;  // stdout line by line into a file or pipe too (see run_program)
};

// The program's main(): a CLI::App of `program.about` with the options `add_options` declares,
// the command line parsed (--help: exit 0; a usage error: "NAME: what (see --help)", exit 2),
// then `body`, whose return is the exit code. A ProgramExit thrown from the body ends it with its
// code and line; any other exception with "NAME: failure_text" and exit 1. Standard output is
// checked last (finish_standard_output). `line_buffered` makes every line printed survive a stop
// (SIGINT, SIGTERM) of a program that prints as it goes.
int run_program(const Program& program, int argc, char** argv,
                const std::function<void(CLI::App&)>& add_options,
                const std::function<int(const CLI::App&)>& body);

}  // namespace apsp::harness
