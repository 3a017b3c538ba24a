// The pins of a simple valid/ready memory link: one request channel (an
// aligned 8-byte word to read, or to write under byte strobes) and one
// response channel (read data, or an error bit), responses in request order,
// one per request. Types as Verilator gives SystemVerilog ports.
#pragma once
#include <cstdint>
#include <string>

#include <systemc>

namespace tessera::vr {

constexpr unsigned kWordBytes = 8;

struct Pins {
  explicit Pins(const std::string& prefix);

  sc_core::sc_signal<bool> req_valid, req_ready, req_write;
  sc_core::sc_signal<uint64_t> req_addr, req_wdata;
  sc_core::sc_signal<uint32_t> req_wstrb;
  sc_core::sc_signal<bool> resp_valid, resp_ready, resp_error;
  sc_core::sc_signal<uint64_t> resp_rdata;

  // Adds every pin to a VCD file, named `scope.pin`.
  void trace(sc_core::sc_trace_file* file, const std::string& scope) const;
};

}  // namespace tessera::vr
