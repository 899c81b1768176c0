#include "harness/cli/program.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/cli_options.hpp"
#include "core/console.hpp"

namespace apsp::harness {

namespace {

int body_exit_code(const Program& program, const CLI::App& app,
                   const std::function<int(const CLI::App&)>& body) {
  try {
    return body(app);
  } catch (const ProgramExit& e) {
    if (e.log) fmt::print(stderr, "{}\n", *e.log);
    fmt::print(stderr, "{}: {}\n", program.name, e.what());
    return e.code;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", program.name, failure_text(e));
    return kExitFailed;
  }
}

}  // namespace

int run_program(const Program& program, int argc, char** argv,
                const std::function<void(CLI::App&)>& add_options,
                const std::function<int(const CLI::App&)>& body) {
  if (program.line_buffered) std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int rc = kExitFailed;
  try {
    CLI::App app{program.about};
    add_options(app);
    const std::optional<int> stop = parse_command_line(app, argc, argv, program.name.c_str());
    rc = stop ? *stop : body_exit_code(program, app, body);
  } catch (const std::exception& e) {  // the options' own set-up, or --help's print
    fmt::print(stderr, "{}: {}\n", program.name, failure_text(e));
  }
  return finish_standard_output(program.name.c_str(), rc);
}

}  // namespace apsp::harness
