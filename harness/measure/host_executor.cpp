#include "harness/measure/sampler.hpp"

namespace apsp::harness {

namespace {

class HostExecutor final : public LocalExecutor {
 public:
  void load(const DistMatrix& input) override { pristine_ = input; }

  void reserve(const Variant&, const Config&) override {}
  void restore() override { work_ = pristine_; }
  void flush_l2() override {}
  void run(const Variant& v, const Config& c, PhaseTimer*) override {
    v.run(work_.data(), work_.n(), c, nullptr, nullptr);
  }
  SampleClock& clock() override { return clock_; }

  DistMatrix output() override { return work_; }

  std::string certify(const InEdges& g) override { return certify_host(work_.view(), g); }

 private:
  DistMatrix pristine_, work_;
  HostClock clock_;
};

}  // namespace

std::unique_ptr<LocalExecutor> make_host_executor() { return std::make_unique<HostExecutor>(); }

}  // namespace apsp::harness
