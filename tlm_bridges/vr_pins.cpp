#include "tlm_bridges/vr_pins.h"

namespace tessera::vr {

namespace {
std::string pin(const std::string& prefix, const char* name) { return prefix + "_" + name; }
}  // namespace

Pins::Pins(const std::string& p)
    : req_valid(pin(p, "req_valid").c_str()), req_ready(pin(p, "req_ready").c_str()),
      req_write(pin(p, "req_write").c_str()), req_addr(pin(p, "req_addr").c_str()),
      req_wdata(pin(p, "req_wdata").c_str()), req_wstrb(pin(p, "req_wstrb").c_str()),
      resp_valid(pin(p, "resp_valid").c_str()), resp_ready(pin(p, "resp_ready").c_str()),
      resp_error(pin(p, "resp_error").c_str()), resp_rdata(pin(p, "resp_rdata").c_str()) {}

void Pins::trace(sc_core::sc_trace_file* f, const std::string& scope) const {
  auto t = [&](const auto& s, const char* name) { sc_core::sc_trace(f, s, scope + "." + name); };
  t(req_valid, "req_valid"), t(req_ready, "req_ready"), t(req_write, "req_write"), t(req_addr, "req_addr");
  t(req_wdata, "req_wdata"), t(req_wstrb, "req_wstrb");
  t(resp_valid, "resp_valid"), t(resp_ready, "resp_ready"), t(resp_error, "resp_error"), t(resp_rdata, "resp_rdata");
}

}  // namespace tessera::vr
