#include "platform/stats.h"

#include <stdexcept>

#include "platform/units.h"

namespace tessera {

Histogram::Histogram(uint64_t bucket_width, size_t buckets)
    : width_(bucket_width ? bucket_width : 1), buckets_(buckets ? buckets : 1, 0) {
  shift_ = (width_ & (width_ - 1)) == 0 ? static_cast<int>(log2_of(width_)) : -1;
}

void StatGroup::claim(const std::string& name) {
  if (docs_.count(name)) throw std::logic_error("statistic '" + path_ + "." + name + "' registered twice");
  order_.push_back(name);
}

Counter& StatGroup::counter(const std::string& name, const std::string& doc) {
  claim(name);
  docs_[name] = doc;
  counters_.emplace_back(name, Counter{});
  return counters_.back().second;
}

Scalar& StatGroup::scalar(const std::string& name, const std::string& doc) {
  claim(name);
  docs_[name] = doc;
  scalars_.emplace_back(name, Scalar{});
  return scalars_.back().second;
}

Histogram& StatGroup::histogram(const std::string& name, const std::string& doc, uint64_t bucket_width,
                                size_t buckets) {
  claim(name);
  docs_[name] = doc;
  histograms_.emplace_back(name, Histogram(bucket_width, buckets));
  return histograms_.back().second;
}

uint64_t StatGroup::counter_value(const std::string& name) const {
  for (const auto& c : counters_)
    if (c.first == name) return c.second.value;
  return 0;
}

nlohmann::ordered_json StatGroup::to_json() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& name : order_) {
    for (const auto& c : counters_)
      if (c.first == name) out[name] = c.second.value;
    for (const auto& s : scalars_)
      if (s.first == name) out[name] = s.second.value;
    for (const auto& h : histograms_) {
      if (h.first != name) continue;
      const Histogram& hist = h.second;
      out[name] = {{"count", hist.count()},
                   {"mean", hist.mean()},
                   {"max", hist.max()},
                   {"bucket_width", hist.bucket_width()},
                   {"buckets", hist.buckets()}};
    }
  }
  return out;
}

void StatGroup::reset() {
  for (auto& c : counters_) c.second.value = 0;
  for (auto& s : scalars_) s.second.value = 0;
  for (auto& h : histograms_) h.second = Histogram(h.second.bucket_width(), h.second.buckets().size());
}

StatGroup& StatRegistry::group(const std::string& path) {
  auto it = by_path_.find(path);
  if (it != by_path_.end()) return *it->second;
  groups_.emplace_back(path);
  by_path_[path] = &groups_.back();
  return groups_.back();
}

const StatGroup* StatRegistry::find(const std::string& path) const {
  auto it = by_path_.find(path);
  return it == by_path_.end() ? nullptr : it->second;
}

std::vector<const StatGroup*> StatRegistry::groups() const {
  std::vector<const StatGroup*> out;
  for (const auto& g : groups_) out.push_back(&g);
  return out;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '.' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

nlohmann::ordered_json StatRegistry::to_json() const {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  for (const auto& g : groups_) {
    nlohmann::ordered_json* node = &root;
    for (const auto& part : split_path(g.path())) node = &(*node)[part];
    const nlohmann::ordered_json values = g.to_json();
    for (auto& [k, v] : values.items()) (*node)[k] = v;
  }
  return root;
}

}  // namespace tessera
