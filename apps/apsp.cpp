// apsp: the contest-format solver. Reads an edge list (README, "Edge-list format"), solves all
// pairs on the GPU (or on the CPU reference when there is none, or with --variant cpu), writes
// the V x V matrix. The variant and config come from the harness (harness/tune/solver_choice.hpp).
// --paths and --path add the next hops after the solve (harness/solve/paths.hpp), on the device that
// solved.
// Built for speed at large V, where the I/O dominates: whole-file read and from_chars parsing,
// the matrix built, solved and checked on the device (harness/solve/device_solve.hpp) and copied down
// in bands, to_chars output formatted by all cores while the previous batch is written. Exit codes (core/console.hpp): 0 done, 1 the solve or a write
// failed (nothing written), 2 refused before the solve (the command line, the input, or a graph
// too large for this machine), 3 a GPU variant asked for and no device.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <future>
#include <memory>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/edge_list.hpp"
#include "core/integer.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "core/tuning_db.hpp"
#include "harness/verify/certificate.hpp"
#include "harness/solve/device_solve.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/solve/paths.hpp"
#include "harness/plan/plan.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/solver_choice.hpp"
#include "harness/userkernel/user_kernel.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {


using Clock = std::chrono::steady_clock;


// V from the header line, to warm the solve up while the file is parsed; 0 when it does not look
// valid (the parser then reports the fault).
int peek_vertex_count(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos) return 0;
  int v = 0;
  const auto [p, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
  return ec == std::errc() && v > 0 && v <= harness::kMaxN ? v : 0;
}
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Timing {
  std::vector<std::pair<std::string, double>> steps;  // name, ms
  void add(std::string name, double ms) { steps.emplace_back(std::move(name), ms); }
};

struct Options {
  std::string input, output, variant = "auto", config, db_path, kernel, format = "text", paths;
  std::vector<std::string> path_text;      // --path S T, as given
  std::optional<std::pair<int, int>> path;  // read from it
  bool timing = false, no_warm_up = false, verify = false;
  int threads = 0;
  std::string gpus = "1";         // --gpus: one count, or all
  std::string transport = harness::kDefaultTransport;  // --transport, --ranks-on-one-gpu
  // Standard output carries one thing: the path line (--path), the next hops (--paths -), or
  // else the distances. The distances are written unless another takes standard output and
  // -o names no file.
  bool writes_distances() const { return !output.empty() || (path_text.empty() && paths != "-"); }
};

// --path's vertices, and who has standard output; throws std::invalid_argument (one line).
void check_path_options(Options& o) {
  if (!o.path_text.empty()) {
    const auto vertex = [&](const std::string& text) {
      try {
        return parse_integer<int>(text, 0, INT32_MAX);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("--path: {}", e.what()));
      }
    };
    o.path = {vertex(o.path_text[0]), vertex(o.path_text[1])};
    if (o.output == "-") throw std::invalid_argument("--path prints on standard output: give -o a file for the distances");
  }
  if (o.paths == "-" && (o.path || o.output == "-"))
    throw std::invalid_argument(fmt::format("--paths - and {} both write standard output", o.path ? "--path" : "-o -"));
  if (!o.paths.empty()) check_output_path(o.paths, "--paths", /*dash_is_stdout=*/true);
}

// What the paths options ask for, and what the solve gave: the whole next-hop matrix (--paths,
// and always on the CPU, which needs it to choose), or only column t (--path on the GPU).
struct NextHops {
  bool want_matrix = false;
  std::optional<int> want_column;
  std::unique_ptr<int32_t[]> matrix;  // n x n
  std::vector<int32_t> column;        // next[k][t] for every k
  harness::OutEdges edges;  // built once the graph is read, when wanted
  bool wanted() const { return want_matrix || want_column; }
  std::vector<int32_t> column_of(int n, int t) const {
    if (!matrix) return column;
    std::vector<int32_t> c(n);
    for (int k = 0; k < n; ++k) c[k] = matrix[static_cast<size_t>(k) * n + t];
    return c;
  }
};

