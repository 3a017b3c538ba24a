// The pins of one AXI4 link as sc_signals: the five channels between a
// manager and a subordinate, with a 64-bit data bus (8 byte lanes). The
// signal types are those Verilator gives SystemVerilog ports (bool for one
// bit, uint32_t up to 32 bits, uint64_t up to 64), so a Verilated module's
// ports bind to these signals directly.
#pragma once
#include <cstdint>
#include <string>

#include <systemc>

namespace tessera::axi {

constexpr unsigned kBusBytes = 8;  // data bus width: 64 bits
constexpr unsigned kBusSize = 3;   // AxSIZE of a full-width beat (2^3 bytes)

enum Burst : uint32_t { kFixed = 0, kIncr = 1, kWrap = 2 };
enum Resp : uint32_t { kOkay = 0, kExOkay = 1, kSlvErr = 2, kDecErr = 3 };

struct Pins {
  explicit Pins(const std::string& prefix);

  // Write address
  sc_core::sc_signal<bool> awvalid, awready;
  sc_core::sc_signal<uint32_t> awid, awlen, awsize, awburst;
  sc_core::sc_signal<uint64_t> awaddr;
  // Write data
  sc_core::sc_signal<bool> wvalid, wready, wlast;
  sc_core::sc_signal<uint64_t> wdata;
  sc_core::sc_signal<uint32_t> wstrb;
  // Write response
  sc_core::sc_signal<bool> bvalid, bready;
  sc_core::sc_signal<uint32_t> bid, bresp;
  // Read address
  sc_core::sc_signal<bool> arvalid, arready;
  sc_core::sc_signal<uint32_t> arid, arlen, arsize, arburst;
  sc_core::sc_signal<uint64_t> araddr;
  // Read data
  sc_core::sc_signal<bool> rvalid, rready, rlast;
  sc_core::sc_signal<uint64_t> rdata;
  sc_core::sc_signal<uint32_t> rid, rresp;

  // Adds every pin to a VCD file, named `scope.pin` (e.g. "mem[0].awvalid").
  void trace(sc_core::sc_trace_file* file, const std::string& scope) const;

  const std::string prefix;
};

// Address of beat `n` of a burst (AXI4 specification, A3.4.1), for any burst type.
uint64_t beat_address(uint64_t addr, uint32_t len, uint32_t size, uint32_t burst, unsigned n);

// Whether an INCR burst crosses a 4 KiB boundary (which AXI4 forbids).
bool crosses_4k(uint64_t addr, uint32_t len, uint32_t size);

}  // namespace tessera::axi
