// Small shared pieces of the command-line programs.
#pragma once

#include <string>

namespace apsp {

// A progress line on stderr, rewritten in place; only when stderr is a terminal, so logs and
// pipes stay clean. progress_done() clears it before normal output.
void progress(const std::string& line);
void progress_done();

// The current UTC time, ISO 8601 ("2026-11-22T12:44:03Z"), for results and database entries.
std::string now_iso();

}  // namespace apsp
