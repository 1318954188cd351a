#include "runtime/engine/regions.h"

#include <algorithm>
#include <string>

namespace gentt::engine {

namespace {

class RegionBlocks final : public PreparedBlocks {
 public:
  explicit RegionBlocks(std::vector<RegionRun> regions) : regions_(std::move(regions)) {
    for (const auto& r : regions_) {
      starts_.push_back(total_);
      total_ += r.blocks->iterations();
    }
  }
  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    for (std::size_t k = 0; k < regions_.size() && begin < end; ++k) {
      const std::int64_t start = starts_[k], n = regions_[k].blocks->iterations();
      const std::int64_t lo = std::max(begin, start), hi = std::min(end, start + n);
      if (lo < hi) regions_[k].blocks->run(in + regions_[k].in_offset, out + regions_[k].out_offset, lo - start, hi - start);
    }
  }
  std::int64_t iterations() const override { return total_; }
  std::string describe() const override {
    return regions_.front().blocks->describe() + " (" + std::to_string(regions_.size()) +
           " loop nests: full tiles and remainders)";
  }

 private:
  std::vector<RegionRun> regions_;
  std::vector<std::int64_t> starts_;
  std::int64_t total_ = 0;
};

}  // namespace

std::unique_ptr<PreparedBlocks> join_regions(std::vector<RegionRun> regions) {
  return std::make_unique<RegionBlocks>(std::move(regions));
}

}  // namespace gentt::engine
