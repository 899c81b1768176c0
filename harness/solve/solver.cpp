#include "harness/solve/solver.hpp"

#include <fmt/format.h>

#include <charconv>
#include <future>
#include <new>
#include <optional>
#include <stdexcept>
#include <variant>

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

// The parts of one request, from the input to the outputs. The order matters on the way out:
// the background's warm-up reads the choice, and a device's result the graph.

// The request, and what its checks made of it.
struct Asked {
  SolveRequest r;
  Choice choice;                    // the variant asked for, and the database auto reads
  UserKernels user_kernel;          // the request's kernel file: compiled before the input is read
  std::vector<int64_t> source_ids;  // the request's sources, the file's ids
};

// Where this process solves, and under a launcher (harness/multigpu/launch.hpp) its part of the
// world: process 0 alone says and writes, the others take part in every collective step.
struct Placement {
  bool device = false;  // the solve runs on a GPU
  std::optional<LaunchWorld> world;
  int home_device = 0;  // this process's GPU: its local rank's, or 0
  bool speaks() const { return !world || world->rank == 0; }
};

// The input, and what is known of it before the solve.
struct Input {
  SolveInput graph;  // read from the file, or the request's
  size_t bytes = 0;
  int64_t max_weight = 0;      // the largest edge weight (self loops left out)
  int64_t distance_floor = 0;  // a lower bound of the largest distance (0: none known)
  bool wide_only = false;      // weights int32 does not take: the 64-bit path alone
  std::pair<int, int> path;    // the request's path, as vertices
  std::vector<int> sources;    // the request's sources, as rows (all when empty)
};

// What runs while the input is read: the CUDA context, the ranks, the warm-up.
struct Background {
  std::shared_future<void> context;
  std::future<std::unique_ptr<Transport>> transport;  // several GPUs: the ranks
  std::future<void> warmed;  // warm_up(), waited for before the timed solve
};

// The answers besides the distances, and what was written.
struct Answers {
  NextHops hops;
  std::unique_ptr<int32_t[]> predecessors;  // n x n, when asked for
  std::string summary_lines;                // when asked for, once computed
  uint64_t distances_bytes = 0;
};

struct Solver::State {
  Asked ask;
  Placement at;
  Input in;
  Background background;
  NamedConfig chosen;                     // a GPU solve's variant and config
  std::optional<SolvedDistances> result;  // after the solve: where the distances are
  Answers out;
  SolveTiming t;

  const SolveRequest& r() const { return ask.r; }
  void say(const std::string& line) const {
    if (ask.r.log && at.speaks()) ask.r.log(with_field_names(line, ask.r.names));
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
  s.ask.user_kernel = register_user_kernels({s.r().kernel}, {}, Target::kDevice, compile);
  const std::string& name = s.ask.user_kernel.variants.front()->name;
  if (s.r().variant != "auto" && s.r().variant.substr(0, s.r().variant.find('[')) != name)
    throw std::invalid_argument(fmt::format("{} {} and {} {} disagree", mention("kernel"),
                                            s.r().kernel, mention("variant"), s.r().variant));
  if (s.r().variant == "auto") s.ask.r.variant = name;
}

// The outputs, before anything is compiled or read: each can be written, and none is another
// or one of the files read. Throws std::invalid_argument (one line).
void check_outputs(const SolveRequest& r) {
  const std::pair<const std::optional<std::string>&, const char*> outputs[] = {
      {r.distances_to, "distances_to"},
      {r.next_hops_to, "next_hops_to"},
      {r.row_ids_to, "row_ids_to"},
      {r.per_vertex_to, "per_vertex_to"},
      {r.summary_json_to, "summary_json_to"}};
  std::vector<FileUse> files;
  for (const auto& [path, field] : outputs) {
    if (path) check_output_path(*path, mention(field), /*dash_is_stdout=*/true);
    files.push_back({path.value_or(""), mention(field)});
  }
  files.push_back({sources_file(r.sources), mention("sources"), /*output=*/false});
  files.push_back({r.input, "the input", /*output=*/false});
  files.push_back({r.kernel, mention("kernel"), /*output=*/false});
  files.push_back({r.db_path, mention("db_path"), /*output=*/false});
  check_distinct_files(files);
}

// The request's database (db_path), read and checked whole whatever solves (the CPU too); its
// note (a migrated database) said. Throws std::invalid_argument, one line naming the field and
// the file.
std::shared_ptr<const TuningDb> read_database(const Solver::State& s) {
  if (s.r().db_path.empty()) return nullptr;
  try {
    std::string note;
    auto db = std::make_shared<const TuningDb>(TuningDb::load_existing(s.r().db_path, &note));
    if (!note.empty()) s.say(note);
    return db;
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("{} {}", mention("db_path"), e.what()));
  }
}