// Host memory for `count` more n x n matrices, checked before they are allocated; throws
// std::runtime_error (one line) when it is not there.
void check_host_matrices(int n, int count, const std::string& what) {
  const uint64_t need = count * matrix_bytes(n);
  const MemoryLimit left = available_memory();
  if (need > left.bytes)
    throw std::runtime_error(fmt::format("V = {}: {} need {} ({} bytes), more than the {} available ({})", n, what,
                                         human_bytes(need), need, human_bytes(left.bytes), left.source));
}

// Next hops on the device from the solved d, still there: all of them into host memory, or one
// column.
void next_hops_on_device(const int32_t* d, cudaStream_t stream, NextHops& hops, Timing& t) {
  const auto t0 = Clock::now();
  const int n = hops.edges.n;
  DeviceBuffer<int32_t> next(static_cast<size_t>(n) * n);
  harness::next_hops_device(d, next.get(), hops.edges, stream);
  if (hops.want_matrix) {
    check_host_matrices(n, 1, "the next hops");
    const Doing doing(fmt::format("allocating the {0} x {0} next-hop matrix", n), matrix_bytes(n));
    hops.matrix = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(n) * n);
    APSP_CUDA_CHECK(cudaMemcpy(hops.matrix.get(), next.get(), matrix_bytes(n), cudaMemcpyDeviceToHost));
  } else {
    hops.column.resize(n);
    const size_t row = static_cast<size_t>(n) * sizeof(int32_t);
    APSP_CUDA_CHECK(cudaMemcpy2D(hops.column.data(), sizeof(int32_t), next.get() + *hops.want_column, row,
                                 sizeof(int32_t), n, cudaMemcpyDeviceToHost));
  }
  t.add("next hops (GPU)", ms_since(t0));
}

// The variant asked for by --variant/--config; nullopt for auto and cpu. Throws
// std::invalid_argument (one line) when they are wrong or disagree.
std::optional<NamedConfig> asked_variant(Options& o) {
  if (!o.config.empty()) {
    NamedConfig c = parse_config(o.config);
    if (o.variant != "auto" && o.variant != c.variant->name)
      throw std::invalid_argument(fmt::format("--variant {} and --config {} disagree", o.variant, o.config));
    o.variant = c.variant->name;
    return c;
  }
  if (o.variant != "auto" && o.variant != "cpu") return parse_config(o.variant);
  return std::nullopt;
}

// The variant and config for V = n on `dev`, asked or auto (sm90_u16 where the largest edge
// weight `max_weight` lets 16 bits solve the graph exactly, else sm90; --db's pick where it beat
// the default), and why. Prints nothing but the database's note, and that only when `say_note`.
std::pair<NamedConfig, std::string> pick(const Options& o, const std::optional<NamedConfig>& asked,
                                         const DeviceInfo& dev, int n, int64_t max_weight, bool say_note) {
  NamedConfig chosen = asked.value_or(NamedConfig{});
  if (asked && o.config.empty() && o.variant.find('[') == std::string::npos) {  // a bare name
    const harness::DefaultChoice d = harness::default_config(*chosen.variant, n, &dev);
    chosen.config = d.config;
    return {chosen, d.source};
  }
  if (asked) return {chosen, "as asked"};
  std::optional<TuningDb> db;
  if (!o.db_path.empty()) {
    std::string note;
    db = TuningDb::load(o.db_path, &note);
    if (!note.empty() && say_note) fmt::print(stderr, "apsp: {}\n", note);
  }
  const harness::SolverChoice c = harness::choose_solver(dev, n, max_weight, db ? &*db : nullptr, o.db_path);
  return {c.chosen, c.why};
}

