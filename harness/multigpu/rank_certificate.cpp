// harness/multigpu/rank_certificate.hpp: the certificate over the ranks' row blocks.
#include "harness/multigpu/rank_certificate.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace apsp::harness {

namespace {

template <class T>
void append(std::string& out, const std::vector<T>& v) {
  const uint64_t count = v.size();
  out.append(reinterpret_cast<const char*>(&count), sizeof count);
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <class T>
std::vector<T> take(const std::string& in, size_t& at) {
  uint64_t count = 0;
  if (at + sizeof count > in.size()) throw std::runtime_error("certificate: a short message");
  std::memcpy(&count, in.data() + at, sizeof count);
  at += sizeof count;
  if (count > (in.size() - at) / sizeof(T))
    throw std::runtime_error("certificate: a short message");
  std::vector<T> v(count);
  std::memcpy(v.data(), in.data() + at, count * sizeof(T));
  at += count * sizeof(T);
  return v;
}

// A process's essential edges (one part per local rank) as bytes for the allgather, and back.
std::string pack(const std::vector<InEdges>& parts) {
  std::string out;
  for (const InEdges& p : parts) {
    append(out, p.start);
    append(out, p.from);
    append(out, p.weight);
  }
  return out;
}

void unpack(const std::string& in, int n, std::vector<InEdges>& parts) {
  for (size_t at = 0; at < in.size();) {
    InEdges& p = parts.emplace_back();
    p.n = n;
    p.start = take<int64_t>(in, at);
    p.from = take<int32_t>(in, at);
    p.weight = take<int32_t>(in, at);
    if (p.start.size() != static_cast<size_t>(n) + 1 || p.from.size() != p.weight.size() ||
        static_cast<size_t>(p.start.back()) != p.from.size())
      throw std::runtime_error("certificate: a process sent malformed essential edges");
  }
}

// G': every local rank's essential edges and every other process's, joined in rank order.
InEdges joined_essential(Transport& t, const std::vector<InEdges>& local, const InEdges& g) {
  if (t.processes() == 1) return join_in_edges(local, g.zero);
  std::vector<InEdges> all;
  for (const std::string& bytes : t.allgather(pack(local))) unpack(bytes, g.n, all);
  return join_in_edges(all, g.zero);
}

// The fault's line, from the process whose rank owns its row.
std::string described(const DistributedSolver& solver, const InEdges& g, uint64_t key) {
  const Partition& p = solver.partition();
  const int s = decode_fault(key, g.n).s, owner = p.owner(s / p.tile);
  std::string line;
  if (solver.transport().is_local(owner)) {
    DeviceGuard guard(solver.transport().device(owner));
    line = describe_device_fault(
        solver.block(owner) + static_cast<size_t>(s - p.first_row(owner)) * p.pitch, g, key);
  }
  if (solver.transport().processes() == 1) return line;
  for (const std::string& l : solver.transport().allgather(line))
    if (!l.empty()) return l;
  throw std::runtime_error("certificate: no process described the fault");
}

}  // namespace

std::string certify_ranks(const DistributedSolver& solver, const InEdges& g) {
  const Partition& p = solver.partition();
  Transport& t = solver.transport();
  const int P = p.ranks;
  std::vector<std::unique_ptr<InEdges>> parts(P);
  std::vector<std::unique_ptr<DeviceCertificate>> certs(P);
  std::vector<uint64_t> fault(P, kNoFault);
  on_local_ranks(solver, [&](int r) {
    parts[r] = std::make_unique<InEdges>(rank_in_edges(g, p.first_row(r), p.real_rows(r)));
    certs[r] = std::make_unique<DeviceCertificate>(*parts[r]);
    fault[r] = certs[r]->first_pass(solver.block(r), p.pitch, p.first_row(r), solver.stream(r));
  });
  uint64_t first = min_across(t, *std::min_element(fault.begin(), fault.end()));
  if (first == kNoFault) {
    std::vector<InEdges> kept;
    for (int r = 0; r < P; ++r) {
      if (!certs[r]) continue;
      DeviceGuard guard(t.device(r));
      kept.push_back(certs[r]->essential());
    }
    const InEdges essential = joined_essential(t, kept, g);
    kept.clear();
    on_local_ranks(solver, [&](int r) {
      certs[r]->use_essential(essential);
      fault[r] = certs[r]->check_rows(solver.block(r), p.pitch, p.first_row(r), p.real_rows(r),
                                      solver.stream(r));
    });
    first = min_across(t, *std::min_element(fault.begin(), fault.end()));
  }
  for (int r = 0; r < P; ++r) {
    if (!certs[r]) continue;
    DeviceGuard guard(t.device(r));
    certs[r].reset();  // on its own device
  }
  return first == kNoFault ? "" : described(solver, g, first);
}

uint64_t rank_certificate_bytes(int n, uint64_t edges) {
  return device_certificate_bytes(n, edges);
}

}  // namespace apsp::harness
