#include "harness/solve/solver.hpp"

#include <fmt/format.h>

#include <charconv>
#include <future>
#include <new>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/cuda_check.hpp"
#include "core/edge_list.hpp"
#include "core/graph_formats.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "core/precision.hpp"
#include "core/results.hpp"
#include "harness/multigpu/launch.hpp"
#include "harness/multigpu/rank_certificate.hpp"
#include "harness/plan/plan.hpp"
#include "harness/solve/device_solve.hpp"
#include "harness/solve/solve_steps.hpp"
#include "harness/solve/summary.hpp"
#include "harness/userkernel/user_kernel.hpp"
#include "harness/verify/certificate.hpp"

namespace apsp::harness {

// Everything one request holds, from the input to the outputs. The order matters on the way
// out: the warm-up reads the choice, and the device's solve the graph.
struct Solver::State {
  SolveRequest r;
  SolveTiming t;
  Choice choice;
  UserKernels user_kernel;  // the request's kernel file: compiled before the input is read
  bool device = false;      // the solve runs on a GPU
  SolveInput graph;         // read from the file, or the request's
  size_t input_bytes = 0;
  std::shared_future<void> context;  // the CUDA context, made while the input is read
  std::future<std::unique_ptr<Transport>> transport;  // --gpus: the ranks, started meanwhile
  std::future<void> warmed;  // warm_up(), waited for before the timed solve
  NamedConfig chosen;
  std::unique_ptr<DeviceSolve> solved;   // the GPU's result, on the device
  std::unique_ptr<MultiGpuSolve> ranks;  // several GPUs' result, on their devices
  std::optional<DistMatrix> host;        // the CPU's, or the gathered multi-GPU result
  std::optional<DistMatrix64> wide;      // the 64-bit path's result, on the host
  int64_t max_weight = 0;                // the graph's largest edge weight (self loops left out)
  int64_t distance_floor = 0;            // a lower bound of its largest distance (0: none known)
  bool wide_only = false;                // weights int32 does not take: the 64-bit path alone
  NextHops hops;
  std::unique_ptr<int32_t[]> predecessors;  // n x n, when asked for
  std::vector<int64_t> source_ids;          // the request's sources, the file's ids
  std::vector<int> sources;                 // their rows of the distances (all when empty)
  std::pair<int, int> path;                 // the request's path, as vertices
  std::string summary_lines;                // when asked for, once computed
  uint64_t out_bytes = 0;
  // Under a launcher (harness/multigpu/launch.hpp): this process's part of the world; process 0
  // alone says and writes, the others take part in every collective step.
  std::optional<LaunchWorld> world;
  int home_device = 0;  // this process's GPU: its local rank's, or 0
  bool speaks() const { return !world || world->rank == 0; }