// The variant to run on `dev` (asked, or auto), checked; throws std::runtime_error (one line)
// when it does not solve this graph exactly (Variant::admits: sm90_u16 asked for a graph whose
// distances need more than 16 bits), cannot run at this size, the device lacks the memory, or
// the --db file cannot be read (the caller exits 2).
// `beside`: device memory needed beside the solve's buffer at its peak (the edges while the
// matrix is built, the certificate, the next hops with a compact copy of the distances).
NamedConfig choose(const Options& o, const std::optional<NamedConfig>& asked, const DeviceInfo& dev, int n,
                   int64_t max_weight, const std::function<uint64_t(int pitch)>& beside) {
  const auto [chosen, why] = pick(o, asked, dev, n, max_weight, /*say_note=*/true);
  const Variant& v = *chosen.variant;
  if (const std::string reason = admission_problem(v, n, max_weight); !reason.empty())
    throw std::runtime_error(fmt::format("V = {}: {}", n, reason));
  if (const std::string reason = v.check(chosen.config, n, dev); !reason.empty())
    throw std::runtime_error(fmt::format("{} cannot run at V = {}: {}", config_name(v.name, chosen.config), n, reason));
  // The solve's buffer (in its layout: sm90's is padded to its tile) and, at the peak, the most
  // of what comes beside it and what the solve allocates itself (sm90_u16's 16-bit copy), which
  // are never held at once.
  const uint64_t solve = buffer_elems(v, chosen.config, n) * sizeof(int32_t);
  const uint64_t peak = solve + std::max(beside(row_pitch(v, chosen.config, n)), scratch_bytes(v, chosen.config, n));
  if (const uint64_t need = peak, free = device_free_bytes(); need > free)
    throw std::runtime_error(fmt::format("V = {} needs {} on {}, which has {} free", n, human_bytes(need), dev.name,
                                         human_bytes(free)));
  fmt::print(stderr, "apsp: solving with {} on {} ({})\n", config_name(v.name, chosen.config), dev.name, why);
  return chosen;
}

// Runs the solve picked for V once on a small matrix, while the input is parsed: its kernels
// load (lazy module loading), their attributes are set, its streams and memory pool are made,
// and the GPU wakes, so that the timed solve costs what the bench measures (a fresh process's
// first solve took 94 ms at V = 10000 against the bench's 70 ms). The weights are not known yet:
// where auto may take either precision at this V (16 bits if the weights are small enough), both
// are warmed. Errors are left to the solve.
void warm_up(const Options& o, const std::optional<NamedConfig>& asked, int v) {
  try {
    const DeviceInfo dev = query_device();
    const NamedConfig wide = pick(o, asked, dev, v, kInf, /*say_note=*/false).first;
    const NamedConfig narrow = pick(o, asked, dev, v, 0, /*say_note=*/false).first;
    const int n = std::min(v, 3 * 128 + 1);  // a few rounds of the largest tile, padded
    std::vector<NamedConfig> solves{narrow};
    if (wide.variant != narrow.variant || wide.config != narrow.config) solves.push_back(wide);
    for (const NamedConfig& c : solves) {
      if (c.variant->target != Target::kDevice || !c.variant->check(c.config, n, dev).empty()) continue;
      const DistMatrix empty(n);  // every entry kInf but the diagonal: any variant admits it
      DeviceBuffer<int32_t> d(buffer_elems(*c.variant, c.config, n));
      CudaStream stream;
      harness::put_matrix(d.get(), row_pitch(*c.variant, c.config, n), empty.data(), n, cudaMemcpyHostToDevice,
                          stream.get());
      c.variant->run(d.get(), n, c.config, stream.get(), nullptr);
      stream.synchronize();
    }
  } catch (const std::exception&) {
  }
}

// The input read and parsed; meanwhile, for a GPU solve, the CUDA context is made and the
// chosen solve warmed up in the background (a few hundred milliseconds at V = 10000).
struct Input {
  EdgeList graph;
  size_t bytes = 0;
  std::shared_future<void> context;  // shared: the warm-up's task holds it by value
  std::future<void> warmed;          // warm_up(), waited for before the timed solve
};

Input read_input(const Options& o, const std::optional<NamedConfig>& asked, bool device, Timing& t) {
  Input in;
  if (device) in.context = std::async(std::launch::async, [] { APSP_CUDA_CHECK(cudaFree(nullptr)); }).share();
  auto t0 = Clock::now();
  const std::string text = [&] {
    const Doing doing(fmt::format("reading {}", o.input == "-" ? "standard input" : o.input));
    return read_whole_input(o.input);
  }();
  in.bytes = text.size();
  t.add("read", ms_since(t0));
  if (const int v = peek_vertex_count(text); device && v > 0 && !o.no_warm_up) {
    in.warmed = std::async(std::launch::async, [ctx = in.context, &o, &asked, v] {
      ctx.wait();
      warm_up(o, asked, v);
    });
  }
  t0 = Clock::now();
  in.graph = parse_edge_list(text, o.input == "-" ? "<stdin>" : o.input);
  t.add("parse", ms_since(t0));
  return in;
}

