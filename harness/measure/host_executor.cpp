#include <chrono>

#include "harness/measure/executor.hpp"

namespace apsp::harness {

namespace {

class HostExecutor final : public Executor {
 public:
  void load(const DistMatrix& input) override { pristine_ = input; }

  double sample(const Variant& v, const Config& c, bool) override {
    work_ = pristine_;
    const auto t0 = std::chrono::steady_clock::now();
    v.run(work_.data(), work_.n(), c, nullptr, nullptr);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  DistMatrix output() override { return work_; }

  std::string certify(const InEdges& g) override { return certify_host(work_.view(), g); }

  double sample_graph(const std::string&, const Variant& v, const Config& c, bool flush) override {
    return sample(v, c, flush);
  }

  std::array<double, 4> phases(const Variant& v, const Config& c) override {
    sample(v, c, false);
    return {};
  }

 private:
  DistMatrix pristine_, work_;
};

}  // namespace

std::unique_ptr<Executor> make_host_executor() { return std::make_unique<HostExecutor>(); }

}  // namespace apsp::harness