// The request among itself, before the input is read; throws std::invalid_argument (one line).
void check_request(Solver::State& s) {
  check_outputs(s.ask.r);
  std::shared_ptr<const TuningDb> db = read_database(s);
  if (!s.r().kernel.empty()) compile_kernel(s);
  s.ask.choice = asked_variant(s.ask.r);
  s.ask.choice.db = std::move(db);
  if (!s.r().sources.empty()) s.ask.source_ids = parse_sources(s.r().sources);
  if (s.r().gpus > 1 && s.r().variant == "cpu")
    throw std::invalid_argument(
        fmt::format("{} and {} cpu disagree", mention("gpus"), mention("variant")));
  if (s.r().gpus > 1 && !s.r().kernel.empty())
    throw std::invalid_argument(
        fmt::format("{}: a {} runs on one GPU", mention("gpus"), mention("kernel")));
}

// The input read and parsed; meanwhile, for a GPU solve, the CUDA context is made and the chosen
// solve warmed up in the background (a few hundred milliseconds at V = 10000).
void read_input(Solver::State& s) {
  if (s.r().graph) {
    s.in.graph = *s.r().graph;
    return;
  }
  if (s.at.device)
    s.background.context = std::async(std::launch::async, [d = s.at.home_device] {
                             APSP_CUDA_CHECK(cudaSetDevice(d));
                             APSP_CUDA_CHECK(cudaFree(nullptr));
                           }).share();
  // NCCL's start-up (communicators, its bootstrap) beside the parse
  if (s.at.device && s.r().gpus > 1)
    s.background.transport =
        std::async(std::launch::async, [&r = s.ask.r, ctx = s.background.context] {
          ctx.wait();
          return make_transport(r.transport, r.gpus);
        });
  auto t0 = Clock::now();
  const std::string& input = s.r().input;
  const std::string source = input == "-" ? "<stdin>" : input;
  std::string note;
  const std::string text = [&] {
    const Doing doing(fmt::format("reading {}", input == "-" ? "standard input" : input));
    return gunzip_if_gzip(read_whole_input(input), source, 0, &note);
  }();
  if (!note.empty()) s.say(note);
  s.in.bytes = text.size();
  s.t.add("read", ms_since(t0));
  std::string why;
  const GraphFormat& format = choose_graph_format(s.r().input_format, input, text, &why);
  const int v = &format == &edges_graph_format() ? peek_vertex_count(text) : 0;
  if (s.at.device && v > 0 && s.r().warm_up) {
    s.background.warmed =
        std::async(std::launch::async,
                   [ctx = s.background.context, &choice = s.ask.choice, v, d = s.at.home_device] {
                     ctx.wait();
                     APSP_CUDA_CHECK(cudaSetDevice(d));
                     warm_up(choice, v);
                   });
  }
  t0 = Clock::now();
  s.in.graph = SolveInput(
      parse_graph(format, why, text, source, 0, [&](const std::string& line) { s.say(line); }));
  s.t.add("parse", ms_since(t0));
}

