// harness/multigpu/rendezvous.hpp: a star of TCP connections around process 0.
#include "harness/multigpu/rendezvous.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace apsp::harness {

namespace {

using Clock = std::chrono::steady_clock;

// The largest message a process takes: far above what the processes exchange (an id, faults,
// the certificate's essential edges), so that a length read from a stranger on the port is a
// one-line error rather than an allocation of whatever it says.
constexpr uint64_t kMaxMessageBytes = uint64_t{16} << 30;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("rendezvous: " + what); }

int64_t ms_left(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

// Waits until fd is readable (or writable); fails past the deadline.
void wait_for(int fd, short events, Clock::time_point deadline, const std::string& what) {
  for (;;) {
    const int64_t left = ms_left(deadline);
    if (left <= 0) fail("timed out waiting for " + what);
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1000)));
    if (r > 0) return;
    if (r < 0 && errno != EINTR) fail(what + ": " + std::strerror(errno));
  }
}

void send_all(int fd, const void* data, size_t bytes, const std::string& peer) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("sending to " + peer + ": " + std::strerror(errno));
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void recv_all(int fd, void* data, size_t bytes, Clock::time_point deadline,
              const std::string& peer) {
  char* p = static_cast<char*>(data);
  while (bytes > 0) {
    wait_for(fd, POLLIN, deadline, peer);
    const ssize_t n = ::recv(fd, p, bytes, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) fail(peer + " closed the connection (it stopped)");
    if (n < 0) fail("receiving from " + peer + ": " + std::strerror(errno));
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void send_message(int fd, const std::string& m, const std::string& peer) {
  const uint64_t size = m.size();
  send_all(fd, &size, sizeof size, peer);
  send_all(fd, m.data(), m.size(), peer);
}

std::string recv_message(int fd, Clock::time_point deadline, const std::string& peer) {
  uint64_t size = 0;
  recv_all(fd, &size, sizeof size, deadline, peer);
  if (size > kMaxMessageBytes)
    fail(peer + " sent a message of " + std::to_string(size) + " bytes (at most " +
         std::to_string(kMaxMessageBytes) + ")");
  std::string m(size, '\0');
  recv_all(fd, m.data(), size, deadline, peer);
  return m;
}

addrinfo* resolve(const LaunchWorld& w, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (passive) hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(w.port);
  if (const int e = ::getaddrinfo(passive ? nullptr : w.host.c_str(), port.c_str(), &hints, &found))
    fail(w.host + ":" + port + ": " + ::gai_strerror(e));
  return found;
}

void no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Process 0: listens on every address at the port, takes size - 1 connections, each announcing
// its rank.
std::vector<int> accept_peers(const LaunchWorld& w, Clock::time_point deadline) {
  addrinfo* a = resolve(w, true);
  int listener = -1;
  for (addrinfo* p = a; p && listener < 0; p = p->ai_next) {
    listener = ::socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
    if (listener < 0) continue;
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(listener, p->ai_addr, p->ai_addrlen) != 0 || ::listen(listener, 128) != 0) {
      ::close(listener);
      listener = -1;
    }
  }
  const int err = errno;
  ::freeaddrinfo(a);
  if (listener < 0)
    fail("process 0 cannot listen on port " + std::to_string(w.port) + ": " + std::strerror(err));
  std::vector<int> peers(w.size, -1);
  try {
    for (int got = 1; got < w.size; ++got) {
      wait_for(listener, POLLIN, deadline,
               std::to_string(w.size - got) + " more processes to connect to port " +
                   std::to_string(w.port));
      const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) fail(std::string("accept: ") + std::strerror(errno));
      no_delay(fd);
      int32_t rank = -1;
      recv_all(fd, &rank, sizeof rank, deadline, "a connecting process");
      if (rank <= 0 || rank >= w.size || peers[rank] >= 0) {
        ::close(fd);
        fail("a process announced rank " + std::to_string(rank) + " of " + std::to_string(w.size) +
             " (twice, or out of range)");
      }
      peers[rank] = fd;
    }
  } catch (...) {
    ::close(listener);
    for (int fd : peers)
      if (fd >= 0) ::close(fd);
    throw;
  }
  ::close(listener);
  return peers;
}

// Connects fd to a, waiting no later than the deadline (a host that never answers must not hold
// the process past it); false when refused or not connected in time.
bool connect_by(int fd, const addrinfo& a, Clock::time_point deadline) {
  const int flags = ::fcntl(fd, F_GETFL, 0);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return false;
  bool connected = ::connect(fd, a.ai_addr, a.ai_addrlen) == 0;
  if (!connected && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    connected =
        ::poll(&p, 1, static_cast<int>(std::clamp<int64_t>(ms_left(deadline), 0, 1000))) > 0 &&
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
  }
  return connected && ::fcntl(fd, F_SETFL, flags) == 0;
}

// Another process: connects to process 0, retrying while it is not listening yet.
int connect_to_root(const LaunchWorld& w, Clock::time_point deadline) {
  const std::string where = w.host + ":" + std::to_string(w.port);
  for (;;) {
    addrinfo* a = resolve(w, false);
    for (addrinfo* p = a; p; p = p->ai_next) {
      const int fd = ::socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
      if (fd < 0) continue;
      if (connect_by(fd, *p, deadline)) {
        ::freeaddrinfo(a);
        no_delay(fd);
        const int32_t rank = w.rank;
        send_all(fd, &rank, sizeof rank, "process 0");
        return fd;
      }
      ::close(fd);
    }
    ::freeaddrinfo(a);
    if (Clock::now() > deadline) fail("process 0 did not listen at " + where + " in time");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

Rendezvous::Rendezvous(const LaunchWorld& w, double timeout_s)
    : rank_(w.rank), size_(w.size), timeout_s_(timeout_s > 0 ? timeout_s : w.rendezvous_timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s_));
  if (rank_ == 0)
    peers_ = accept_peers(w, deadline);
  else
    peers_ = {connect_to_root(w, deadline)};
}

Rendezvous::~Rendezvous() {
  for (int fd : peers_)
    if (fd >= 0) ::close(fd);
}

std::vector<std::string> Rendezvous::allgather(const std::string& mine) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s_));
  std::vector<std::string> all(size_);
  if (rank_ == 0) {
    all[0] = mine;
    for (int r = 1; r < size_; ++r)
      all[r] = recv_message(peers_[r], deadline, "process " + std::to_string(r));
    std::string joined;
    for (const std::string& m : all) {
      const uint64_t size = m.size();
      joined.append(reinterpret_cast<const char*>(&size), sizeof size);
      joined += m;
    }
    for (int r = 1; r < size_; ++r) send_message(peers_[r], joined, "process " + std::to_string(r));
    return all;
  }
  send_message(peers_[0], mine, "process 0");
  const std::string joined = recv_message(peers_[0], deadline, "process 0");
  size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    uint64_t size = 0;
    if (at + sizeof size > joined.size()) fail("a short message from process 0");
    std::memcpy(&size, joined.data() + at, sizeof size);
    at += sizeof size;
    if (size > joined.size() - at) fail("a short message from process 0");
    all[r] = joined.substr(at, size);
    at += size;
  }
  return all;
}

std::string Rendezvous::broadcast(const std::string& data) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s_));
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) send_message(peers_[r], data, "process " + std::to_string(r));
    return data;
  }
  return recv_message(peers_[0], deadline, "process 0");
}

}  // namespace apsp::harness