// The matrix solved on the GPU with `chosen`, kept there (harness/solve/device_solve.hpp); then the
// next hops asked for.
std::unique_ptr<harness::DeviceSolve> solve_on_device(Input& in, const NamedConfig& chosen, NextHops& hops,
                                                      Timing& t) {
  auto solve = std::make_unique<harness::DeviceSolve>(in.graph, *chosen.variant, chosen.config);
  if (in.warmed.valid()) {
    const auto t0 = Clock::now();
    in.warmed.get();
    t.add("wait: warm-up", ms_since(t0));
  }
  const harness::DeviceSolve::Times times = solve->run();
  t.add("build matrix (GPU)", times.build_ms);
  t.add("solve", times.solve_ms);
  if (hops.wanted()) {
    const CudaStream stream;
    next_hops_on_device(solve->compact(), stream.get(), hops, t);
  }
  return solve;
}

// Where a matrix to write comes from: host memory, or bands of rows copied down from a device.
struct MatrixSource {
  int n = 0, band_rows = 0;
  RowBand band;
  static MatrixSource of(MatrixView m) {
    return {m.n, std::max(m.n, 1), [m](int first, int) { return m.row(first); }};
  }
  static MatrixSource of(harness::DeviceSolve& s) {
    return {s.n(), s.band_rows(), [&s](int first, int count) { return s.band(first, count); }};
  }
};

// A matrix in --format to `path` ("" or "-": standard output); the bytes written.
uint64_t write_output(const Options& o, const std::string& path, const MatrixSource& m, const std::string& what) {
  ProgressMeter meter("writing " + what);
  const auto rows = [&](int written) { meter.update(written, m.n); };
  const MatrixFormat format = *parse_matrix_format(o.format);
  if (path.empty() || path == "-") return write_matrix_bands(m.n, m.band_rows, m.band, STDOUT_FILENO, format, o.threads, rows);
  AtomicFile out(path);
  const uint64_t bytes = write_matrix_bands(m.n, m.band_rows, m.band, out.fd(), format, o.threads, rows);
  out.commit(/*sync=*/false);  // atomic against a crash of this program, not of the machine
  return bytes;
}

// Next hops on the CPU, from the solved d (the whole matrix: the rounds read other rows).
void next_hops_on_host(MatrixView d, NextHops& hops, int threads, Timing& t) {
  const auto t0 = Clock::now();
  const Doing doing(fmt::format("allocating the {0} x {0} next-hop matrix", d.n), matrix_bytes(d.n));
  hops.matrix = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(d.n) * d.n);
  harness::next_hops_host(d, hops.edges, hops.matrix.get(), threads);
  t.add("next hops (CPU)", ms_since(t0));
}

// The CPU reference solve with a progress line and, as soon as the rate so far puts it over a
// minute, one line with the estimate and how to use a GPU. Re-estimated every round until that
// line is printed: the first rounds run faster (most entries are still unreachable, which the
// solver skips), so at V = 10000 the first second's estimate was under a minute for a solve of
// 80 s, and deciding once then left the solve silent off a terminal.
void solve_on_cpu(DistMatrix& d, int threads) {
  ProgressMeter meter(fmt::format("solving V = {} on the CPU", d.n()));
  bool announced = false;
  floyd_warshall_blocked(d, threads, [&](int done, int rounds) {
    if (!announced) {
      if (const auto s = harness::cpu_solve_estimate_s(meter.elapsed_s(), done, rounds)) {
        if (const std::string line = harness::cpu_solve_estimate_line(d.n(), *s); !line.empty()) {
          announced = true;
          progress_done();
          fmt::print(stderr, "apsp: {}\n", line);
        }
      }
    }
    meter.update(done, rounds);
  });
}

void print_timing(const Timing& t, int n, uint64_t out_bytes, size_t input_bytes, size_t edges, double total_ms) {
  for (const auto& [name, ms] : t.steps) {
    std::string rate;
    if (name == "read" || name == "parse") rate = fmt::format("  {:.0f} MB/s", input_bytes / 1e3 / ms);
    if (name == "write") rate = fmt::format("  {:.0f} MB/s ({:.1f} MB)", out_bytes / 1e3 / ms, out_bytes / 1e6);
    fmt::print(stderr, "  {:<22} {:>9.1f} ms{}\n", name, ms, rate);
  }
  fmt::print(stderr, "  {:<22} {:>9.1f} ms  (V = {}, E = {})\n", "total", total_ms, n, edges);
}