// The variant for one GPU or several, fitted to the device: beside the solve's buffer, at its
// peak, the edges while the matrix is built, the certificate, or the next hops with a compact
// copy of the distances.
NamedConfig choose_device_solve(Solver::State& s, const Choice& choice, int64_t max_weight) {
  const int n = s.in.graph.n();
  const Log& log = s.r().log;
  if (s.r().gpus > 1) {
    uint64_t beside = s.in.graph.device_build_bytes();
    if (s.r().verify) beside = std::max(beside, rank_certificate_bytes(n, s.in.graph.edge_count()));
    if (s.r().summary) beside = std::max(beside, reduction_device_bytes(n));
    const int gathered = s.out.hops.wanted() || s.r().predecessors ? 3 : 0;
    return choose_for_gpus(choice, query_device(), n, s.r().gpus, s.r().transport, beside, gathered,
                           log);
  }
  const auto beside = [&](int pitch) {
    uint64_t most = s.in.graph.device_build_bytes();
    if (s.r().verify) most = std::max(most, device_certificate_bytes(n, s.in.graph.edge_count()));
    if (s.r().predecessors)
      most = std::max(most, (pitch != n ? matrix_bytes(n) : 0) +
                                predecessors_device_bytes(n, s.in.graph.edge_count()));
    if (s.out.hops.wanted())
      most = std::max(
          most, (pitch != n ? 2 : 1) * matrix_bytes(n) + next_hops_device_bytes(s.out.hops.edges));
    if (s.r().summary) most = std::max(most, reduction_device_bytes(n));
    return most;
  };
  return choose(choice, query_device(), n, max_weight, s.in.distance_floor, beside, log);
}

// Before auto tries 16 bits where nothing proves them beforehand: the largest distance bounded
// from below by one sweep (core/precision.hpp, largest_distance_floor), so that a graph whose
// 16-bit proof cannot hold (a road graph's long distances) is solved once, in int32.
void bound_largest_distance(Solver::State& s) {
  if (s.ask.choice.asked || s.r().gpus > 1 || s.r().graph || s.in.wide_only) return;
  if (!weights_fit(kPrecisionU16x2, s.in.max_weight).empty()) return;
  if (u16_admission(s.in.graph.n(), s.in.max_weight).empty()) return;  // proven before the solve
  const auto t0 = Clock::now();
  const DistanceFloor f = largest_distance_floor(s.in.graph.edges(), kInf16 - s.in.max_weight);
  s.t.add("distance floor", ms_since(t0));
  s.in.distance_floor = f.distance;
  if (exactness_fault(f.distance, s.in.max_weight, kInf16).empty()) return;
  s.say(fmt::format(
      "not 16 bits: vertex {} reaches a vertex {} or more away, which with the largest weight {} "
      "reaches the 16-bit unreachable value {}, so their proof could not hold (one sweep, "
      "{:.1f} ms)",
      f.source, f.distance, s.in.max_weight, kInf16, ms_since(t0)));
}

// The matrix solved on the GPU with the chosen config, kept there.
OnGpu solve_on_device(Solver::State& s) {
  OnGpu on{std::make_unique<DeviceSolve>(s.in.graph, *s.chosen.variant, s.chosen.config)};
  if (s.background.warmed.valid()) {
    const auto t0 = Clock::now();
    s.background.warmed.get();
    s.t.add("wait: warm-up", ms_since(t0));
  }
  const DeviceSolve::Times times = on.solve->run();
  s.t.add("build matrix (GPU)", times.build_ms);
  s.t.add("solve", times.solve_ms);
  return on;
}

OnHost solve_on_host(Solver::State& s) {
  const int n = s.in.graph.n();
  const int threads = s.r().threads;
  s.say(fmt::format("{}: solving on the CPU ({} threads)",
                    s.r().variant == "cpu" ? mention("variant") + " cpu" : "no CUDA device",
                    threads > 0 ? threads : hardware_threads()));
  auto t0 = Clock::now();
  OnHost on{[&] {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", n), matrix_bytes(n));
    return s.in.graph.host_adjacency();
  }()};
  s.t.add("build matrix", ms_since(t0));
  t0 = Clock::now();
  solve_on_cpu(on.d, threads, s.r().log);
  s.t.add("solve (CPU)", ms_since(t0));
  return on;
}

