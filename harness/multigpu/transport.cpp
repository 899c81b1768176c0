// The transport registry and the broadcast's argument check (harness/multigpu/transport.hpp).
#include "harness/multigpu/transport.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace apsp::harness {

namespace {

std::vector<TransportKind>& registered() {
  static std::vector<TransportKind> all;
  return all;
}

}  // namespace

TransportRegistrar::TransportRegistrar(TransportKind (*kind)()) { registered().push_back(kind()); }

const std::vector<TransportKind>& transports() {
  // Sorted on first use (every registrar has run by then: they run before main).
  static const std::vector<TransportKind> sorted = [] {
    std::vector<TransportKind> all = registered();
    std::sort(all.begin(), all.end(),
              [](const TransportKind& a, const TransportKind& b) { return a.name < b.name; });
    for (size_t i = 1; i < all.size(); ++i)
      if (all[i].name == all[i - 1].name)
        throw std::logic_error("transport '" + all[i].name + "' registered twice");
    return all;
  }();
  return sorted;
}

const TransportKind* find_transport(const std::string& name) {
  for (const TransportKind& k : transports())
    if (k.name == name) return &k;
  return nullptr;
}

std::string transport_names() {
  std::string names;
  for (const TransportKind& k : transports()) names += (names.empty() ? "" : ", ") + k.name;
  return names;
}

std::unique_ptr<Transport> make_transport(const std::string& name, int ranks, int device) {
  const TransportKind* k = find_transport(name);
  if (!k)
    throw std::invalid_argument("no transport named '" + name + "' (" + transport_names() + ")");
  return k->make(ranks, device);
}

bool transport_shares_device(const std::string& name) {
  const TransportKind* k = find_transport(name);
  return k && k->shares_device;
}

std::vector<int> Transport::local_ranks() const {
  std::vector<int> all(ranks());
  for (int r = 0; r < ranks(); ++r) all[r] = r;
  return all;
}

bool Transport::is_local(int rank) const {
  const std::vector<int> mine = local_ranks();
  return std::find(mine.begin(), mine.end(), rank) != mine.end();
}

void Transport::send(int, int, const void*, void*, size_t, cudaStream_t) {
  throw std::logic_error(name() + " transport: every rank is in this process");
}

namespace {
template <class T>
std::vector<T> gathered(Transport& t, T mine) {
  std::string bytes(sizeof mine, '\0');
  std::memcpy(bytes.data(), &mine, sizeof mine);
  std::vector<T> all;
  for (const std::string& b : t.allgather(bytes)) {
    if (b.size() != sizeof mine)
      throw std::runtime_error(t.name() + ": a process sent a bad value");
    T x;
    std::memcpy(&x, b.data(), sizeof x);
    all.push_back(x);
  }
  return all;
}
}  // namespace

uint64_t min_across(Transport& t, uint64_t mine) {
  if (t.processes() == 1) return mine;
  const std::vector<uint64_t> all = gathered(t, mine);
  return *std::min_element(all.begin(), all.end());
}

int64_t max_across(Transport& t, int64_t mine) {
  if (t.processes() == 1) return mine;
  const std::vector<int64_t> all = gathered(t, mine);
  return *std::max_element(all.begin(), all.end());
}

double max_across(Transport& t, double mine) {
  if (t.processes() == 1) return mine;
  const std::vector<double> all = gathered(t, mine);
  return *std::max_element(all.begin(), all.end());
}

void check_broadcast_arguments(const Transport& t, int root, const std::vector<void*>& buffers,
                               const std::vector<cudaStream_t>& streams) {
  const int p = t.ranks();
  if (root < 0 || root >= p || static_cast<int>(buffers.size()) != p ||
      static_cast<int>(streams.size()) != p)
    throw std::invalid_argument(t.name() + " broadcast: root " + std::to_string(root) + ", " +
                                std::to_string(buffers.size()) + " buffers and " +
                                std::to_string(streams.size()) + " streams for " +
                                std::to_string(p) + " ranks");
}

}  // namespace apsp::harness
