#include "models/cu/assist_compress_policy.h"

#include <algorithm>
#include <sstream>

namespace tessera {

std::vector<std::string> kernel_list(const std::string& list) {
  std::string spaced = list;
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  std::istringstream in(spaced);
  std::vector<std::string> out;
  for (std::string name; in >> name;) out.push_back(name);
  return out;
}

AssistCompressPolicy::AssistCompressPolicy(StatGroup& g, const CuConfig& cfg)
    : max_(cfg.assist_compress_counter),
      sample_(cfg.assist_compress_sample),
      off_(kernel_list(cfg.assist_compress_off)),
      static_skipped_(g.counter("assist_compress_static_skipped",
                                "whole-line stores of kernels named in assist_compress_off, sent uncompressed "
                                "without a compression assist warp")),
      policy_skipped_(g.counter("assist_compress_policy_skipped",
                                "whole-line stores sent uncompressed without a compression assist warp: their "
                                "kernel's counter of compression outcomes was at zero")),
      sampled_(g.counter("assist_compress_sampled",
                         "whole-line stores compressed with their kernel's counter at zero, to re-sample its data")),
      turned_off_(g.counter("assist_compress_turned_off",
                            "times a kernel's counter reached zero (its stores no longer compressed)")),
      turned_on_(g.counter("assist_compress_turned_on",
                           "times a re-sampled line compressed and turned its kernel's compression back on")) {}

AssistCompressPolicy::Kernel& AssistCompressPolicy::state(const std::string& kernel) {
  auto it = kernels_.find(kernel);
  if (it == kernels_.end()) it = kernels_.emplace(kernel, Kernel{max_, 0}).first;
  return it->second;
}

bool AssistCompressPolicy::deploy(const std::string& kernel) {
  if (!off_.empty() && std::find(off_.begin(), off_.end(), kernel) != off_.end()) {
    ++static_skipped_;
    return false;
  }
  if (max_ == 0) return true;
  Kernel& k = state(kernel);
  if (k.counter > 0) return true;
  if (++k.skipped >= sample_) {
    k.skipped = 0;
    ++sampled_;
    return true;
  }
  ++policy_skipped_;
  return false;
}

void AssistCompressPolicy::outcome(const std::string& kernel, bool compressed) {
  if (max_ == 0) return;
  Kernel& k = state(kernel);
  if (compressed) {
    if (k.counter == 0) ++turned_on_;
    k.counter = std::min(max_, k.counter + 1);
  } else if (k.counter > 0 && --k.counter == 0) {
    k.skipped = 0;
    ++turned_off_;
  }
}

unsigned AssistCompressPolicy::counter(const std::string& kernel) const {
  const auto it = kernels_.find(kernel);
  return it == kernels_.end() ? max_ : it->second.counter;
}

}  // namespace tessera