// The ranks of a multi-GPU solve: those started beside the parse, or a solve's before it.
std::unique_ptr<Transport> started_transport(Solver::State& s) {
  if (s.background.transport.valid()) {
    const auto t0 = Clock::now();
    std::unique_ptr<Transport> t = s.background.transport.get();
    s.t.add(fmt::format("wait: start {} ranks", s.r().gpus), ms_since(t0));
    return t;
  }
  if (auto* before = s.result ? std::get_if<OnRanks>(&*s.result) : nullptr)
    return MultiGpuSolve::release(std::move(before->solve));
  return make_transport(s.r().transport, s.r().gpus);
}

// The solve over several GPUs; the next hops and the predecessors read the whole matrix, which
// is then gathered on the host.
OnRanks solve_on_ranks(Solver::State& s) {
  OnRanks on{solve_on_gpus(s.in.graph, s.chosen, started_transport(s), s.t), std::nullopt};
  if (s.out.hops.wanted() || s.r().predecessors) on.gathered = gather(*on.solve, s.t);
  return on;
}

// The next hops the request asks for, from the result where it is.
void find_next_hops(Solver::State& s) {
  s.out.hops.matrix.reset();
  s.out.hops.column.clear();
  if (s.out.hops.wanted()) next_hops_of(*s.result, s.out.hops, s.r().threads, s.t);
}

void solve(Solver::State& s) {
  if (s.r().gpus > 1) {
    s.result = solve_on_ranks(s);
  } else if (s.at.device) {
    s.result = solve_on_device(s);
  } else {
    s.result = solve_on_host(s);
  }
  find_next_hops(s);
}

// The shortest-path certificate on the result, where it is; throws std::runtime_error (one line)
// when it fails.
void verify(Solver::State& s) {
  const auto t0 = Clock::now();
  const InEdges in = InEdges::of(s.in.graph.edges());
  const std::string fault = certify(*s.result, in, s.r().threads);
  s.t.add("verify", ms_since(t0));
  if (!fault.empty())
    throw std::runtime_error("the result fails the shortest-path certificate: " + fault);
  s.say(fmt::format("verified: the shortest-path certificate holds ({:.1f} ms)", ms_since(t0)));
}

// The predecessor matrix of the result.
void find_predecessors(Solver::State& s) {
  const auto t0 = Clock::now();
  const int n = s.in.graph.n();
  s.out.predecessors = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(n) * n);
  predecessors_of(*s.result, s.in.graph.edges(), s.out.predecessors.get(), s.r().threads);
  s.t.add("predecessors", ms_since(t0));
}

