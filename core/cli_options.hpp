// Integer options for the programs' command lines (CLI11), read by parse_integer
// (core/integer.hpp) instead of CLI11's own conversion, which takes "+5" and " 5" and wrapped
// "--seed -1" to 18446744073709551615. A fault is CLI11's usage error: one line, exit 2.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/integer.hpp"

namespace apsp {

// Parses the command line. Returns the exit code to stop with, or nothing to go on: --help
// printed (0), or a usage error as one line "PROGRAM: what (see --help)", unlike CLI11's own (2).
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv,
                                             const char* program) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "{}: {} (see --help)\n", program, e.what());
    return kExitRefused;
  }
  return std::nullopt;
}

// The check of an option naming a file to write: "" is a usage error (exit 2), never taken for
// "not given" (an empty -o would otherwise write to standard output).
inline CLI::Validator file_to_write() {
  return CLI::Validator(
      [](const std::string& s) { return s.empty() ? std::string("an empty file name") : ""; }, "");
}

template <class T>
CLI::Option* add_integer_option(CLI::App& app, const std::string& name, T& value, T lo, T hi,
                                const std::string& help) {
  return app
      .add_option_function<std::string>(
          name,
          [&value, lo, hi, name](const std::string& text) {
            try {
              value = parse_integer<T>(text, lo, hi);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError(name, e.what());
            }
          },
          help)
      ->type_name(std::is_unsigned_v<T> ? "UINT" : "INT")
      ->default_str(std::to_string(value));
}

// --gpus (its help: what the counts mean to this program) and --transport, the same in apsp_bench
// and apsp: how the ranks of a multi-GPU run talk, one of `transports` (each with a name and a
// one-line help: the registered ones, harness/multigpu/transport.hpp: transports()), into
// `transport`. --ranks-on-one-gpu stays as the name it had for --transport single-device: the
// ranks as separate buffers on one GPU, which checks the distributed schedule on a one-GPU machine.
template <class Choices>
void add_gpu_options(CLI::App& app, std::string& gpus, std::string& transport,
                     const Choices& transports, const std::string& gpus_help) {
  app.add_option("--gpus", gpus, gpus_help);
  std::string help = "with --gpus: how the ranks exchange the pivot panels;";
  std::vector<std::string> names;
  for (const auto& t : transports) {
    help += " " + t.name + ": " + t.help + ";";
    names.push_back(t.name);
  }
  help.back() = '.';
  CLI::Option* chosen = app.add_option("--transport", transport, help)->check(CLI::IsMember(names));
  app.add_flag_callback(
         "--ranks-on-one-gpu", [&transport] { transport = "single-device"; },
         "with --gpus: the same as --transport single-device (every rank as separate buffers on "
         "one GPU)")
      ->excludes(chosen);
}

}  // namespace apsp
