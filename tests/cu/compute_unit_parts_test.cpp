// The compute unit's seams for mechanisms, on hand-written kernels in the
// rig of compute_unit_harness.h (1 GHz, fetch latency 10, scalar memory 20,
// vector memory 100, launch_latency 0): observers before issue and on
// memory responses, the scoreboard's memory destinations, static
// instruction marks, and routines injected as waves with priority classes.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>

#include "models/cu/compute_unit.h"
#include "models/cu/inst_marks.h"
#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

AsmKernel valu_sixteen() {
  AsmKernel k;
  k.name = "sixteen";
  for (int i = 0; i < 16; ++i) k.body += "v_add_f32 v" + std::to_string(2 + i % 4) + ", v0, v1\n";
  k.body += "s_endpgm";
  return k;
}

// An observer made of two functions.
struct TestHooks : CuObserver {
  std::function<bool(const WaveSlot&, const isa::DecodedOp&, uint64_t)> issue;
  std::function<void(const WaveSlot&, const MemInst&, uint64_t)> response;
  bool before_issue(const WaveSlot& w, const isa::DecodedOp& op, uint64_t c) override {
    return issue ? issue(w, op, c) : true;
  }
  void on_memory_response(const WaveSlot& w, const MemInst& m, uint64_t c) override {
    if (response) response(w, m, c);
  }
};

// A SystemC thread running `body` from time 0 (the CU injects from a process).
struct InjectorThread : sc_core::sc_module {
  SC_HAS_PROCESS(InjectorThread);
  InjectorThread(sc_core::sc_module_name n, std::function<void()> f) : sc_module(n), body(std::move(f)) { SC_THREAD(run); }
  void run() { body(); }
  std::function<void()> body;
};

uint64_t parts_now_ns() { return uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5); }

}  // namespace

// One wave of 16 independent VALU ops ends at 72 (compute_unit_test.cpp).
// An observer that holds the first five attempts delays each by a cycle:
// the first op issues at 16 instead of 11 and the wave ends at 77, the five
// cycles counted as structural stalls.
TEST_CASE("compute unit hooks: an observer holding a wave back delays it a cycle per hold", "[cu]") {
  CuRig rig(assemble(valu_sixteen()), "sixteen", quiet());
  TestHooks h;
  int holds = 5, issued = 0;
  h.issue = [&](const WaveSlot&, const isa::DecodedOp&, uint64_t) {
    if (holds > 0) return --holds, false;
    ++issued;
    return true;
  };
  rig.cu.attach(h);
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 77);
  CHECK(issued == 17);
  CHECK(rig.stat("instructions") == 17);
  CHECK(rig.stat("stall_structural") == 15 * 3 + 5);
}

// The scoreboard holds a load's destination lanes busy from issue until its
// data is written: the response hook sees them busy (scalar s[4:5]: lane 0;
// the vector load's v2: every lane of the wave), the next instruction
// reading v2 sees them free. Timing as in compute_unit_test.cpp: the scalar
// load's data is used at 32, the vector load's at 138.
TEST_CASE("compute unit hooks: memory responses with the destinations busy on the scoreboard", "[cu]") {
  AsmKernel k;
  k.name = "loadstore";
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_mov_b32 v1, 0
global_load_dword v2, v1, s[4:5]
s_waitcnt vmcnt(0)
v_add_u32 v2, 1, v2
global_store_dword v1, v2, s[4:5]
s_endpgm)";
  CuRig rig(assemble(k), "loadstore", quiet());
  const uint64_t out = rig.device.alloc(64);
  const uint32_t v = 41;
  rig.device.write(out, &v, 4);
  TestHooks h;
  std::vector<std::string> seen;
  h.response = [&](const WaveSlot& w, const MemInst& m, uint64_t c) {
    const std::string name = m.op->inst.mnemonic();
    if (name == "s_load_dwordx2") CHECK((w.board.busy_lanes(4) == 1 && w.board.busy_lanes(5) == 1 && c == 32));
    if (name == "global_load_dword") CHECK((w.board.busy_lanes(kVgprSlot + 2) == ~0ull && c == 138));
    seen.push_back(name);
  };
  h.issue = [&](const WaveSlot& w, const isa::DecodedOp& op, uint64_t) {
    if (std::strcmp(op.inst.mnemonic(), "v_add_u32") == 0) CHECK(w.board.busy_lanes(kVgprSlot + 2) == 0);
    return true;
  };
  rig.cu.attach(h);
  rig.launch(out, 64, 64);
  rig.run();
  CHECK(seen == std::vector<std::string>{"s_load_dwordx2", "global_load_dword", "global_store_dword"});
  uint32_t got = 0;
  rig.device.read(&got, out, 4);
  CHECK(got == 42);
}