// The next hops to write, naming vertices as the file does: a SNAP list's ids in place of rows,
// a band at a time into `buf`, where every id fits the matrix's int32 (else the rows, said:
// row_ids_to maps them). kNoHop stays.
RowSource next_hops_source(const Solver::State& s, std::vector<int32_t>& buf) {
  const int n = s.in.graph.n();
  const RowSource rows = RowSource::of(MatrixView{n, s.out.hops.matrix.get()});
  const std::vector<int64_t>& ids = s.in.graph.ids();
  if (ids.empty()) return rows;
  if (ids.front() < 0 || ids.back() > INT32_MAX) {
    s.say("the next hops name rows, not the file's ids, which pass int32: " +
          mention("row_ids_to") + " maps them");
    return rows;
  }
  const int band_rows = std::clamp(int((size_t{16} << 20) / (4 * std::max<size_t>(n, 1))), 1, n);
  buf.resize(static_cast<size_t>(band_rows) * n);
  return {n, band_rows, [&s, &buf, &ids, n](int first, int count) {
            const int32_t* from = s.out.hops.matrix.get() + static_cast<size_t>(first) * n;
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
  if (s.r().predecessors) throw std::runtime_error(mention("predecessors") + ": " + why);
  if (s.r().gpus > 1)
    throw std::runtime_error(fmt::format("{} {}: {}", mention("gpus"), s.r().gpus, why));
  if (!s.r().kernel.empty()) throw std::runtime_error(mention("kernel") + ": " + why);
  if (s.out.hops.wanted())
    check_host_matrices(s.in.graph.n(), 3, "the 64-bit distances and the next hops");
}

// The exact 64-bit path, proven; says which ran, and the proof's numbers.
void solve_and_prove_wide(Solver::State& s) {
  s.result.reset();
  s.out.hops.matrix.reset();
  s.out.hops.column.clear();
  const Variant* by = s.at.device ? wide_variant() : nullptr;
  s.result = OnHost64{solve_wide(s.in.graph, s.at.device, s.r().threads, s.r().log, s.t), by};
  const int64_t most = max_finite(*s.result, s.r().threads);
  const int64_t max_weight = s.in.max_weight;
  if (const std::string fault = exactness_fault(most, max_weight, kInf64); !fault.empty())
    throw std::runtime_error("the 64-bit result is not proven exact: " + fault);
  s.say(
      fmt::format("exact (int64): largest distance {} + largest weight {} = {} < {}, the "
                  "unreachable value, so no distance was clipped (proof: docs/graphs.md)",
                  most, max_weight, most + max_weight, kInf64));
  find_next_hops(s);
}

// What solved the result, in what precision (core/precision.hpp), on how many GPUs (0: the CPU).
struct SolvedBy {
  std::string solver, precision;
  int gpus = 0;
};
SolvedBy solved_by(const Solver::State& s) {
  return std::visit(
      Overloaded{[](const OnHost&) {
                   return SolvedBy{"cpu", kPrecisionInt32, 0};
                 },
                 [](const OnHost64& on) {
                   return on.by ? SolvedBy{on.by->name, kPrecisionInt64, 1}
                                : SolvedBy{"cpu", kPrecisionInt64, 0};
                 },
                 [&](const auto&) {
                   const Variant& v = *s.chosen.variant;
                   return SolvedBy{config_name(v.name, s.chosen.config), v.precision, s.r().gpus};
                 }},
      *s.result);
}

// "" when the result is proven exact (core/precision.hpp); the proof's line is said either way.
std::string prove_exact(Solver::State& s) {
  const auto t0 = Clock::now();
  const std::string precision = solved_by(s).precision;
  const int64_t most = max_finite(*s.result, s.r().threads), max_w = s.in.graph.max_weight();
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
  if (s.in.wide_only && !s.r().allow_64_bits)
    throw std::range_error("the weights pass int32's 1073741823, and int32 was asked for");
  if (s.in.wide_only) return solve_and_prove_wide(s);
  solve(s);
  std::string fault = prove_exact(s);
  if (!fault.empty() && solved_by(s).precision == kPrecisionU16x2) {
    s.say(fmt::format("the 16-bit result is not proven exact ({}): solving again in int32", fault));
    Choice wider = s.ask.choice;
    wider.asked.reset();
    wider.bare_name = false;
    s.result.reset();
    s.chosen = choose_device_solve(s, wider, kInf - 1);
    solve(s);
    fault = prove_exact(s);
  }
  if (fault.empty()) return;
  if (!s.r().allow_64_bits)
    throw std::range_error(fmt::format(
        "the distances pass int32's {} (unreachable), and int32 was asked for ({})", kInf, fault));
  s.say(fmt::format("the int32 result is not proven exact ({}): solving again in 64 bits", fault));
  check_wide_request(s);
  solve_and_prove_wide(s);
}

uint64_t write_output(const Solver::State& s, const std::string& path, const RowSource& m,
                      const std::string& what) {
  return write_matrix_output(path, m.n, m.band_rows, m.band, *s.r().format, s.r().threads, what);
}

// The contest's text format holds distances below 1073741823 and saturates the others to it, as
// the contest's reference does (core/matrix_io.hpp): said, with how many pairs and what writes
// them exactly. The rows written: `sources`, or all when empty.
void say_saturated(const Solver::State& s, const DistMatrix64& d, const std::vector<int>& sources) {
  if (s.r().format != &text_matrix_format()) return;
  const size_t n = static_cast<size_t>(d.n());
  uint64_t saturated = 0;
  if (sources.empty()) saturated = count_saturated(d.data(), n * n, s.r().threads);
  for (const int i : sources) saturated += count_saturated(d.row(i), n, 1);
  if (saturated == 0) return;
  s.say(fmt::format(
      "{} pairs have distances of {} or more, which the contest's text format cannot hold: "
      "written as {} (saturated, as the contest's reference does, so they read as unreachable); "
      "{} npy or bin writes every distance exactly",
      saturated, kInf, kInf, mention("format")));
}

// The distances (all, or the sources' rows), in the format's int64 form when the 64-bit path
// solved them.
uint64_t write_distances(Solver::State& s, const std::string& path) {
  const SolveRequest& r = s.r();
  if (!s.in.sources.empty()) {
    if (const auto* wide = std::get_if<OnHost64>(&*s.result))
      say_saturated(s, wide->d, s.in.sources);
    return write_source_rows(path, s.in.sources, *s.result, *r.format, r.threads);
  }
  return std::visit(
      Overloaded{[&](OnHost64& on) {
                   say_saturated(s, on.d, {});
                   const DistMatrix64& d = on.d;
                   return write_matrix_output64(
                       path, d.n(), std::max(d.n(), 1),
                       [&d](int first, int) { return d.row(first); }, *r.format, r.threads,
                       "the distances");
                 },
                 [&](auto&) { return write_output(s, path, rows_of(*s.result), "the distances"); }},
      *s.result);
}

bool is_stdout(const std::string& path) { return path.empty() || path == "-"; }

SolvedWith summary_solved_with(const Solver::State& s) {
  const SolvedBy by = solved_by(s);
  return {s.r().input, by.solver, by.precision, by.gpus > 0 ? query_device().name : "CPU", by.gpus};
}

// Under a launcher with more than one process, the request becomes this process's part of a
// solve over one GPU a process: gpus is the world's size, the process's GPU its local rank's,
// and only what the ranks do together is taken. Throws SolveError (one line).
void join_launched_world(Solver::State& s) {
  try {
    s.at.world = launch_world();
  } catch (const std::invalid_argument& e) {
    throw SolveError(SolveFault::kRefused, e.what());
  }
  if (!s.at.world || !s.at.device || s.r().transport != kDefaultTransport || s.r().graph) {
    s.at.world.reset();
    return;
  }
  const LaunchWorld& w = *s.at.world;
  if (s.r().gpus == 1 || s.r().gpus == kAllGpus) s.ask.r.gpus = w.size;
  if (const std::string why = gpus_per_process_problem(w, s.r().gpus); !why.empty())
    throw SolveError(SolveFault::kRefused, why);
  const std::string why = fmt::format(
      "under {} ({} processes) apsp solves, certifies ({}) and writes the distances; "
      "run it as one process with {} {} for ",
      w.launcher, w.size, mention("verify"), mention("gpus"), w.size);
  if (s.out.hops.wanted() || s.r().next_hops_to || s.r().path)
    throw SolveError(SolveFault::kRefused,
                     why + mention("next_hops_to") + " and " + mention("path"));
  if (s.r().predecessors || s.r().summary || !s.r().sources.empty() || !s.r().kernel.empty())
    throw SolveError(SolveFault::kRefused,
                     fmt::format("{}{}, {}, {}, {}", why, mention("predecessors"),
                                 mention("summary"), mention("sources"), mention("kernel")));
  if (w.rank != 0) s.ask.r.log = nullptr;  // every line of the run is process 0's
  s.at.home_device = w.local_rank % std::max(device_count(), 1);
  APSP_CUDA_CHECK(cudaSetDevice(s.at.home_device));
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
  const int n = s.in.graph.n();
  const std::vector<int64_t>& ids = s.in.graph.ids();
  if (const auto p = s.r().path) {
    for (const int64_t id : {p->first, p->second})
      if (vertex_of_id(id, ids, n) < 0)
        throw SolveError(SolveFault::kRefused,
                         fmt::format("{} {} {}: {}", mention("path"), p->first, p->second,
                                     no_such_vertex(id, ids, n, s.r().input)));
    s.in.path = {vertex_of_id(p->first, ids, n), vertex_of_id(p->second, ids, n)};
    s.out.hops.want_column = s.in.path.second;
  }
  for (const int64_t id : s.ask.source_ids) {
    const int v = vertex_of_id(id, ids, n);
    if (v < 0)
      throw SolveError(SolveFault::kRefused,
                       mention("sources") + ": " + no_such_vertex(id, ids, n, s.r().input));
    s.in.sources.push_back(v);
  }
}

// The file's id of each row, one a line (row_ids_to).
void write_row_ids(const Solver::State& s, const std::string& path) {
  std::string text;
  for (int v = 0; v < s.in.graph.n(); ++v)
    text += fmt::format("{}\n", id_of_vertex(v, s.in.graph.ids()));
  write_text_output(path, text);
}

// Another process's share of writing the distances: every band read in the writer's order, so
// that its ranks send their rows to process 0 (MultiGpuSolve::band).
void send_bands(Solver::State& s) {
  MultiGpuSolve& m = *std::get<OnRanks>(*s.result).solve;
  for (int first = 0; first < m.n(); first += m.band_rows())
    m.band(first, std::min(m.band_rows(), m.n() - first));
}

}  // namespace

Solver::Solver(SolveRequest request) : s_(std::make_unique<State>()) {
  s_->ask.r = std::move(request);
}
Solver::~Solver() = default;

void Solver::run() {
  check();
  read();
  solve_and_write();
}

void Solver::check() {
  State& s = *s_;
  s.at.device = s.r().variant != "cpu" && has_device();
  join_launched_world(s);  // first: under a launcher, gpus = all is the world's GPUs
  if (s.r().gpus == kAllGpus) s.ask.r.gpus = std::max(device_count(), 1);
  try {
    check_request(s);
  } catch (const std::invalid_argument& e) {
    throw SolveError(SolveFault::kRefused, e.what());
  }
  if (!s.at.device && s.r().variant != "cpu" && (s.r().variant != "auto" || s.r().gpus > 1))
    throw SolveError(SolveFault::kNoDevice,
                     fmt::format("no CUDA device for {}; {} cpu (or auto) solves on the CPU",
                                 s.r().gpus > 1 ? fmt::format("{} {}", mention("gpus"), s.r().gpus)
                                                : "variant " + s.r().variant,
                                 mention("variant")));
  const int present =
      transport_shares_device(s.r().transport) || s.at.world ? kMaxGpus : device_count();
  if (const std::string why = gpu_count_problem({s.r().gpus}, present);
      s.r().gpus > 1 && !why.empty())
    throw SolveError(SolveFault::kTooFewGpus, why + " (" + mention("gpus") + ")");
  // The CPU's rounds read every row: a path off the GPU takes the whole matrix.
  s.out.hops.want_matrix = s.r().next_hops_to || (s.r().path && !s.at.device);
  if (s.r().path) s.out.hops.want_column = s.r().path->second;
}

// A fault here is a refusal, before any solve; but memory that ran out while reading is a failure.
void Solver::read() {
  State& s = *s_;
  try {
    read_input(s);
    const int n = s.in.graph.n();
    find_request_vertices(s);
    s.in.max_weight = s.in.graph.max_weight();
    s.in.wide_only = !weights_fit(kPrecisionInt32, s.in.max_weight).empty();
    if (s.in.wide_only) check_wide_request(s);
    if (s.out.hops.wanted()) s.out.hops.edges = OutEdges::of(s.in.graph.edges());
    if (s.at.device && !s.in.wide_only) {
      bound_largest_distance(s);
      s.chosen = choose_device_solve(s, s.ask.choice, s.in.max_weight);
    } else if (s.out.hops.wanted())
      check_host_matrices(n, 2, "the distances and the next hops");
    // The result's matrix, and on the host two more the rule works in (harness/solve/paths.cpp);
    // the edges, listed from a matrix input (two copies at the peak of the listing), grouped by
    // destination (a vertex and a weight each).
    if (s.r().predecessors)
      check_host_matrices(n, s.at.device && !s.in.wide_only ? 1 : 3,
                          "the predecessors and their edges",
                          s.in.graph.edge_count() * (2 * sizeof(Edge) + 2 * sizeof(int32_t)));
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
    if (s.r().verify) verify(s);
    if (s.r().predecessors) find_predecessors(s);
    if (s.r().summary)
      s.out.summary_lines =
          answer_summary(s.ask.r, *s.result, s.in.graph.edge_count(), s.in.graph.ids(),
                         summary_solved_with(s), s.t, to_stdout);
    if (s.r().distances_to && !s.at.speaks()) {
      send_bands(s);
    } else if (s.r().distances_to) {
      const auto t0 = Clock::now();
      to_stdout = is_stdout(*s.r().distances_to);
      s.out.distances_bytes = write_distances(s, *s.r().distances_to);
      s.t.add("write", ms_since(t0));
    }
    if (s.r().next_hops_to) {
      const auto t0 = Clock::now();
      to_stdout = is_stdout(*s.r().next_hops_to);
      std::vector<int32_t> buf;
      write_output(s, *s.r().next_hops_to, next_hops_source(s, buf), "the next hops");
      s.t.add("write next hops", ms_since(t0));
    }
    if (s.r().row_ids_to) {
      to_stdout = is_stdout(*s.r().row_ids_to);
      write_row_ids(s, *s.r().row_ids_to);
    }
  } catch (const std::range_error&) {
    throw;  // int32 asked for, and the distances need more (SolveRequest::allow_64_bits)
  } catch (const std::exception& e) {
    throw SolveError(SolveFault::kFailed, (to_stdout ? "standard output: " : "") + failure_text(e));
  }
}

std::string Solver::path_line() const {
  State& s = *s_;
  const auto [src, target] = s.in.path;
  const int n = s.in.graph.n();
  const std::vector<int32_t> path =
      follow_hops(s.out.hops.column_of(n, target).data(), n, src, target);
  const int64_t length = distance_at(*s.result, src, target);
  std::vector<int64_t> ids;
  for (const int32_t v : path) ids.push_back(id_of_vertex(v, s.in.graph.ids()));
  return describe_path(s.r().path->first, s.r().path->second, ids, length);
}

const SolveTiming& Solver::timing() const { return s_->t; }
bool Solver::speaks() const { return s_->at.speaks(); }
int Solver::vertices() const { return s_->in.graph.n(); }
size_t Solver::edges() const { return s_->in.graph.edge_count(); }
size_t Solver::input_bytes() const { return s_->in.bytes; }
uint64_t Solver::distances_bytes() const { return s_->out.distances_bytes; }
const std::string& Solver::summary_lines() const { return s_->out.summary_lines; }

bool Solver::wide() const { return is_wide(*s_->result); }
std::string Solver::precision() const { return solved_by(*s_).precision; }
std::string Solver::solved_with() const { return solved_by(*s_).solver; }

Solver::OnDevice Solver::on_device() const {
  const auto* on = std::get_if<OnGpu>(&*s_->result);
  if (!on) return {};
  return {on->solve->matrix(), on->solve->pitch()};
}

namespace {
template <class T>
void each_band_of(const T* rows, int n, const Solver::BandSink<T>& f) {
  if (n > 0) f(0, n, rows);
}
}  // namespace

void Solver::each_band(const BandSink<int32_t>& f) const {
  const RowSource m = rows_of(*s_->result);
  for (int first = 0; first < m.n; first += m.band_rows) {
    const int count = std::min(m.band_rows, m.n - first);
    f(first, count, m.band(first, count));
  }
}

void Solver::each_band64(const BandSink<int64_t>& f) const {
  const auto* wide = std::get_if<OnHost64>(&*s_->result);
  if (!wide) throw std::logic_error("the distances are int32's: each_band");
  each_band_of(wide->d.data(), wide->d.n(), f);
}

void Solver::each_predecessor_band(const BandSink<int32_t>& f) const {
  if (!s_->out.predecessors) throw std::logic_error("the request asked for no predecessors");
  each_band_of(s_->out.predecessors.get(), s_->in.graph.n(), f);
}

}  // namespace apsp::harness
