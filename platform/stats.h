// Statistics: every block owns a StatGroup named by its netlist path
// ("chiplet[2].l2"); counters, scalars and histograms register in it by name.
// At the end of a run StatRegistry::to_json() nests them by path and the
// driver writes them with --stats and summarises them on stdout.
// Updating a counter is a plain integer add: nothing is looked up at run time.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessera {

struct Counter {
  uint64_t value = 0;
  void operator+=(uint64_t n) { value += n; }
  void operator++() { ++value; }
};

struct Scalar {
  double value = 0;
};

// Fixed-width buckets [0,w), [w,2w), ...; the last bucket also counts overflow.
class Histogram {
 public:
  Histogram(uint64_t bucket_width, size_t buckets);
  // Inline: caches and compute units sample on every request.
  void sample(uint64_t v, uint64_t weight = 1) {
    size_t i = static_cast<size_t>(shift_ >= 0 ? v >> shift_ : v / width_);
    if (i >= buckets_.size()) i = buckets_.size() - 1;
    buckets_[i] += weight;
    count_ += weight;
    sum_ += v * weight;
    if (v > max_) max_ = v;
  }
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  uint64_t max() const { return max_; }
  const std::vector<uint64_t>& buckets() const { return buckets_; }
  uint64_t bucket_width() const { return width_; }

 private:
  uint64_t width_;
  int shift_ = 0;  // log2(width_) when it is a power of two, else -1
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

class StatGroup {
 public:
  explicit StatGroup(std::string path) : path_(std::move(path)) {}
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  // References stay valid for the group's lifetime. Registering a name twice is a bug.
  Counter& counter(const std::string& name, const std::string& doc);
  Scalar& scalar(const std::string& name, const std::string& doc);
  Histogram& histogram(const std::string& name, const std::string& doc, uint64_t bucket_width,
                       size_t buckets);

  const std::string& path() const { return path_; }
  uint64_t counter_value(const std::string& name) const;  // 0 when there is no such counter
  nlohmann::ordered_json to_json() const;  // {"hits": 12, "latency": {"mean":..., ...}}
  void reset();                            // zero every value

 private:
  void claim(const std::string& name);
  std::string path_;
  std::vector<std::string> order_;
  std::map<std::string, std::string> docs_;
  std::deque<std::pair<std::string, Counter>> counters_;
  std::deque<std::pair<std::string, Scalar>> scalars_;
  std::deque<std::pair<std::string, Histogram>> histograms_;
};

// The groups of one platform. Owned by the platform, not a global, so that two
// platforms in one process never share statistics.
class StatRegistry {
 public:
  StatGroup& group(const std::string& path);  // created on first use
  const StatGroup* find(const std::string& path) const;
  // Nested by path: "chiplet[2].l2" -> {"chiplet[2]": {"l2": {...}}}.
  nlohmann::ordered_json to_json() const;
  std::vector<const StatGroup*> groups() const;

 private:
  std::deque<StatGroup> groups_;
  std::map<std::string, StatGroup*> by_path_;
};

// Splits "chiplet[2].l2.hits" at the dots that are not inside brackets.
std::vector<std::string> split_path(const std::string& path);

}  // namespace tessera
