#include "tlm_bridges/rtl_axi_memory.h"

#include <cmath>
#include <vector>

#include "Vaxi_memory.h"
#include "Vaxi_memory__Dpi.h"
#include "common/device_memory.h"
#include "models/cu/isa/hex.h"
#include "models/mem/backing_store.h"
#include "platform/errors.h"
#include "tlm_bridges/pin_trace.h"

namespace tessera {

namespace {

constexpr unsigned kMaxOutstanding = 16;  // axi_memory.sv's MAX_OUTSTANDING

// The RTL instances of this process, by the handle their DPI-C calls carry.
std::vector<RtlAxiMemory*>& instances() {
  static std::vector<RtlAxiMemory*> all;
  return all;
}

RtlAxiMemory& instance(unsigned handle) {
  RtlAxiMemory* m = handle < instances().size() ? instances()[handle] : nullptr;
  if (!m) throw std::logic_error("axi_memory RTL called with an unknown handle " + std::to_string(handle));
  return *m;
}

}  // namespace

}  // namespace tessera

// The DPI-C functions axi_memory.sv imports.
unsigned long long tessera_rtl_memory_read(unsigned int handle, unsigned long long addr) {
  return tessera::instance(handle).read_word(addr);
}

void tessera_rtl_memory_write(unsigned int handle, unsigned long long addr, unsigned long long data,
                              unsigned int strb) {
  tessera::instance(handle).write_word(addr, data, strb);
}