// --verify: the shortest-path certificate on the result, where it is; throws std::runtime_error
// (one line) when it fails.
void verify(const EdgeList& graph, harness::DeviceSolve* device, const std::optional<DistMatrix>& host, Timing& t) {
  const auto t0 = Clock::now();
  const harness::InEdges in = harness::InEdges::of(graph);
  const std::string fault = device ? device->certify(in) : harness::certify_host(host->view(), in);
  t.add("verify", ms_since(t0));
  if (!fault.empty()) throw std::runtime_error("the result fails the shortest-path certificate: " + fault);
  fmt::print(stderr, "apsp: verified: the shortest-path certificate holds ({:.1f} ms)\n", ms_since(t0));
}

// --gpus as one count (all: every GPU here); 1 when not given. Throws std::invalid_argument.
int one_gpu_count(const Options& o) {
  std::vector<int> counts = harness::parse_gpu_counts(o.gpus);
  if (counts.size() != 1) throw std::invalid_argument(fmt::format("--gpus {}: apsp solves on one GPU count", o.gpus));
  harness::resolve_gpu_counts(counts, device_count());
  if (counts[0] > 1 && o.variant == "cpu") throw std::invalid_argument("--gpus and --variant cpu disagree");
  if (counts[0] > 1 && !o.kernel.empty()) throw std::invalid_argument("--gpus: a --kernel runs on one GPU");
  return counts[0];
}

// The config for a solve over `gpus` GPUs: a multi-GPU variant's (sm90's default for V, or as
// asked), checked against the engine and each GPU's memory; throws std::runtime_error (one line).
NamedConfig choose_for_gpus(const Options& o, const std::optional<NamedConfig>& asked, const DeviceInfo& dev, int n,
                            int gpus) {
  // The engine computes in int32 (sm90's kernels): auto takes sm90 whatever the weights.
  const auto [chosen, why] = pick(o, asked, dev, n, /*max_weight=*/kInf, /*say_note=*/true);
  const Variant& v = *chosen.variant;
  if (!v.multi_gpu) throw std::runtime_error(fmt::format("--gpus {}: {} runs on one GPU only", gpus, v.name));
  if (const std::string reason = harness::distributed_problem(v, chosen.config); !reason.empty())
    throw std::runtime_error(fmt::format("--gpus {}: {}", gpus, reason));
  const harness::Partition part = harness::partition_rows(n, harness::distributed_tile(v, chosen.config), gpus);
  uint64_t need = part.max_bytes_per_rank();
  if (harness::transport_shares_device(o.transport)) need *= gpus;
  if (const uint64_t free = device_free_bytes(); need > free)
    throw std::runtime_error(fmt::format("V = {} on {} GPUs needs {} of device memory {}, {} are free", n, gpus,
                                         human_bytes(need), harness::transport_shares_device(o.transport) ? "on the one GPU" : "per GPU",
                                         human_bytes(free)));
  check_host_matrices(n, 3, "the input, the distributed engine's copy and the gathered distances");
  fmt::print(stderr, "apsp: solving with {} on {} {}s ({})\n", config_name(v.name, chosen.config), gpus,
             harness::transport_shares_device(o.transport) ? "ranks on one " + dev.name : dev.name, why);
  return chosen;
}

// The solve over several GPUs (harness/multigpu/distributed.hpp): the matrix built on the host, laid out
// into the ranks' row blocks, solved, and gathered back.
DistMatrix solve_on_gpus(const Options& o, const EdgeList& graph, const NamedConfig& chosen, int gpus, Timing& t) {
  auto t0 = Clock::now();
  const std::unique_ptr<harness::Executor> engine = harness::make_multi_gpu_executor(gpus, o.transport);
  t.add(fmt::format("start {} ranks", gpus), ms_since(t0));
  t0 = Clock::now();
  {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", graph.num_vertices),
                      matrix_bytes(graph.num_vertices));
    engine->load(DistMatrix::from_edges(graph));
  }
  t.add("build matrix", ms_since(t0));
  t.add(fmt::format("solve ({} GPUs)", gpus), engine->sample(*chosen.variant, chosen.config, false));
  t0 = Clock::now();
  DistMatrix d = engine->output();
  t.add("gather", ms_since(t0));
  return d;
}

