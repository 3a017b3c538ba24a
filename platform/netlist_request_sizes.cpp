// The check that every request fits where it goes. A requester's requests
// each lie within one aligned block of its declared size (a compute unit's
// coalescer line, a cache's line for its fills and writebacks); a cache takes
// nothing that crosses one of its own lines, and a switch cannot route a
// request that straddles two chunks of an interleaved range. Found at run time
// these are faults on the first access; found here they are a netlist error
// naming both ends.
#include <set>

#include "models/cu/isa/hex.h"
#include "platform/errors.h"
#include "platform/netlist_builder.h"
#include "platform/units.h"

namespace tessera {
namespace {

struct Requester {
  std::string socket;  // "l1v[0].out"
  std::string param;   // the size parameter bounding its requests
  uint64_t bytes;
};

std::string format_size(uint64_t bytes) { return format_quantity(static_cast<double>(bytes), Quantity::Size); }

uint64_t size_param(const InstanceSpec& inst, const std::string& name) {
  return inst.params.at(name).get<uint64_t>();
}

std::string what_sends(const Requester& r) {
  return r.socket + " sends requests of up to " + format_size(r.bytes) + " (its " + r.param + ")";
}

// The switch's interleaved ranges must keep each aligned block of `r.bytes`
// within one chunk.
void check_interleave(const InstanceSpec& sw, const Requester& r, const std::string& via) {
  const json* map = sw.params.find("address_map");
  if (!map || !map->is_array()) return;
  for (const json& range : *map) {
    const uint64_t chunk = range.value("interleave", uint64_t{0});
    const uint64_t base = range.value("base", uint64_t{0});
    if (chunk == 0 || (chunk % r.bytes == 0 && base % r.bytes == 0)) continue;
    throw NetlistError(sw.error_path() + "/address_map",
                       sw.path + " interleaves a range in chunks of " + format_size(chunk) + " at base " +
                           hex(base) + ", but " + what_sends(r) + via +
                           ": such a request would straddle two chunks and find no route; make the interleave a "
                           "multiple of " + format_size(r.bytes) + " or the requester's size smaller");
  }
}

}  // namespace

void NetlistBuilder::check_request_sizes() {
  for (size_t n = 0; n < out_.bindings.size(); ++n) {
    const BindingSpec& b = out_.bindings[n];
    const InstanceSpec& inst = out_.instances[binding_ends_[n].first];
    const SocketSpec* spec = inst.type->socket(b.initiator.socket);
    if (!spec || spec->request_limit.empty()) continue;
    const Requester r{b.initiator.text(), spec->request_limit, size_param(inst, spec->request_limit)};
    if (!is_power_of_two(r.bytes)) continue;  // the block refuses it, with its own message, when built
    // Follow the binding, and through switches every output they may choose.
    std::set<size_t> seen;  // switches passed, by instance number
    std::vector<std::pair<size_t, std::string>> todo = {{n, ""}};  // binding number, the switches on the way
    for (size_t k = 0; k < todo.size(); ++k) {  // nearest first, outputs in order
      const auto [number, via] = todo[k];
      const BindingSpec& binding = out_.bindings[number];
      const size_t to = binding_ends_[number].second;
      const InstanceSpec& target = out_.instances[to];
      const SocketSpec* ts = target.type->socket(binding.target.socket);
      if (!ts) continue;
      if (!ts->request_limit.empty()) {
        const uint64_t limit = size_param(target, ts->request_limit);
        if (is_power_of_two(limit) && limit < r.bytes)
          throw NetlistError(target.error_path() + "/" + ts->request_limit,
                             target.path + " takes no request larger than its " + ts->request_limit + " (" +
                                 format_size(limit) + "), but " + what_sends(r) + " to " + binding.target.text() +
                                 via + "; make " + ts->request_limit + " at least " + format_size(r.bytes) +
                                 " or the requester's " + r.param + " smaller");
      }
      if (ts->forwards_to.empty() || !seen.insert(to).second) continue;
      check_interleave(target, r, via);
      const std::string next_via = via.empty() ? " through " + target.path : via + " and " + target.path;
      for (const auto& [index, next] : bindings_from(to, ts->forwards_to)) todo.push_back({next, next_via});
    }
  }
}

}  // namespace tessera