namespace tessera {

RtlAxiMemory::RtlAxiMemory(const BlockContext& ctx) : RtlAxiMemory(ctx, rtl_axi_memory_param_table().read(ctx.params)) {}

RtlAxiMemory::RtlAxiMemory(const BlockContext& ctx, const RtlAxiMemoryConfig& c)
    : Block(ctx),
      cycles_(stats().counter("cycles", "rising edges of the pins' clock (it runs only while there is work)")),
      pins_("pins"),
      bridge_("bridge", pins_, {c.ids, 1}),
      clock_("clock", clock_period(), [this] { return bridge_.busy(); }, bridge_.arrived(), cycles_),
      rtl_(std::make_unique<Vaxi_memory>("rtl")) {
  const std::string& store = c.store;
  if (c.store_kind == "device") {
    auto& dm = shared().get<isa::DeviceMemory>(store);
    read8_ = [&dm](uint64_t a, uint8_t* dst) { dm.read_any(a, dst, 8); };
    write8_ = [&dm](uint64_t a, const uint8_t* src, const uint8_t* be) { dm.write_masked(a, src, 8, be); };
  } else {
    auto& bs = shared().get<BackingStore>(store, c.page_size);
    if (bs.page_size() != c.page_size)
      throw UserError(path() + ": backing store '" + store + "' already has page size " +
                      std::to_string(bs.page_size()) + "; every memory sharing it must use the same page_size");
    read8_ = [&bs](uint64_t a, uint8_t* dst) { bs.read(a, dst, 8); };
    write8_ = [&bs](uint64_t a, const uint8_t* src, const uint8_t* be) {
      uint8_t word[8];
      bs.read(a, word, 8);
      for (unsigned i = 0; i < 8; ++i)
        if (be[i]) word[i] = src[i];
      bs.write(a, word, 8);
    };
  }
  const uint64_t base = c.base, size = c.size;
  if (base + (size - 1) < base)
    throw UserError(path() + ": base " + hex(base) + " + size " + hex(size) + " wraps around the address space");
  handle_ = static_cast<unsigned>(instances().size());
  instances().push_back(this);
  const double latency = c.latency / clock_period();
  cfg_handle_.write(handle_);
  cfg_latency_.write(static_cast<uint32_t>(std::llround(latency)));
  cfg_outstanding_.write(c.outstanding);
  cfg_base_.write(base);
  cfg_size_.write(size);
  bridge_.clk(clock_.clk);
  bind_rtl();
  if (c.checker) {
    checker_ = std::make_unique<axi::AxiChecker>("checker", pins_, axi::AxiChecker::Config{c.timeout_cycles});
    checker_->clk(clock_.clk);
  }
  vcd_ = open_pin_trace(path(), c.vcd);
  if (vcd_) {
    sc_core::sc_trace(vcd_, clock_.clk, path() + ".clk");
    sc_core::sc_trace(vcd_, clock_.rst_n, path() + ".rst_n");
    pins_.trace(vcd_, path());
  }
}

RtlAxiMemory::~RtlAxiMemory() {
  if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
  instances()[handle_] = nullptr;
}

void RtlAxiMemory::bind_rtl() {
  Vaxi_memory& r = *rtl_;
  axi::Pins& p = pins_;
  r.clk(clock_.clk), r.rst_n(clock_.rst_n), r.cfg_handle(cfg_handle_), r.cfg_latency(cfg_latency_);
  r.cfg_outstanding(cfg_outstanding_), r.cfg_base(cfg_base_), r.cfg_size(cfg_size_);
  r.awvalid(p.awvalid), r.awready(p.awready), r.awid(p.awid), r.awaddr(p.awaddr), r.awlen(p.awlen);
  r.awsize(p.awsize), r.awburst(p.awburst);
  r.wvalid(p.wvalid), r.wready(p.wready), r.wdata(p.wdata), r.wstrb(p.wstrb), r.wlast(p.wlast);
  r.bvalid(p.bvalid), r.bready(p.bready), r.bid(p.bid), r.bresp(p.bresp);
  r.arvalid(p.arvalid), r.arready(p.arready), r.arid(p.arid), r.araddr(p.araddr), r.arlen(p.arlen);
  r.arsize(p.arsize), r.arburst(p.arburst);
  r.rvalid(p.rvalid), r.rready(p.rready), r.rid(p.rid), r.rdata(p.rdata), r.rresp(p.rresp), r.rlast(p.rlast);
}

uint64_t RtlAxiMemory::read_word(uint64_t addr) const {
  uint8_t b[8];
  read8_(addr, b);
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v |= uint64_t{b[i]} << (8 * i);
  return v;
}

void RtlAxiMemory::write_word(uint64_t addr, uint64_t data, uint32_t strobes) {
  uint8_t b[8], be[8];
  for (unsigned i = 0; i < 8; ++i) {
    b[i] = static_cast<uint8_t>(data >> (8 * i));
    be[i] = (strobes >> i) & 1 ? 0xff : 0x00;
  }
  write8_(addr, b, be);
}

tlm::tlm_target_socket<>* RtlAxiMemory::target_socket(const std::string& name, int index) {
  return name == "in" && index < 0 ? &bridge_.in : nullptr;
}

bool RtlAxiMemory::ok() const { return !checker_ || checker_->violations().empty(); }

std::string RtlAxiMemory::summary() const {
  std::string s = std::to_string(cycles_.value) + " RTL clock cycles";
  if (checker_) s += ", " + std::to_string(checker_->violations().size()) + " AXI protocol violations";
  return s;
}

void RtlAxiMemory::describe_pending(std::vector<std::string>& lines) const {
  if (bridge_.outstanding())
    lines.push_back(path() + ": " + std::to_string(bridge_.outstanding()) + " AXI bursts awaiting their response");
}

const ParamTable<RtlAxiMemoryConfig>& rtl_axi_memory_param_table() {
  using C = RtlAxiMemoryConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::base, size_param("base", "0x0", "first address the memory answers (addresses are global)"))
          .add(&C::size, size_param("size", "1 GiB",
                                    "bytes answered from base; accesses outside get DECERR -> TLM_ADDRESS_ERROR_RESPONSE",
                                    1.0))
          .add(&C::latency, time_param("latency", "40 ns",
                                       "RTL latency from a read's AR (a write's last W beat) to its data (its B), "
                                       "rounded to whole cycles of the block's clock"))
          .add(&C::outstanding, int_param("outstanding", 8, "reads and writes each the RTL accepts and has not answered",
                                          1.0, static_cast<double>(kMaxOutstanding), "bursts"))
          .add(&C::ids, int_param("ids", 4, "AXI IDs per direction the bridge uses: TLM transactions in flight at once",
                                  1.0, 256.0))
          .add(&C::store, string_param("store", "dram", "name of the shared store holding the data"))
          .add(&C::store_kind, enum_param("store_kind", "backing", {"backing", "device"},
                                          "backing: a sparse backing store, as `memory` uses; device: the device memory "
                                          "the host allocates, as `dram_controller` uses"))
          .add(&C::page_size, size_param("page_size", "64 KiB",
                                         "page size of a backing store (power of two); memories sharing it must agree",
                                         64.0, static_cast<double>(uint64_t{1} << 30)))
          .include(pin_watch_param_table());
  return table;
}

BlockType rtl_axi_memory_block_type() {
  BlockType t;
  t.name = "rtl_axi_memory";
  t.doc = "The SystemVerilog AXI4 memory (tlm_bridges/rtl/axi_memory.sv, Verilated) behind a TLM -> AXI4 "
          "bridge, with an AXI4 protocol checker on the pins; the RTL sets the timing, the data lives in a "
          "shared store. Usable in place of a memory or dram_controller block (LT and AT; no DMI).";
  t.params = rtl_axi_memory_param_table().specs();
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.doc = "memory requests (LT, AT through the socket's adapter; no DMI, no debug access)";
  t.sockets = {in};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<RtlAxiMemory>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(rtl_axi_memory_block_type);

}  // namespace tessera