  void say(const std::string& line) const {
    if (r.log && speaks()) r.log(line);
  }
};

namespace {

// V from the header line, to warm the solve up while the file is parsed; 0 when it does not look
// valid (the parser then reports the fault).
int peek_vertex_count(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos) return 0;
  int v = 0;
  const auto [p, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
  return ec == std::errc() && v > 0 && v <= kMaxN ? v : 0;
}

void compile_kernel(Solver::State& s) {
  const CompileOptions compile{has_device() ? arch_of(query_device()) : "sm_90", ""};
  s.user_kernel = register_user_kernels({s.r.kernel}, {}, Target::kDevice, compile);
  const std::string& name = s.user_kernel.variants.front()->name;
  if (s.r.variant != "auto" && s.r.variant.substr(0, s.r.variant.find('[')) != name)
    throw std::invalid_argument(
        fmt::format("--kernel {} and --variant {} disagree", s.r.kernel, s.r.variant));
  if (s.r.variant == "auto") s.r.variant = name;
}

// The outputs, before anything is compiled or read: each can be written, and none is another
// or one of the files read. Throws std::invalid_argument (one line).
void check_outputs(const SolveRequest& r) {
  if (r.distances_to) check_output_path(*r.distances_to, "-o", /*dash_is_stdout=*/true);
  if (r.next_hops_to) check_output_path(*r.next_hops_to, "--paths", /*dash_is_stdout=*/true);
  if (r.row_ids_to) check_output_path(*r.row_ids_to, "--row-ids", /*dash_is_stdout=*/true);
  if (r.per_vertex_to) check_output_path(*r.per_vertex_to, "-o", /*dash_is_stdout=*/true);
  if (r.summary_json_to)
    check_output_path(*r.summary_json_to, "--summary-json", /*dash_is_stdout=*/true);
  check_distinct_files({{r.distances_to.value_or(""), "-o"},
                        {r.next_hops_to.value_or(""), "--paths"},
                        {r.row_ids_to.value_or(""), "--row-ids"},
                        {r.per_vertex_to.value_or(""), "-o"},
                        {r.summary_json_to.value_or(""), "--summary-json"},
                        {sources_file(r.sources), "--sources", /*output=*/false},
                        {r.input, "the input", /*output=*/false},
                        {r.kernel, "--kernel", /*output=*/false},
                        {r.db_path, "--db", /*output=*/false}});
}

// --db, read and checked whole whatever solves (the CPU too); its note (a migrated database)
// said. Throws std::invalid_argument, one line naming the option and the file.
std::shared_ptr<const TuningDb> read_database(const Solver::State& s) {
  if (s.r.db_path.empty()) return nullptr;
  try {
    std::string note;
    auto db = std::make_shared<const TuningDb>(TuningDb::load_existing(s.r.db_path, &note));
    if (!note.empty()) s.say(note);
    return db;
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("--db {}", e.what()));
  }
}

// The request among itself, before the input is read; throws std::invalid_argument (one line).
void check_request(Solver::State& s) {
  check_outputs(s.r);
  std::shared_ptr<const TuningDb> db = read_database(s);
  if (!s.r.kernel.empty()) compile_kernel(s);
  s.choice = asked_variant(s.r);
  s.choice.db = std::move(db);
  if (!s.r.sources.empty()) s.source_ids = parse_sources(s.r.sources);
  if (s.r.gpus > 1 && s.r.variant == "cpu")
    throw std::invalid_argument("--gpus and --variant cpu disagree");
  if (s.r.gpus > 1 && !s.r.kernel.empty())
    throw std::invalid_argument("--gpus: a --kernel runs on one GPU");
}

// The input read and parsed; meanwhile, for a GPU solve, the CUDA context is made and the chosen
// solve warmed up in the background (a few hundred milliseconds at V = 10000).
void read_input(Solver::State& s) {
  if (s.r.graph) {
    s.graph = *s.r.graph;
    return;
  }
  if (s.device)
    s.context = std::async(std::launch::async, [d = s.home_device] {
                  APSP_CUDA_CHECK(cudaSetDevice(d));
                  APSP_CUDA_CHECK(cudaFree(nullptr));
                }).share();
  if (s.device && s.r.gpus > 1)  // NCCL's start-up (communicators, its bootstrap) beside the parse
    s.transport = std::async(std::launch::async, [&r = s.r, ctx = s.context] {
      ctx.wait();
      return make_transport(r.transport, r.gpus);
    });
  auto t0 = Clock::now();
  const std::string& input = s.r.input;
  const std::string source = input == "-" ? "<stdin>" : input;
  std::string note;
  const std::string text = [&] {
    const Doing doing(fmt::format("reading {}", input == "-" ? "standard input" : input));
    return gunzip_if_gzip(read_whole_input(input), source, 0, &note);
  }();
  if (!note.empty()) s.say(note);
  s.input_bytes = text.size();
  s.t.add("read", ms_since(t0));
  std::string why;
  const GraphFormat& format = choose_graph_format(s.r.input_format, input, text, &why);
  const int v = &format == &edges_graph_format() ? peek_vertex_count(text) : 0;
  if (s.device && v > 0 && s.r.warm_up) {
    s.warmed =
        std::async(std::launch::async, [ctx = s.context, &choice = s.choice, v, d = s.home_device] {
          ctx.wait();
          APSP_CUDA_CHECK(cudaSetDevice(d));
          warm_up(choice, v);
        });
  }
  t0 = Clock::now();
  s.graph = SolveInput(
      parse_graph(format, why, text, source, 0, [&](const std::string& line) { s.say(line); }));
  s.t.add("parse", ms_since(t0));
}

// The variant for one GPU or several, fitted to the device: beside the solve's buffer, at its
// peak, the edges while the matrix is built, the certificate, or the next hops with a compact
// copy of the distances.
NamedConfig choose_device_solve(Solver::State& s, const Choice& choice, int64_t max_weight) {
  const int n = s.graph.n();
  const Log& log = s.r.log;
  if (s.r.gpus > 1) {
    uint64_t beside = s.graph.device_build_bytes();
    if (s.r.verify) beside = std::max(beside, rank_certificate_bytes(n, s.graph.edge_count()));
    if (s.r.summary) beside = std::max(beside, reduction_device_bytes(n));
    const int gathered = s.hops.wanted() || s.r.predecessors ? 3 : 0;
    return choose_for_gpus(choice, query_device(), n, s.r.gpus, s.r.transport, beside, gathered,
                           log);
  }
  const auto beside = [&](int pitch) {
    uint64_t most = s.graph.device_build_bytes();
    if (s.r.verify) most = std::max(most, device_certificate_bytes(n, s.graph.edge_count()));
    if (s.r.predecessors)
      most = std::max(most, (pitch != n ? matrix_bytes(n) : 0) +
                                predecessors_device_bytes(n, s.graph.edge_count()));
    if (s.hops.wanted())
      most = std::max(
          most, (pitch != n ? 2 : 1) * matrix_bytes(n) + next_hops_device_bytes(s.hops.edges));
    if (s.r.summary) most = std::max(most, reduction_device_bytes(n));
    return most;
  };
  return choose(choice, query_device(), n, max_weight, s.distance_floor, beside, log);
}

// Before auto tries 16 bits where nothing proves them beforehand: the largest distance bounded
// from below by one sweep (core/precision.hpp, largest_distance_floor), so that a graph whose
// 16-bit proof cannot hold (a road graph's long distances) is solved once, in int32.
void bound_largest_distance(Solver::State& s) {
  if (s.choice.asked || s.r.gpus > 1 || s.r.graph || s.wide_only) return;
  if (!weights_fit(kPrecisionU16x2, s.max_weight).empty()) return;
  if (u16_admission(s.graph.n(), s.max_weight).empty()) return;  // proven before the solve
  const auto t0 = Clock::now();
  const DistanceFloor f = largest_distance_floor(s.graph.edges(), kInf16 - s.max_weight);
  s.t.add("distance floor", ms_since(t0));
  s.distance_floor = f.distance;
  if (exactness_fault(f.distance, s.max_weight, kInf16).empty()) return;
  s.say(fmt::format(
      "not 16 bits: vertex {} reaches a vertex {} or more away, which with the largest weight {} "
      "reaches the 16-bit unreachable value {}, so their proof could not hold (one sweep, "
      "{:.1f} ms)",
      f.source, f.distance, s.max_weight, kInf16, ms_since(t0)));
}

// The matrix solved on the GPU with the chosen config, kept there; then the next hops asked for.
void solve_on_device(Solver::State& s) {
  s.solved = std::make_unique<DeviceSolve>(s.graph, *s.chosen.variant, s.chosen.config);
  if (s.warmed.valid()) {
    const auto t0 = Clock::now();
    s.warmed.get();
    s.t.add("wait: warm-up", ms_since(t0));
  }
  const DeviceSolve::Times times = s.solved->run();
  s.t.add("build matrix (GPU)", times.build_ms);
  s.t.add("solve", times.solve_ms);
  if (s.hops.wanted()) {
    const CudaStream stream;
    next_hops_on_device(s.solved->compact(), stream.get(), s.hops, s.t);
  }
}

void solve_on_host(Solver::State& s) {
  const int n = s.graph.n();
  const int threads = s.r.threads;
  s.say(fmt::format("{}: solving on the CPU ({} threads)",
                    s.r.variant == "cpu" ? "--variant cpu" : "no CUDA device",
                    threads > 0 ? threads : hardware_threads()));
  auto t0 = Clock::now();
  {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", n), matrix_bytes(n));
    s.host = s.graph.host_adjacency();
  }
  s.t.add("build matrix", ms_since(t0));
  t0 = Clock::now();
  solve_on_cpu(*s.host, threads, s.r.log);
  s.t.add("solve (CPU)", ms_since(t0));
  if (s.hops.wanted()) next_hops_on_host(s.host->view(), s.hops, threads, s.t);
}

// The ranks of a multi-GPU solve: those started beside the parse, or a solve's before it.
std::unique_ptr<Transport> started_transport(Solver::State& s) {
  if (s.transport.valid()) {
    const auto t0 = Clock::now();
    std::unique_ptr<Transport> t = s.transport.get();
    s.t.add(fmt::format("wait: start {} ranks", s.r.gpus), ms_since(t0));
    return t;
  }
  if (s.ranks) return MultiGpuSolve::release(std::move(s.ranks));
  return make_transport(s.r.transport, s.r.gpus);
}

void solve(Solver::State& s) {
  if (s.r.gpus > 1) {
    s.ranks = solve_on_gpus(s.graph, s.chosen, started_transport(s), s.t);
    // The next hops and the predecessors run on the host, over the whole matrix.
    if (s.hops.wanted() || s.r.predecessors) s.host = gather(*s.ranks, s.t);
    if (s.hops.wanted()) next_hops_on_host(s.host->view(), s.hops, s.r.threads, s.t);
  } else if (s.device) {
    solve_on_device(s);
  } else {
    solve_on_host(s);
  }
}

// The shortest-path certificate on the result, where it is; throws std::runtime_error (one line)
// when it fails.
void verify(Solver::State& s) {
  const auto t0 = Clock::now();
  const InEdges in = InEdges::of(s.graph.edges());
  const std::string fault = s.solved  ? s.solved->certify(in)
                            : s.ranks ? s.ranks->certify(in)
                            : s.wide  ? certify_host(s.wide->view(), in, s.r.threads)
                                      : certify_host(s.host->view(), in, s.r.threads);
  s.t.add("verify", ms_since(t0));
  if (!fault.empty())
    throw std::runtime_error("the result fails the shortest-path certificate: " + fault);
  s.say(fmt::format("verified: the shortest-path certificate holds ({:.1f} ms)", ms_since(t0)));
}

// The predecessor matrix of the result, where the result is.
void find_predecessors(Solver::State& s) {
  const auto t0 = Clock::now();
  const int n = s.graph.n();
  s.predecessors = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(n) * n);
  if (s.solved) {
    predecessors_device(s.solved->compact(), s.graph.edges(), s.predecessors.get());
  } else {
    predecessors_host(s.host->view(), s.graph.edges(), s.predecessors.get(), s.r.threads);
  }
  s.t.add("predecessors", ms_since(t0));
}