// A marker registered before the run marks every v_add_f32; the CU computes
// the kernel's marks once, at its first workgroup, and every wave of the
// four workgroups reads them at issue.
TEST_CASE("compute unit marks: a registered marker's marks are computed once and read at issue", "[cu]") {
  int runs = 0;
  register_inst_marker("test_valu", [&](isa::DecodeCache& program, const isa::KernelInfo&, InstMarks& marks) {
    ++runs;
    const uint64_t text = program.code().text_address(), end = text + program.code().text().size();
    for (uint64_t pc = text; pc < end;) {
      const isa::DecodedOp* op = program.at(pc);
      if (!op) break;
      if (std::strcmp(op->inst.mnemonic(), "v_add_f32") == 0) marks.set(pc, 1);
      pc += op->inst.size;
    }
  });
  CuRig rig(assemble(valu_sixteen()), "sixteen", quiet());
  TestHooks h;
  int marked = 0, unmarked = 0;
  h.issue = [&](const WaveSlot& w, const isa::DecodedOp& op, uint64_t) {
    REQUIRE(w.marks);
    (w.marks->at(op.inst.pc) & 1 ? marked : unmarked)++;
    return true;
  };
  rig.cu.attach(h);
  rig.launch(0, 4 * 64, 64);
  rig.run();
  CHECK(runs == 1);
  CHECK(marked == 4 * 16);
  CHECK(unmarked == 4);  // the s_endpgm of each wave
}

// Two routines injected at time 0 into a CU with one SIMD: a Normal one
// first, then a High one. Both count against occupancy (with two wave slots
// a third does not fit), the High one goes first in the priority order, so
// it takes the SIMD first and ends first, and each computes its registers:
// v1 = lane + 5, v2 = v1 * v1.
TEST_CASE("compute unit injection: routines run as waves with their priority class and results", "[cu]") {
  AsmKernel k;
  k.name = "routine";
  k.body = "v_add_u32 v1, 5, v0\nv_mul_lo_u32 v2, v1, v1\n";
  for (int i = 0; i < 8; ++i) k.body += "v_add_f32 v3, v0, v0\n";
  k.body += "s_endpgm";
  CuRig rig(assemble(k), "routine", quiet({{"simds", 1}, {"wave_slots", 2}}));
  isa::LaunchConfig cfg;
  cfg.grid[0] = 64;
  cfg.workgroup[0] = 64;
  isa::ArgValue arg;
  arg.bytes.resize(8, 0);
  cfg.args.push_back(arg);
  isa::PreparedDispatch prep(rig.device, rig.program, *rig.info, cfg, 0);
  WorkgroupTask task;
  task.ctx = &prep.ctx();
  task.program = &rig.program;
  struct Ended {
    std::string who;
    uint64_t at;
    bool right = true;
  };
  std::vector<Ended> ended;
  auto check = [&](const std::string& who) {
    return [&ended, who](const Workgroup& wg) {
      Ended e{who, parts_now_ns()};
      REQUIRE(wg.waves.size() == 1);
      const isa::Wave& w = *wg.waves[0]->wave;
      for (unsigned lane = 0; lane < 64; ++lane)
        e.right = e.right && w.v(1)[lane] == lane + 5 && w.v(2)[lane] == (lane + 5) * (lane + 5);
      ended.push_back(e);
    };
  };
  bool third = true;
  unsigned resident = 0;
  InjectorThread t("injector", [&] {
    REQUIRE(rig.cu.inject(task, PriorityClass::Normal, check("normal")));
    REQUIRE(rig.cu.inject(task, PriorityClass::High, check("high")));
    resident = rig.cu.resident_waves();
    third = rig.cu.inject(task, PriorityClass::Low, check("low"));
  });
  rig.run();
  CHECK(resident == 2);
  CHECK_FALSE(third);
  REQUIRE(ended.size() == 2);
  CHECK(ended[0].who == "high");
  CHECK(ended[1].who == "normal");
  CHECK(ended[0].at < ended[1].at);
  CHECK(ended[0].right);
  CHECK(ended[1].right);
  CHECK(rig.stat("waves_launched") == 2);
  CHECK(rig.dispatcher.finished.empty());  // the dispatcher is not told about routines
}
