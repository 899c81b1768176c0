// A long run stopped by SIGINT (Ctrl-C) or SIGTERM (`timeout`, a batch system's time limit).
// apsp_bench and the tuner keep what they finish on disk as they go (each file rewritten
// atomically after every run, stdout line-buffered), so stopping needs no clean-up of their
// own: the handler removes the atomic files' temporaries (core/atomic_file.hpp), writes one
// line to stderr and exits 128 + the signal number (130, 143) at once. It calls only
// async-signal-safe functions, so it cannot block: not in the middle of a GPU solve, not with
// the multi-GPU engine's threads running, not while another thread holds a lock.
#pragma once

#include <string>

namespace apsp {

// What a program stopped by SIGINT or SIGTERM exits with.
inline constexpr int kExitSigint = 130, kExitSigterm = 143;

// "apsp_bench: interrupted by SIGTERM; the finished runs are in r.json": the line written on
// `signal` (SIGINT or SIGTERM), with its newline.
std::string interrupted_line(const std::string& program, int signal, const std::string& kept);

// Installs the handler for SIGINT and SIGTERM, its lines made now (interrupted_line). A signal
// ignored when the program started stays ignored: a shell ignores SIGINT in its background
// jobs, and nohup-like wrappers mean it. Call again to change what the line says was kept.
void exit_on_interrupt(const std::string& program, const std::string& kept);

}  // namespace apsp