constexpr int kGoOn = -1;  // the steps below: go on, or the exit code to stop with

std::string help_text() {
  return "apsp: all-pairs shortest paths of an edge-list file.\n"
         "Input: 'V E', then E lines 'src dst w' (0-based, 0 <= w < 2^30-1). Output: V lines of\n"
         "V distances separated by one space; unreachable = 1073741823.\n"
         "--variant auto (the default) solves with sm90 at this device's policy config for V (see\n"
         "policies/), or with sm90_u16 (16-bit distances, about twice the rate) when every distance\n"
         "provably fits: (V - 1) * the largest edge weight < 32767 (unweighted graphs up to V = 32767);\n"
         "the output is the same either way. With --db it takes a tuning database's pick where the\n"
         "database measured it faster than that default. No database is read unless --db names one.\n"
         "Paths: --paths FILE writes the next-hop matrix (next[i][j]: the first vertex after i on a\n"
         "shortest path, -1 when unreachable or i == j) in --format; --path S T prints one path and its\n"
         "length on standard output, and the distances then go only to -o FILE. Standard output takes\n"
         "one of: the distances (no -o, or -o -), the next hops (--paths -), the path line (--path).\n" +
         exit_codes_help("a solve or a write; nothing is written") +
         " 3: a GPU variant was asked for (without one, auto solves on the CPU).";
}

void add_options(CLI::App& app, Options& o) {
  app.option_defaults()->always_capture_default();
  app.add_option("input", o.input, "edge-list file, or - for standard input")->required();
  app.add_option("-o,--output", o.output, "output file (appears only when whole; the old one stays otherwise); - or none: standard output");
  app.add_option("--variant", o.variant, "auto (the shipped default, or --db's pick), cpu, a variant name (its default for this device and V), or a config");
  app.add_option("--config", o.config, "a config as apsp_bench prints it, e.g. 'sm90[tile=64,chunk=8]'");
  app.add_option("--format", o.format,
                 "text (the contest's: V lines of V distances), bin ('APSPDST1', V as int64, V*V int32, "
                 "little-endian) or npy (NumPy: np.load reads an int32 (V, V) array)")
      ->check(CLI::IsMember({"text", "bin", "npy"}));
  app.add_option("--kernel", o.kernel,
                 "solve with a Floyd-Warshall kernel file compiled at run time (docs/kernel-contract.md), at the "
                 "file's macro values (or --config NAME[MACRO=value,...])")
      ->check(CLI::ExistingFile);
  app.add_option("--paths", o.paths,
                 "write the next-hop matrix here, in --format (appears only when whole); - : standard output");
  app.add_option("--path", o.path_text, "print a shortest path from S to T and its length on standard output")
      ->expected(2)
      ->type_name("S T")
      ->default_str("");
  app.add_option("--db", o.db_path, "a tuning database for --variant auto (none is read unless given)");
  add_integer_option(app, "--threads", o.threads, 0, 4096, "CPU threads for parsing, output and the CPU solver (0: all)");
  app.add_flag("--timing", o.timing, "print read, parse, build, solve and write times to stderr");
  app.add_flag("--verify", o.verify,
               "check the result with the shortest-path certificate (every entry against the edges, on the GPU "
               "after a GPU solve) before anything is written; a fault exits 1");
  add_gpu_options(app, o.gpus, o.transport, harness::transports(),
                  "solve over this many GPUs (or 'all') with the distributed engine (docs/multi-gpu.md): sm90's "
                  "config, row blocks per GPU, the pivot panel broadcast over NCCL; the distances are gathered on "
                  "the host, where --verify and --paths then run");
  app.add_flag("--no-warm-up", o.no_warm_up,
               "do not run the chosen solve once on a small matrix while the input is parsed (it loads the "
               "kernels off the clock; --timing's solve then includes that first-launch cost)");
}

