// The memory side as a whole: initiators -> crossbar -> DRAM controllers, with
// buffers small enough that every back-pressure path is exercised, and random
// traffic whose every byte is checked against a model of memory.
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <random>

#include "mem_test_support.h"
#include "common/device_memory.h"
#include "models/mem/dram_controller.h"
#include "models/noc/crossbar.h"

using namespace tessera;
using namespace tessera::test;

namespace {
struct Op {
  std::unique_ptr<Payload> trans;
  std::vector<uint8_t> enables;   // empty: no byte enables
  std::vector<uint8_t> expected;  // reads: memory as the model had it when the read was sent
};
}  // namespace

TEST_CASE("memory side: random reads and masked writes through a crossbar and two DRAM controllers read back "
          "what was written",
          "[noc][crossbar][dram]") {
  MiniPlatform pf;
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  constexpr unsigned kInputs = 3, kRegion = 16 * 1024, kOps = 400;
  const uint64_t base = dev.alloc(kInputs * kRegion);
  std::vector<uint8_t> model(kInputs * kRegion);
  for (size_t k = 0; k < model.size(); ++k) model[k] = static_cast<uint8_t>(k * 7 + 1);
  dev.write(base, model.data(), model.size());

  json map = json::array({{{"base", "0x100000000"}, {"size", "1 GiB"}, {"ports", {0, 1}}, {"interleave", "512 B"}}});
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar",
                                   {{"address_map", map}, {"in_width", 16}, {"out_width", 32}, {"latency", 3},
                                    {"queue_depth", 2}, {"response_queue_depth", 1}},
                                   {{"in", kInputs}, {"out", 2}});
  const json dram = {{"channels", 2}, {"banks", 4}, {"row_size", "256 B"}, {"bank_interleave", "128 B"},
                     {"channel_interleave", "256 B"}, {"queue_depth", 2}};
  json fcfs = dram;
  fcfs["scheduler"] = "fcfs";
  auto& d0 = pf.create<DramController>("dram_controller", "hbm0", dram);
  auto& d1 = pf.create<DramController>("dram_controller", "hbm1", fcfs);

  // Each initiator owns one region, so the model needs no cross-initiator ordering; within one
  // initiator, requests to one address keep their order through the crossbar and the controller.
  std::vector<std::vector<Op>> ops(kInputs);
  std::vector<std::unique_ptr<Probe>> probes;
  for (unsigned i = 0; i < kInputs; ++i) {
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [&, i](Probe& p) {
      std::mt19937 rng(1234 + i);
      for (unsigned n = 0; n < kOps; ++n) {
        const unsigned len = 4u << (rng() % 6);  // 4..128 bytes, aligned, inside one 128-byte line
        const uint64_t offset = i * kRegion + (rng() % (kRegion / 128)) * 128 + (rng() % (128 / len)) * len;
        const bool write = rng() % 2;
        Op op;
        op.trans = std::make_unique<Payload>(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, base + offset, len);
        if (write) {
          for (auto& b : op.trans->buffer) b = static_cast<uint8_t>(rng());
          if (rng() % 2) {
            op.enables.resize(len);
            for (auto& e : op.enables) e = rng() % 2 ? 0xff : 0;
            op.trans->set_byte_enable_ptr(op.enables.data());
            op.trans->set_byte_enable_length(len);
          }
          for (unsigned k = 0; k < len; ++k)
            if (op.enables.empty() || op.enables[k] == 0xff) model[offset + k] = op.trans->buffer[k];
        } else {
          op.expected.assign(model.begin() + offset, model.begin() + offset + len);
        }
        ops[i].push_back(std::move(op));
        p.begin_req(*ops[i].back().trans);
        p.wait_for(*ops[i].back().trans, tlm::END_REQ);
      }
    }));
    probes.back()->socket.bind(*xbar.in[i]);
  }
  xbar.out[0]->bind(d0.in);
  xbar.out[1]->bind(d1.in);
  sc_core::sc_start();

  unsigned bad_reads = 0, responses = 0;
  for (unsigned i = 0; i < kInputs; ++i)
    for (const Op& op : ops[i]) {
      responses += probes[i]->time_of(*op.trans, tlm::BEGIN_RESP) != sc_core::sc_max_time();
      REQUIRE(op.trans->get_response_status() == tlm::TLM_OK_RESPONSE);
      if (op.trans->is_read()) bad_reads += op.trans->buffer != op.expected;
    }
  REQUIRE(responses == kInputs * kOps);
  REQUIRE(bad_reads == 0);
  std::vector<uint8_t> final_bytes(model.size());
  dev.read(final_bytes.data(), base, final_bytes.size());
  REQUIRE(final_bytes == model);
  // Every back-pressure path was taken.
  CHECK(pf.stat("xbar", "request_stalls") > 0);
  CHECK(pf.stat("xbar", "response_stalls") > 0);
  CHECK(pf.stat("hbm0", "request_stalls") + pf.stat("hbm1", "request_stalls") > 0);
  CHECK(pf.stat("hbm0", "reads") + pf.stat("hbm0", "writes") + pf.stat("hbm1", "reads") +
            pf.stat("hbm1", "writes") ==
        kInputs * kOps);
}
