#include "tlm_bridges/axi_pins.h"

namespace tessera::axi {

namespace {
std::string pin(const std::string& prefix, const char* name) { return prefix + "_" + name; }
}  // namespace

Pins::Pins(const std::string& p)
    : awvalid(pin(p, "awvalid").c_str()), awready(pin(p, "awready").c_str()), awid(pin(p, "awid").c_str()),
      awlen(pin(p, "awlen").c_str()), awsize(pin(p, "awsize").c_str()), awburst(pin(p, "awburst").c_str()),
      awaddr(pin(p, "awaddr").c_str()), wvalid(pin(p, "wvalid").c_str()), wready(pin(p, "wready").c_str()),
      wlast(pin(p, "wlast").c_str()), wdata(pin(p, "wdata").c_str()), wstrb(pin(p, "wstrb").c_str()),
      bvalid(pin(p, "bvalid").c_str()), bready(pin(p, "bready").c_str()), bid(pin(p, "bid").c_str()),
      bresp(pin(p, "bresp").c_str()), arvalid(pin(p, "arvalid").c_str()), arready(pin(p, "arready").c_str()),
      arid(pin(p, "arid").c_str()), arlen(pin(p, "arlen").c_str()), arsize(pin(p, "arsize").c_str()),
      arburst(pin(p, "arburst").c_str()), araddr(pin(p, "araddr").c_str()), rvalid(pin(p, "rvalid").c_str()),
      rready(pin(p, "rready").c_str()), rlast(pin(p, "rlast").c_str()), rdata(pin(p, "rdata").c_str()),
      rid(pin(p, "rid").c_str()), rresp(pin(p, "rresp").c_str()), prefix(p) {}

void Pins::trace(sc_core::sc_trace_file* f, const std::string& scope) const {
  auto t = [&](const auto& s, const char* name) { sc_core::sc_trace(f, s, scope + "." + name); };
  t(awvalid, "awvalid"), t(awready, "awready"), t(awid, "awid"), t(awlen, "awlen"), t(awsize, "awsize");
  t(awburst, "awburst"), t(awaddr, "awaddr");
  t(wvalid, "wvalid"), t(wready, "wready"), t(wlast, "wlast"), t(wdata, "wdata"), t(wstrb, "wstrb");
  t(bvalid, "bvalid"), t(bready, "bready"), t(bid, "bid"), t(bresp, "bresp");
  t(arvalid, "arvalid"), t(arready, "arready"), t(arid, "arid"), t(arlen, "arlen"), t(arsize, "arsize");
  t(arburst, "arburst"), t(araddr, "araddr");
  t(rvalid, "rvalid"), t(rready, "rready"), t(rlast, "rlast"), t(rdata, "rdata"), t(rid, "rid"), t(rresp, "rresp");
}

uint64_t beat_address(uint64_t addr, uint32_t len, uint32_t size, uint32_t burst, unsigned n) {
  const uint64_t bytes = uint64_t{1} << size;
  const uint64_t aligned = addr & ~(bytes - 1);
  if (burst == kFixed || n == 0) return addr;
  if (burst == kWrap) {
    const uint64_t span = bytes * (len + 1);
    const uint64_t lower = addr & ~(span - 1);
    return lower + ((aligned - lower + n * bytes) % span);
  }
  return aligned + n * bytes;
}

bool crosses_4k(uint64_t addr, uint32_t len, uint32_t size) {
  const uint64_t bytes = uint64_t{1} << size;
  const uint64_t last = (addr & ~(bytes - 1)) + uint64_t{len} * bytes + bytes - 1;
  return (addr >> 12) != (last >> 12);
}

}  // namespace tessera::axi