// Everything one run holds, from the input to the outputs.
struct Run {
  Timing t;
  Clock::time_point start = Clock::now();
  std::optional<NamedConfig> asked;
  harness::UserKernels user_kernel;  // --kernel: compiled before the input is read
  bool device = false;
  int gpus = 1;  // --gpus, resolved: above 1 the distributed engine solves
  Input in;
  NamedConfig chosen;
  std::unique_ptr<harness::DeviceSolve> solved;  // the GPU's result, on the device
  std::optional<DistMatrix> host;                 // the CPU's
  NextHops hops;
  uint64_t out_bytes = 0;
};

// The options among themselves, before the input is read: --kernel compiled, outputs' folders,
// --path, the variant, --db; the device. kGoOn or the exit code.
int check_options(Options& o, Run& r) {
  try {
    if (!o.kernel.empty()) {
      const harness::CompileOptions compile{has_device() ? harness::arch_of(query_device()) : "sm_90", ""};
      r.user_kernel = harness::register_user_kernels({o.kernel}, {}, Target::kDevice, compile);
      const std::string& name = r.user_kernel.variants.front()->name;
      if (o.variant != "auto" && o.variant.substr(0, o.variant.find('[')) != name)
        throw std::invalid_argument(fmt::format("--kernel {} and --variant {} disagree", o.kernel, o.variant));
      if (o.variant == "auto") o.variant = name;
    }
    if (!o.output.empty()) check_output_path(o.output, "-o", /*dash_is_stdout=*/true);
    check_path_options(o);
    r.asked = asked_variant(o);
    r.gpus = one_gpu_count(o);
    if (!o.db_path.empty() && access(o.db_path.c_str(), R_OK) != 0)
      throw std::invalid_argument(fmt::format("--db {}: cannot read", o.db_path));
  } catch (const harness::CompileError& e) {
    fmt::print(stderr, "{}\n", harness::compile_failure_text("apsp", e));
    return kExitRefused;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "apsp: {}\n", e.what());
    return kExitRefused;
  }
  r.device = o.variant != "cpu" && has_device();
  if (!r.device && o.variant != "cpu" && (o.variant != "auto" || r.gpus > 1)) {
    fmt::print(stderr, "apsp: no CUDA device for {}; --variant cpu (or auto) solves on the CPU\n",
               r.gpus > 1 ? fmt::format("--gpus {}", r.gpus) : "variant " + o.variant);
    return kExitNoDevice;
  }
  if (const std::string why = harness::gpu_count_problem({r.gpus}, harness::transport_shares_device(o.transport) ? kMaxGpus : device_count());
      r.gpus > 1 && !why.empty()) {
    fmt::print(stderr, "apsp: {} (--gpus)\n", why);
    return kExitTooFewGpus;
  }
  r.hops.want_matrix = !o.paths.empty() || (o.path && !r.device);  // the CPU's rounds read every row
  if (o.path) r.hops.want_column = o.path->second;
  return kGoOn;
}

// The input, and what it asks of this machine: a fault here is a refusal, before any solve.
int read_and_check(const Options& o, Run& r) {
  try {
    r.in = read_input(o, r.asked, r.device, r.t);
    const int n = r.in.graph.num_vertices;
    if (o.path && std::max(o.path->first, o.path->second) >= n) {
      fmt::print(stderr, "apsp: --path {} {}: vertex {} is out of range [0, {}) of {}\n", o.path->first,
                 o.path->second, std::max(o.path->first, o.path->second), n, o.input == "-" ? "<stdin>" : o.input);
      return kExitRefused;
    }
    if (r.hops.wanted()) r.hops.edges = harness::OutEdges::of(r.in.graph);
    if (r.device) {
      const auto beside = [&](int pitch) {
        uint64_t most = harness::device_build_bytes(r.in.graph);
        if (o.verify) most = std::max(most, harness::device_certificate_bytes(n, r.in.graph.edges.size()));
        if (r.hops.wanted())
          most = std::max(most, (pitch != n ? 2 : 1) * matrix_bytes(n) + harness::next_hops_device_bytes(r.hops.edges));
        return most;
      };
      r.chosen = r.gpus > 1 ? choose_for_gpus(o, r.asked, query_device(), n, r.gpus)
                            : choose(o, r.asked, query_device(), n, max_edge_weight(r.in.graph), beside);
    } else if (r.hops.wanted()) {
      check_host_matrices(n, 2, "the distances and the next hops");
    }
  } catch (const std::bad_alloc& e) {  // memory that ran out while reading: a failure, not a refusal
    fmt::print(stderr, "apsp: {}\n", failure_text(e));
    return kExitFailed;
  } catch (const InputError& e) {  // the reader's line names the file already ("while reading" did too)
    fmt::print(stderr, "apsp: {}\n", e.what());
    return kExitRefused;
  } catch (const std::exception& e) {  // too large for the device or the host, or a --db that is not one
    fmt::print(stderr, "apsp: {}\n", failure_text(e));
    return kExitRefused;
  }
  return kGoOn;
}

