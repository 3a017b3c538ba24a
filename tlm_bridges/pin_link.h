// "axi_link" and "vr_link": a pin-level hop in a TLM path. Transactions
// arriving on `in` cross a TLM -> pins bridge, the pins of a protocol (64-bit
// AXI4, or the valid/ready memory protocol) and a pins -> TLM bridge, and
// leave on `out` to whatever block is bound there (a memory, a DRAM
// controller, a router). The protocol's checker watches the pins (on by
// default) and the pins can be written to a VCD file, so a netlist can put
// the bridges, and the pins an RTL block would see, on any TLM link while
// the link still carries the same bytes. The pins' clock is the block's clock
// domain and runs only while a transaction is in hand (gated_clock.h).
#pragma once
#include <memory>

#include "platform/block.h"
#include "platform/registry.h"
#include "tlm_bridges/axi_checker.h"
#include "tlm_bridges/axi_to_tlm.h"
#include "tlm_bridges/gated_clock.h"
#include "tlm_bridges/pin_trace.h"
#include "tlm_bridges/tlm_to_axi.h"
#include "tlm_bridges/tlm_to_vr.h"
#include "tlm_bridges/vr_checker.h"
#include "tlm_bridges/vr_to_tlm.h"

namespace tessera {

// The parts of one protocol.
struct AxiProtocol {
  using Pins = axi::Pins;
  using Manager = axi::TlmToAxi;
  using Subordinate = axi::AxiToTlm;
  using Checker = axi::AxiChecker;
  static constexpr const char* kName = "AXI";
  static constexpr int kManagerOutstanding = 4;
  static constexpr const char* kManagerDoc =
      "AXI IDs per direction the TLM -> AXI4 bridge uses: TLM transactions in flight at once";
  static constexpr int kSubordinateOutstanding = 8;
  static constexpr const char* kSubordinateDoc =
      "bursts the AXI4 -> TLM bridge accepts and has not answered (and carries out at once)";
};
struct VrProtocol {
  using Pins = vr::Pins;
  using Manager = vr::TlmToVr;
  using Subordinate = vr::VrToTlm;
  using Checker = vr::VrChecker;
  static constexpr const char* kName = "valid/ready";
  static constexpr int kManagerOutstanding = 16;
  static constexpr const char* kManagerDoc = "requests the TLM -> valid/ready bridge sends before their responses";
  static constexpr int kSubordinateOutstanding = 16;
  static constexpr const char* kSubordinateDoc =
      "requests the valid/ready -> TLM bridge accepts and has not answered (and carries out at once)";
};

// A pin link's parameters: its bridges' outstanding limits and the pins' watch.
struct PinLinkConfig : PinWatchConfig {
  unsigned manager_outstanding = 0, subordinate_outstanding = 0;
};

template <typename Protocol>
class PinLink : public Block {
 public:
  explicit PinLink(const BlockContext& ctx);
  PinLink(const BlockContext& ctx, const PinLinkConfig& config);
  ~PinLink() override;
  static const ParamTable<PinLinkConfig>& param_table();

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  bool ok() const override;
  std::string summary() const override;
  void describe_pending(std::vector<std::string>& lines) const override;

  const typename Protocol::Checker* checker() const { return checker_.get(); }

 private:
  Counter& cycles_;
  typename Protocol::Pins pins_;
  typename Protocol::Manager manager_;
  typename Protocol::Subordinate subordinate_;
  GatedClock clock_;
  std::unique_ptr<typename Protocol::Checker> checker_;
  sc_core::sc_trace_file* vcd_ = nullptr;
};

using AxiLink = PinLink<AxiProtocol>;
using VrLink = PinLink<VrProtocol>;

BlockType axi_link_block_type();
BlockType vr_link_block_type();

}  // namespace tessera
