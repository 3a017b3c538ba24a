#include "platform/platform.h"

#include <stdexcept>

#include "platform/errors.h"
#include "platform/l2_homes.h"

namespace tessera {

Platform::Platform(const Netlist& netlist, const TraceOptions& trace) : netlist_(netlist) {
  if (trace.enabled()) tracer_ = std::make_unique<Tracer>(trace);
  shared_.get<L2Homes>(kL2HomesName).serve_other_chiplets = l2s_serve_other_chiplets(netlist_);
  create_blocks();
  bind_sockets();
  if (tracer_) tracer_->attach(*this);
}

Block* Platform::find(const std::string& path) const {
  auto it = by_path_.find(path);
  return it == by_path_.end() ? nullptr : it->second;
}

void Platform::create_blocks() {
  for (const InstanceSpec& inst : netlist_.instances) {
    BlockContext ctx;
    ctx.path = inst.path;
    ctx.type = inst.type->name;
    ctx.params = Params(inst.params.merged());
    ctx.clock_period = sc_core::sc_time(1.0 / inst.clock_hz, sc_core::SC_SEC);
    ctx.socket_counts = inst.socket_counts;
    ctx.stats = &stats_;
    ctx.shared = &shared_;
    ctx.tracer = tracer_.get();
    std::unique_ptr<Block> block;
    try {
      block = inst.type->create(ctx);
    } catch (const NetlistError&) {
      throw;
    } catch (const UserError& e) {
      // A block that rejects a combination of parameters its schema could not
      // express (a cache whose size is not a multiple of its line size).
      throw NetlistError(inst.error_path(), e.what());
    }
    if (!block) throw std::logic_error("the factory of block type " + inst.type->name + " returned nothing");
    by_path_[inst.path] = block.get();
    blocks_.push_back(std::move(block));
  }
}

void Platform::bind_sockets() {
  for (const BindingSpec& b : netlist_.bindings) {
    Block* from = by_path_.at(b.initiator.instance);
    Block* to = by_path_.at(b.target.instance);
    tlm::tlm_initiator_socket<>* init = from->initiator_socket(b.initiator.socket, b.initiator.index);
    tlm::tlm_target_socket<>* targ = to->target_socket(b.target.socket, b.target.index);
    // The netlist checked both against the types' socket specs; a block that
    // does not provide a socket it declares is a bug in that block.
    if (!init)
      throw std::logic_error("block type " + from->type_name() + " declares initiator socket \"" +
                             b.initiator.socket + "\" but " + b.initiator.text() + " does not exist");
    if (!targ)
      throw std::logic_error("block type " + to->type_name() + " declares target socket \"" + b.target.socket +
                             "\" but " + b.target.text() + " does not exist");
    init->bind(*targ);
  }
}

}  // namespace tessera