// The solve, on the GPU or the CPU, and the next hops asked for.
void solve(const Options& o, Run& r) {
  if (r.gpus > 1) {
    r.host = solve_on_gpus(o, r.in.graph, r.chosen, r.gpus, r.t);
    if (r.hops.wanted()) next_hops_on_host(r.host->view(), r.hops, o.threads, r.t);
    return;
  }
  if (r.device) {
    r.solved = solve_on_device(r.in, r.chosen, r.hops, r.t);
    return;
  }
  const int n = r.in.graph.num_vertices;
  fmt::print(stderr, "apsp: {}: solving on the CPU ({} threads)\n",
             o.variant == "cpu" ? "--variant cpu" : "no CUDA device", o.threads > 0 ? o.threads : hardware_threads());
  auto t0 = Clock::now();
  {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", n), matrix_bytes(n));
    r.host = DistMatrix::from_edges(r.in.graph);
  }
  r.t.add("build matrix", ms_since(t0));
  t0 = Clock::now();
  solve_on_cpu(*r.host, o.threads);
  r.t.add("solve (CPU)", ms_since(t0));
  if (r.hops.wanted()) next_hops_on_host(r.host->view(), r.hops, o.threads, r.t);
}

// The solve, --verify, then the outputs; a failure is one line and exit 1, nothing written.
int solve_and_write(const Options& o, Run& r) {
  bool to_stdout = false;  // what failed was a write to standard output
  try {
    const int n = r.in.graph.num_vertices;
    solve(o, r);
    if (o.verify) verify(r.in.graph, r.solved.get(), r.host, r.t);
    const MatrixSource result = r.solved ? MatrixSource::of(*r.solved) : MatrixSource::of(r.host->view());
    if (o.writes_distances()) {
      const auto t0 = Clock::now();
      to_stdout = o.output.empty() || o.output == "-";
      r.out_bytes = write_output(o, o.output, result, "the distances");
      r.t.add("write", ms_since(t0));
    }
    if (!o.paths.empty()) {
      const auto t0 = Clock::now();
      to_stdout = o.paths == "-";
      write_output(o, o.paths, MatrixSource::of(MatrixView{n, r.hops.matrix.get()}), "the next hops");
      r.t.add("write next hops", ms_since(t0));
    }
    if (o.path) {
      const auto [s, target] = *o.path;
      to_stdout = true;
      const std::vector<int32_t> path = harness::follow_hops(r.hops.column_of(n, target).data(), n, s, target);
      const int32_t length = r.solved ? r.solved->at(s, target) : r.host->view().row(s)[target];
      fmt::print("{}\n", harness::describe_path(s, target, path, length));
      if (std::fflush(stdout) != 0) throw std::runtime_error(std::strerror(errno));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp: {}{}\n", to_stdout ? "standard output: " : "", failure_text(e));
    return kExitFailed;
  }
  return kGoOn;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{help_text()};
  add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "apsp: {} (see --help)\n", e.what());
    return kExitRefused;
  }
  Run r;
  if (const int rc = check_options(o, r); rc != kGoOn) return rc;
  if (const int rc = read_and_check(o, r); rc != kGoOn) return rc;
  if (const int rc = solve_and_write(o, r); rc != kGoOn) return rc;
  if (o.timing)
    print_timing(r.t, r.in.graph.num_vertices, r.out_bytes, r.in.bytes, r.in.graph.edges.size(), ms_since(r.start));
  return 0;
}

}  // namespace
}  // namespace apsp

int main(int argc, char** argv) { return apsp::run_program("apsp", apsp::run, argc, argv); }
