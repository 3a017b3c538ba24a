// "rtl_axi_memory": the SystemVerilog AXI4 memory of tlm_bridges/rtl/axi_memory.sv,
// Verilated to SystemC, behind a TLM -> AXI4 bridge, usable in a netlist in
// place of a `memory` or `dram_controller` block. The RTL decides the timing
// (its latency and outstanding limit); the bytes live in the platform's shared
// store, which the RTL reaches through DPI-C, so the host and every other
// block see what it writes. An AXI4 protocol checker watches the pins (on by
// default); the pins can be written to a VCD file.
//
// The pins' clock (the block's clock domain) only runs while the bridge has
// a transaction in hand (tlm_bridges/gated_clock.h).
#pragma once
#include <functional>
#include <memory>

#include "platform/block.h"
#include "platform/registry.h"
#include "tlm_bridges/axi_checker.h"
#include "tlm_bridges/axi_pins.h"
#include "tlm_bridges/gated_clock.h"
#include "tlm_bridges/pin_trace.h"
#include "tlm_bridges/tlm_to_axi.h"

class Vaxi_memory;

namespace tessera {

// The values of the block's parameters, each filled by its one declaration in
// rtl_axi_memory_param_table() (rtl_axi_memory.cpp).
struct RtlAxiMemoryConfig : PinWatchConfig {
  uint64_t base = 0, size = 0, page_size = 0;
  sc_core::sc_time latency;
  unsigned outstanding = 0, ids = 0;
  std::string store, store_kind;
};
const ParamTable<RtlAxiMemoryConfig>& rtl_axi_memory_param_table();

class RtlAxiMemory : public Block {
 public:
  SC_HAS_PROCESS(RtlAxiMemory);
  explicit RtlAxiMemory(const BlockContext& ctx);
  RtlAxiMemory(const BlockContext& ctx, const RtlAxiMemoryConfig& config);
  ~RtlAxiMemory() override;

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  bool ok() const override;
  std::string summary() const override;
  void describe_pending(std::vector<std::string>& lines) const override;

  const axi::AxiChecker* checker() const { return checker_.get(); }

  // The store's 8-byte words, for the RTL's DPI-C calls.
  uint64_t read_word(uint64_t addr) const;
  void write_word(uint64_t addr, uint64_t data, uint32_t strobes);

 private:
  void bind_rtl();

  std::function<void(uint64_t, uint8_t*)> read8_;
  std::function<void(uint64_t, const uint8_t*, const uint8_t*)> write8_;
  unsigned handle_;
  Counter& cycles_;
  sc_core::sc_signal<uint32_t> cfg_handle_{"cfg_handle"}, cfg_latency_{"cfg_latency"},
      cfg_outstanding_{"cfg_outstanding"};
  sc_core::sc_signal<uint64_t> cfg_base_{"cfg_base"}, cfg_size_{"cfg_size"};
  axi::Pins pins_;
  axi::TlmToAxi bridge_;
  GatedClock clock_;
  std::unique_ptr<Vaxi_memory> rtl_;
  std::unique_ptr<axi::AxiChecker> checker_;
  sc_core::sc_trace_file* vcd_ = nullptr;
};

BlockType rtl_axi_memory_block_type();

}  // namespace tessera
