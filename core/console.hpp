// Small shared pieces of the command-line programs.
#pragma once

#include <string>
#include <string_view>

namespace apsp {

// A progress line on stderr, rewritten in place; only when stderr is a terminal, so logs and
// pipes stay clean. progress_done() clears it before normal output.
void progress(const std::string& line);
void progress_done();

// `bytes` fit for a one-line message: a NUL as \0, other control and non-ASCII bytes as \xHH,
// so that a NUL cannot cut the message, a newline cannot break it and an invisible byte shows.
std::string escaped(std::string_view bytes);

// The current UTC time, ISO 8601 ("2026-11-22T12:44:03Z"), for results and database entries.
std::string now_iso();

}  // namespace apsp