// Where a matrix to write comes from: host memory, or bands of rows copied down from a device.
struct MatrixSource {
  int n = 0, band_rows = 0;
  RowBand band;
  static MatrixSource of(MatrixView m) {
    return {m.n, std::max(m.n, 1), [m](int first, int) { return m.row(first); }};
  }
  static MatrixSource of(DeviceSolve& s) {
    return {s.n(), s.band_rows(), [&s](int first, int count) { return s.band(first, count); }};
  }
  static MatrixSource of(MultiGpuSolve& s) {
    return {s.n(), s.band_rows(), [&s](int first, int count) { return s.band(first, count); }};
  }
  static MatrixSource of(Solver::State& s) {
    if (s.solved) return of(*s.solved);
    if (s.host) return of(s.host->view());
    return of(*s.ranks);
  }
};

// The next hops to write, naming vertices as the file does: a SNAP list's ids in place of rows,
// a band at a time into `buf`, where every id fits the matrix's int32 (else the rows, said:
// --row-ids maps them). kNoHop stays.
MatrixSource next_hops_source(const Solver::State& s, std::vector<int32_t>& buf) {
  const int n = s.graph.n();
  const MatrixSource rows = MatrixSource::of(MatrixView{n, s.hops.matrix.get()});
  const std::vector<int64_t>& ids = s.graph.ids();
  if (ids.empty()) return rows;
  if (ids.front() < 0 || ids.back() > INT32_MAX) {
    s.say("the next hops name rows, not the file's ids, which pass int32: --row-ids maps them");
    return rows;
  }
  const int band_rows = std::clamp(int((size_t{16} << 20) / (4 * std::max<size_t>(n, 1))), 1, n);
  buf.resize(static_cast<size_t>(band_rows) * n);
  return {n, band_rows, [&s, &buf, &ids, n](int first, int count) {
            const int32_t* from = s.hops.matrix.get() + static_cast<size_t>(first) * n;
            std::transform(from, from + static_cast<size_t>(count) * n, buf.begin(),
                           [&](int32_t k) { return k < 0 ? k : static_cast<int32_t>(ids[k]); });
            return static_cast<const int32_t*>(buf.data());
          }};
}

