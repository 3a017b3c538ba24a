#include "platform/l2_homes.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tessera {

bool l2s_serve_other_chiplets(const Netlist& netlist) {
  // Netlist::find is a linear search; a netlist may have 100,000s of blocks.
  std::map<std::string, const InstanceSpec*> by_path;
  for (const InstanceSpec& inst : netlist.instances) by_path[inst.path] = &inst;
  // Request paths only: responses, control (a dispatcher's release[] to the
  // L2s) and coherence messages use other sockets.
  std::map<std::string, std::vector<const BindingSpec*>> requests_from;
  for (const BindingSpec& b : netlist.bindings)
    if (b.initiator.socket == "out" && b.target.socket == "in") requests_from[b.initiator.instance].push_back(&b);
  std::vector<std::string> todo;
  std::set<std::string> seen;
  for (const InstanceSpec& inst : netlist.instances)
    if (inst.type && inst.type->name == "chiplet_network") {
      todo.push_back(inst.path);
      seen.insert(inst.path);
    }
  while (!todo.empty()) {
    const std::string from = todo.back();
    todo.pop_back();
    for (const BindingSpec* b : requests_from[from]) {
      const InstanceSpec* to = by_path.at(b->target.instance);
      if (to->type && to->type->name == "l2_cache") return true;
      if (seen.insert(to->path).second) todo.push_back(to->path);
    }
  }
  return false;
}

}  // namespace tessera
