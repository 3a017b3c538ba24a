#include "tlm_bridges/pin_link.h"

namespace tessera {

template <typename Protocol>
const ParamTable<PinLinkConfig>& PinLink<Protocol>::param_table() {
  using C = PinLinkConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::manager_outstanding,
               int_param("manager_outstanding", Protocol::kManagerOutstanding, Protocol::kManagerDoc, 1.0, 256.0))
          .add(&C::subordinate_outstanding, int_param("subordinate_outstanding", Protocol::kSubordinateOutstanding,
                                                      Protocol::kSubordinateDoc, 1.0, 256.0))
          .include(pin_watch_param_table());
  return table;
}

template <typename Protocol>
PinLink<Protocol>::PinLink(const BlockContext& ctx) : PinLink(ctx, param_table().read(ctx.params)) {}

template <typename Protocol>
PinLink<Protocol>::PinLink(const BlockContext& ctx, const PinLinkConfig& c)
    : Block(ctx),
      cycles_(stats().counter("cycles", "rising edges of the pins' clock (it runs only while there is work)")),
      pins_("pins"),
      manager_("manager", pins_, {c.manager_outstanding, 1}),
      // The subordinate carries out as many requests at once as it accepts.
      subordinate_("subordinate", pins_, {c.subordinate_outstanding, 1, c.subordinate_outstanding}),
      // The subordinate finishes its requests before the manager's
      // transactions return, so the manager being busy covers the whole hop.
      clock_("clock", clock_period(), [this] { return manager_.busy(); }, manager_.arrived(), cycles_) {
  manager_.clk(clock_.clk);
  subordinate_.clk(clock_.clk);
  if (c.checker) {
    checker_ = std::make_unique<typename Protocol::Checker>("checker", pins_,
                                                            typename Protocol::Checker::Config{c.timeout_cycles});
    checker_->clk(clock_.clk);
  }
  vcd_ = open_pin_trace(path(), c.vcd);
  if (vcd_) {
    sc_core::sc_trace(vcd_, clock_.clk, path() + ".clk");
    pins_.trace(vcd_, path());
  }
}

template <typename Protocol>
PinLink<Protocol>::~PinLink() {
  if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
}

template <typename Protocol>
tlm::tlm_target_socket<>* PinLink<Protocol>::target_socket(const std::string& name, int index) {
  return name == "in" && index < 0 ? &manager_.in : nullptr;
}

template <typename Protocol>
tlm::tlm_initiator_socket<>* PinLink<Protocol>::initiator_socket(const std::string& name, int index) {
  return name == "out" && index < 0 ? &subordinate_.out : nullptr;
}

template <typename Protocol>
bool PinLink<Protocol>::ok() const {
  return !checker_ || checker_->violations().empty();
}

template <typename Protocol>
std::string PinLink<Protocol>::summary() const {
  std::string s = std::to_string(cycles_.value) + " pin clock cycles";
  if (checker_)
    s += ", " + std::to_string(checker_->violations().size()) + " " + Protocol::kName + " protocol violations";
  return s;
}

template <typename Protocol>
void PinLink<Protocol>::describe_pending(std::vector<std::string>& lines) const {
  if (manager_.outstanding())
    lines.push_back(path() + ": " + std::to_string(manager_.outstanding()) + " " + Protocol::kName +
                    " requests awaiting their response");
}

template class PinLink<AxiProtocol>;
template class PinLink<VrProtocol>;

namespace {

template <typename Protocol>
BlockType pin_link_type(std::string name, std::string doc) {
  BlockType t;
  t.name = std::move(name);
  t.doc = std::move(doc);
  t.params = PinLink<Protocol>::param_table().specs();
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.doc = "transactions to carry (LT, AT through the socket's adapter; no DMI, no debug access)";
  SocketSpec out;
  out.name = "out";
  out.dir = SocketDir::Initiator;
  out.doc = "the same transactions, issued by the pins -> TLM bridge (LT)";
  t.sockets = {in, out};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    return std::make_unique<PinLink<Protocol>>(ctx);
  };
  return t;
}

}  // namespace

BlockType axi_link_block_type() {
  return pin_link_type<AxiProtocol>(
      "axi_link",
      "A pin-level AXI4 hop in a TLM path: TLM -> AXI4 bridge (INCR bursts split at 4 KiB, FIXED for "
      "one-word streaming), 64-bit AXI4 pins with the AXI4 protocol checker (and a VCD file on request), "
      "AXI4 -> TLM bridge. Carries the same bytes; timing is the pins' (one beat per cycle of its clock).");
}

BlockType vr_link_block_type() {
  return pin_link_type<VrProtocol>(
      "vr_link",
      "A pin-level valid/ready hop in a TLM path: TLM -> valid/ready bridge (one request per 8-byte word), "
      "the valid/ready memory pins with their protocol checker (and a VCD file on request), valid/ready -> "
      "TLM bridge. Carries the same bytes; timing is the pins' (one word per cycle of its clock).");
}

TESSERA_REGISTER_BLOCK(axi_link_block_type);
TESSERA_REGISTER_BLOCK(vr_link_block_type);

}  // namespace tessera