// What the 64-bit path does not do: the predecessors are int32's, and it solves on one GPU or
// the CPU (its certificate, next hops and reductions run on the host). Throws std::runtime_error
// (one line).
void check_wide_request(const Solver::State& s) {
  const std::string why =
      "the distances need the 64-bit path (weights or distances past int32's 1073741823), which "
      "solves on one GPU or the CPU and gives no predecessors";
  if (s.r.predecessors) throw std::runtime_error("predecessors: " + why);
  if (s.r.gpus > 1) throw std::runtime_error(fmt::format("--gpus {}: {}", s.r.gpus, why));
  if (!s.r.kernel.empty()) throw std::runtime_error("--kernel: " + why);
  if (s.hops.wanted())
    check_host_matrices(s.graph.n(), 3, "the 64-bit distances and the next hops");
}

// The exact 64-bit path, proven; says which ran, and the proof's numbers.
void solve_and_prove_wide(Solver::State& s) {
  s.solved.reset();
  s.host.reset();
  s.ranks.reset();
  s.hops.matrix.reset();
  s.hops.column.clear();
  s.wide = solve_wide(s.graph, s.device, s.r.threads, s.r.log, s.t);
  const int64_t most = max_finite_entry(*s.wide, s.r.threads);
  if (const std::string fault = exactness_fault(most, s.max_weight, kInf64); !fault.empty())
    throw std::runtime_error("the 64-bit result is not proven exact: " + fault);
  s.say(
      fmt::format("exact (int64): largest distance {} + largest weight {} = {} < {}, the "
                  "unreachable value, so no distance was clipped (proof: docs/graphs.md)",
                  most, s.max_weight, most + s.max_weight, kInf64));
  if (s.hops.wanted()) next_hops_on_host(s.wide->view(), s.hops, s.r.threads, s.t);
}

