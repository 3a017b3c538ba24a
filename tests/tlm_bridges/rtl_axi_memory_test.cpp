// The rtl_axi_memory block (Verilated AXI4 memory behind the TLM -> AXI4
// bridge): data written through TLM reads back, from the shared store too.
#include <catch2/catch.hpp>

#include <cstring>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/mem/backing_store.h"
#include "tests/mem/mem_test_support.h"
#include "tlm_bridges/rtl_axi_memory.h"

using namespace tessera;
using namespace sc_core;

namespace {

struct Initiator : sc_module {
  explicit Initiator(sc_module_name n) : sc_module(n), out("out") {}
  tlm_utils::simple_initiator_socket<Initiator> out;
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    sc_time d = SC_ZERO_TIME;
    out->b_transport(t, d);
    return t.get_response_status();
  }
};

}  // namespace

TEST_CASE("rtl_axi_memory: a write reads back through the RTL and lands in the shared store", "[rtl]") {
  test::MiniPlatform pf;
  auto& mem = pf.create<RtlAxiMemory>("rtl_axi_memory", "mem", {{"size", "1 MiB"}, {"latency", "20 ns"}});
  Initiator init("init");
  init.out.bind(*mem.target_socket("in", -1));
  uint8_t wrote[40], got[40] = {};
  for (unsigned i = 0; i < 40; ++i) wrote[i] = static_cast<uint8_t>(0x30 + i);
  tlm::tlm_response_status ws = tlm::TLM_INCOMPLETE_RESPONSE, rs = ws, bad = ws;
  sc_time read_took;
  sc_spawn([&] {
    ws = init.access(tlm::TLM_WRITE_COMMAND, 0x1003, wrote, 40);
    const sc_time start = sc_time_stamp();
    rs = init.access(tlm::TLM_READ_COMMAND, 0x1003, got, 40);
    read_took = sc_time_stamp() - start;
    uint8_t x[8];
    bad = init.access(tlm::TLM_READ_COMMAND, 0x100000, x, 8);
  });
  sc_start();
  CHECK(ws == tlm::TLM_OK_RESPONSE);
  CHECK(rs == tlm::TLM_OK_RESPONSE);
  CHECK(bad == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(std::memcmp(wrote, got, 40) == 0);
  uint8_t stored[40];
  pf.shared.get<BackingStore>("dram", uint64_t{64} << 10).read(0x1003, stored, 40);
  CHECK(std::memcmp(wrote, stored, 40) == 0);
  // 20 cycles of latency, 6 beats, and the handshakes' cycles around them.
  CHECK(read_took >= sc_time(26, SC_NS));
  CHECK(read_took <= sc_time(32, SC_NS));
  REQUIRE(mem.checker());
  CHECK(mem.checker()->violations().empty());
  CHECK(mem.ok());
}