// The result's largest entry below kInf, where the result is: on the device, on the host, or
// read back from the ranks a band at a time.
int64_t max_finite(Solver::State& s) {
  if (s.solved) return s.solved->max_finite();
  if (s.ranks) return s.ranks->max_finite();
  return max_finite_entry(*s.host, s.r.threads);
}

// The precision the result was computed in: the chosen variant's, or the CPU's int32.
std::string precision_of(const Solver::State& s) {
  return s.chosen.variant ? s.chosen.variant->precision : std::string(kPrecisionInt32);
}

// "" when the result is proven exact (core/precision.hpp); the proof's line is said either way.
std::string prove_exact(Solver::State& s) {
  const auto t0 = Clock::now();
  const std::string precision = precision_of(s);
  const int64_t most = max_finite(s), max_w = s.graph.max_weight();
  const int64_t unreachable = unreachable_of(precision);
  const std::string fault = exactness_fault(most, max_w, unreachable);
  s.t.add("prove exact", ms_since(t0));
  if (fault.empty())
    s.say(
        fmt::format("exact ({}): largest distance {} + largest weight {} = {} < {}, the "
                    "unreachable value, so no distance was clipped (proof: docs/graphs.md)",
                    precision, most, max_w, most + max_w, unreachable));
  return fault;
}

// The solve, proven exact; a 16-bit result the proof does not cover is solved again in int32,
// an int32 one in 64 bits.
void solve_proven(Solver::State& s) {
  if (s.wide_only && !s.r.allow_64_bits)
    throw std::range_error("the weights pass int32's 1073741823, and int32 was asked for");
  if (s.wide_only) return solve_and_prove_wide(s);
  solve(s);
  std::string fault = prove_exact(s);
  if (!fault.empty() && precision_of(s) == kPrecisionU16x2) {
    s.say(fmt::format("the 16-bit result is not proven exact ({}): solving again in int32", fault));
    Choice wider = s.choice;
    wider.asked.reset();
    wider.bare_name = false;
    s.solved.reset();
    s.chosen = choose_device_solve(s, wider, kInf - 1);
    solve(s);
    fault = prove_exact(s);
  }
  if (fault.empty()) return;
  if (!s.r.allow_64_bits)
    throw std::range_error(fmt::format(
        "the distances pass int32's {} (unreachable), and int32 was asked for ({})", kInf, fault));
  s.say(fmt::format("the int32 result is not proven exact ({}): solving again in 64 bits", fault));
  check_wide_request(s);
  solve_and_prove_wide(s);
}

uint64_t write_output(const Solver::State& s, const std::string& path, const MatrixSource& m,
                      const std::string& what) {
  return write_matrix_output(path, m.n, m.band_rows, m.band, *s.r.format, s.r.threads, what);
}

// The contest's text format holds distances below 1073741823 and saturates the others to it, as
// the contest's reference does (core/matrix_io.hpp): said, with how many pairs and what writes
// them exactly. The rows written: `sources`, or all when empty.
void say_saturated(const Solver::State& s, const std::vector<int>& sources) {
  if (!s.wide || s.r.format != &text_matrix_format()) return;
  const size_t n = static_cast<size_t>(s.wide->n());
  uint64_t saturated = 0;
  if (sources.empty()) saturated = count_saturated(s.wide->data(), n * n, s.r.threads);
  for (const int i : sources) saturated += count_saturated(s.wide->row(i), n, 1);
  if (saturated == 0) return;
  s.say(fmt::format(
      "{} pairs have distances of {} or more, which the contest's text format cannot hold: "
      "written as {} (saturated, as the contest's reference does, so they read as unreachable); "
      "--format npy or bin writes every distance exactly",
      saturated, kInf, kInf));
}

// The distances, in the format's int64 form when the 64-bit path solved them.
uint64_t write_distances(Solver::State& s, const std::string& path) {
  if (!s.wide) return write_output(s, path, MatrixSource::of(s), "the distances");
  say_saturated(s, {});
  const DistMatrix64& d = *s.wide;
  return write_matrix_output64(
      path, d.n(), std::max(d.n(), 1), [&d](int first, int) { return d.row(first); }, *s.r.format,
      s.r.threads, "the distances");
}

bool is_stdout(const std::string& path) { return path.empty() || path == "-"; }

SolvedDistances solved_distances(Solver::State& s) {
  return {s.solved.get(), s.ranks.get(), s.host ? &*s.host : nullptr, s.wide ? &*s.wide : nullptr};
}

SolvedWith summary_solved_with(const Solver::State& s) {
  const std::string precision = s.wide ? kPrecisionInt64 : kPrecisionInt32;
  if (!s.device || (s.wide && !wide_variant())) return {s.r.input, "cpu", precision, "CPU", 0};
  if (s.wide) return {s.r.input, wide_variant()->name, precision, query_device().name, 1};
  const Variant& v = *s.chosen.variant;
  return {s.r.input, config_name(v.name, s.chosen.config), v.precision, query_device().name,
          s.r.gpus};
}

// Under a launcher with more than one process, the request becomes this process's part of a
// solve over one GPU a process: --gpus is the world's size, the process's GPU its local rank's,
// and only what the ranks do together is taken. Throws SolveError (one line).
void join_launched_world(Solver::State& s) {
  try {
    s.world = launch_world();
  } catch (const std::invalid_argument& e) {
    throw SolveError(SolveFault::kRefused, e.what());
  }
  if (!s.world || !s.device || s.r.transport != kDefaultTransport || s.r.graph) {
    s.world.reset();
    return;
  }
  const LaunchWorld& w = *s.world;
  if (s.r.gpus == 1 || s.r.gpus == kAllGpus) s.r.gpus = w.size;
  if (const std::string why = gpus_per_process_problem(w, s.r.gpus); !why.empty())
    throw SolveError(SolveFault::kRefused, why);
  const std::string why = fmt::format(
      "under {} ({} processes) apsp solves, certifies (--verify) and writes the distances; "
      "run it as one process with --gpus {} for",
      w.launcher, w.size, w.size);
  if (s.hops.wanted() || s.r.next_hops_to || s.r.path)
    throw SolveError(SolveFault::kRefused, why + " --paths and --path");
  if (s.r.predecessors || s.r.summary || !s.r.sources.empty() || !s.r.kernel.empty())
    throw SolveError(SolveFault::kRefused, why + " predecessors, --summary, --sources, --kernel");
  if (w.rank != 0) s.r.log = nullptr;  // every line of the run is process 0's
  s.home_device = w.local_rank % std::max(device_count(), 1);
  APSP_CUDA_CHECK(cudaSetDevice(s.home_device));
}

// One line for a vertex id the graph does not have: out of [0, n), or none of a SNAP list's ids.
std::string no_such_vertex(int64_t id, const std::vector<int64_t>& ids, int n,
                           const std::string& input) {
  const std::string of = input == "-" ? "<stdin>" : input;
  if (ids.empty()) return fmt::format("vertex {} is out of range [0, {}) of {}", id, n, of);
  return fmt::format("{} names no vertex of {} (its ids run from {} to {})", id, of, ids.front(),
                     ids.back());
}

// The request's vertices (the path's ends, the sources: the file's ids) as rows. Throws
// SolveError (refused, one line) for one the graph does not have.
void find_request_vertices(Solver::State& s) {
  const int n = s.graph.n();
  const std::vector<int64_t>& ids = s.graph.ids();
  if (const auto p = s.r.path) {
    for (const int64_t id : {p->first, p->second})
      if (vertex_of_id(id, ids, n) < 0)
        throw SolveError(SolveFault::kRefused, fmt::format("--path {} {}: {}", p->first, p->second,
                                                           no_such_vertex(id, ids, n, s.r.input)));
    s.path = {vertex_of_id(p->first, ids, n), vertex_of_id(p->second, ids, n)};
    s.hops.want_column = s.path.second;
  }
  for (const int64_t id : s.source_ids) {
    const int v = vertex_of_id(id, ids, n);
    if (v < 0)
      throw SolveError(SolveFault::kRefused, "--sources: " + no_such_vertex(id, ids, n, s.r.input));
    s.sources.push_back(v);
  }
}

// The file's id of each row, one a line (--row-ids).
void write_row_ids(const Solver::State& s, const std::string& path) {
  std::string text;
  for (int v = 0; v < s.graph.n(); ++v) text += fmt::format("{}\n", id_of_vertex(v, s.graph.ids()));
  write_text_output(path, text);
}

// Another process's share of writing the distances: every band read in the writer's order, so
// that its ranks send their rows to process 0 (MultiGpuSolve::band).
void send_bands(Solver::State& s) {
  MultiGpuSolve& m = *s.ranks;
  for (int first = 0; first < m.n(); first += m.band_rows())
    m.band(first, std::min(m.band_rows(), m.n() - first));
}

}  // namespace

Solver::Solver(SolveRequest request) : s_(std::make_unique<State>()) { s_->r = std::move(request); }
Solver::~Solver() = default;

void Solver::run() {
  check();
  read();
  solve_and_write();
}

void Solver::check() {
  State& s = *s_;
  s.device = s.r.variant != "cpu" && has_device();
  join_launched_world(s);  // under a launcher --gpus all is every process's GPU
  if (s.r.gpus == kAllGpus) s.r.gpus = std::max(device_count(), 1);
  try {
    check_request(s);
  } catch (const std::invalid_argument& e) {
    throw SolveError(SolveFault::kRefused, e.what());
  }
  if (!s.device && s.r.variant != "cpu" && (s.r.variant != "auto" || s.r.gpus > 1))
    throw SolveError(
        SolveFault::kNoDevice,
        fmt::format("no CUDA device for {}; --variant cpu (or auto) solves on the CPU",
                    s.r.gpus > 1 ? fmt::format("--gpus {}", s.r.gpus) : "variant " + s.r.variant));
  const int present = transport_shares_device(s.r.transport) || s.world ? kMaxGpus : device_count();
  if (const std::string why = gpu_count_problem({s.r.gpus}, present); s.r.gpus > 1 && !why.empty())
    throw SolveError(SolveFault::kTooFewGpus, why + " (--gpus)");
  // The CPU's rounds read every row: a path off the GPU takes the whole matrix.
  s.hops.want_matrix = s.r.next_hops_to || (s.r.path && !s.device);
  if (s.r.path) s.hops.want_column = s.r.path->second;
}

// A fault here is a refusal, before any solve; but memory that ran out while reading is a failure.
void Solver::read() {
  State& s = *s_;
  try {
    read_input(s);
    const int n = s.graph.n();
    find_request_vertices(s);
    s.max_weight = s.graph.max_weight();
    s.wide_only = !weights_fit(kPrecisionInt32, s.max_weight).empty();
    if (s.wide_only) check_wide_request(s);
    if (s.hops.wanted()) s.hops.edges = OutEdges::of(s.graph.edges());
    if (s.device && !s.wide_only) {
      bound_largest_distance(s);
      s.chosen = choose_device_solve(s, s.choice, s.max_weight);
    } else if (s.hops.wanted())
      check_host_matrices(n, 2, "the distances and the next hops");
    // The result's matrix, and on the host two more the rule works in (harness/solve/paths.cpp);
    // the edges, listed from a matrix input (two copies at the peak of the listing), grouped by
    // destination (a vertex and a weight each).
    if (s.r.predecessors)
      check_host_matrices(n, s.device && !s.wide_only ? 1 : 3, "the predecessors and their edges",
                          s.graph.edge_count() * (2 * sizeof(Edge) + 2 * sizeof(int32_t)));
  } catch (const SolveError&) {
    throw;
  } catch (const std::bad_alloc& e) {
    throw SolveError(SolveFault::kFailed, failure_text(e));
  } catch (const InputError& e) {  // the reader's line names the file already
    throw SolveError(SolveFault::kRefused, e.what());
  } catch (const std::exception& e) {
    // Too large for the device or the host.
    throw SolveError(SolveFault::kRefused, failure_text(e));
  }
}

void Solver::solve_and_write() {
  State& s = *s_;
  bool to_stdout = false;  // what failed was a write to standard output
  try {
    solve_proven(s);
    if (s.r.verify) verify(s);
    if (s.r.predecessors) find_predecessors(s);
    if (s.r.summary)
      s.summary_lines = answer_summary(s.r, solved_distances(s), s.graph.edge_count(),
                                       s.graph.ids(), summary_solved_with(s), s.t, to_stdout);
    if (s.r.distances_to && !s.speaks()) {
      send_bands(s);
    } else if (s.r.distances_to) {
      const auto t0 = Clock::now();
      to_stdout = is_stdout(*s.r.distances_to);
      if (!s.sources.empty()) say_saturated(s, s.sources);
      s.out_bytes = s.sources.empty()
                        ? write_distances(s, *s.r.distances_to)
                        : write_source_rows(*s.r.distances_to, s.sources, solved_distances(s),
                                            s.graph.n(), *s.r.format, s.r.threads);
      s.t.add("write", ms_since(t0));
    }
    if (s.r.next_hops_to) {
      const auto t0 = Clock::now();
      to_stdout = is_stdout(*s.r.next_hops_to);
      std::vector<int32_t> buf;
      write_output(s, *s.r.next_hops_to, next_hops_source(s, buf), "the next hops");
      s.t.add("write next hops", ms_since(t0));
    }
    if (s.r.row_ids_to) {
      to_stdout = is_stdout(*s.r.row_ids_to);
      write_row_ids(s, *s.r.row_ids_to);
    }
  } catch (const std::range_error&) {
    throw;  // int32 asked for, and the distances need more (SolveRequest::allow_64_bits)
  } catch (const std::exception& e) {
    throw SolveError(SolveFault::kFailed, (to_stdout ? "standard output: " : "") + failure_text(e));
  }
}

std::string Solver::path_line() const {
  State& s = *s_;
  const auto [src, target] = s.path;
  const int n = s.graph.n();
  const std::vector<int32_t> path = follow_hops(s.hops.column_of(n, target).data(), n, src, target);
  const int64_t length = s.solved ? s.solved->at(src, target)
                         : s.wide ? s.wide->at(src, target)
                                  : s.host->view().row(src)[target];
  std::vector<int64_t> ids;
  for (const int32_t v : path) ids.push_back(id_of_vertex(v, s.graph.ids()));
  return describe_path(s.r.path->first, s.r.path->second, ids, length);
}

const SolveTiming& Solver::timing() const { return s_->t; }
bool Solver::speaks() const { return s_->speaks(); }
int Solver::vertices() const { return s_->graph.n(); }
size_t Solver::edges() const { return s_->graph.edge_count(); }
size_t Solver::input_bytes() const { return s_->input_bytes; }
uint64_t Solver::distances_bytes() const { return s_->out_bytes; }
const std::string& Solver::summary_lines() const { return s_->summary_lines; }

bool Solver::wide() const { return s_->wide.has_value(); }

std::string Solver::precision() const {
  return s_->wide ? std::string(kPrecisionInt64) : precision_of(*s_);
}

std::string Solver::solved_with() const {
  const State& s = *s_;
  if (!s.device) return "cpu";
  if (s.wide) return wide_variant() ? wide_variant()->name : "cpu";
  return config_name(s.chosen.variant->name, s.chosen.config);
}

Solver::OnDevice Solver::on_device() const {
  if (!s_->solved) return {};
  return {s_->solved->matrix(), s_->solved->pitch()};
}

namespace {
template <class T>
void each_band_of(const T* rows, int n, const Solver::BandSink<T>& f) {
  if (n > 0) f(0, n, rows);
}
}  // namespace

void Solver::each_band(const BandSink<int32_t>& f) const {
  if (s_->wide) throw std::logic_error("the 64-bit path solved these distances: each_band64");
  const MatrixSource m = MatrixSource::of(*s_);
  for (int first = 0; first < m.n; first += m.band_rows) {
    const int count = std::min(m.band_rows, m.n - first);
    f(first, count, m.band(first, count));
  }
}

void Solver::each_band64(const BandSink<int64_t>& f) const {
  if (!s_->wide) throw std::logic_error("the distances are int32's: each_band");
  each_band_of(s_->wide->data(), s_->wide->n(), f);
}

void Solver::each_predecessor_band(const BandSink<int32_t>& f) const {
  if (!s_->predecessors) throw std::logic_error("the request asked for no predecessors");
  each_band_of(s_->predecessors.get(), s_->graph.n(), f);
}

}  // namespace apsp::harness
