// The dispatcher on its own: harness compute units (accept up to N workgroups,
// finish each a fixed number of cycles later) and harness caches (acknowledge
// a cache command a fixed number of cycles later) check the hand-out order,
// the pacing, the refusal and retry, the kernel-boundary commands and their
// cost, scratch regions per workgroup in flight, functional launches and
// faults. Every time is in 1 ns cycles.
#include "models/cp/dispatcher.h"

#include <catch2/catch.hpp>

#include <deque>
#include <set>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/cu/isa/prepared_dispatch.h"
#include "platform/program_cache.h"
#include "sw/firmware/include/tessera/cp_regs.h"
#include "tests/mem/mem_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {

// A compute unit reduced to its dispatch protocol: it takes a workgroup while
// it holds fewer than `capacity`, and reports it finished `work` cycles later
// (or inside the offer, in functional mode).
class HarnessCu : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HarnessCu);
  HarnessCu(sc_core::sc_module_name name, unsigned capacity, unsigned work_cycles)
      : sc_module(name), socket("socket"), capacity_(capacity), work_(work_cycles, SC_NS) {
    socket.register_b_transport(this, &HarnessCu::b_transport);
    SC_METHOD(finish_method);
    sensitive << finish_event_;
    dont_initialize();
  }

  tlm_utils::simple_target_socket<HarnessCu> socket;

  struct Started {
    uint32_t wg[3];
    uint64_t first_wave;
    uint64_t scratch;
    sc_time at;
  };
  std::vector<Started> started;
  unsigned refused = 0;
  // Reports this text as the fault of the workgroup with this linear x index.
  int fault_x = -1;

 private:
  struct Running {
    WorkgroupTask task;
    sc_time done;
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_time&) {
    WorkgroupTask* t = trans.get_extension<WorkgroupTask>();
    REQUIRE(t);
    if (running_.size() >= capacity_) {
      ++refused;
      return;
    }
    t->accepted = true;
    started.push_back({{t->workgroup[0], t->workgroup[1], t->workgroup[2]}, t->first_dispatch_wave,
                       t->scratch_address, sc_core::sc_time_stamp()});
    Running r{*t, sc_core::sc_time_stamp() + work_};
    r.task.wave_instructions = 10;
    if (int(t->workgroup[0]) == fault_x) r.task.fault = "wave fault in workgroup " + std::to_string(fault_x);
    if (t->functional) {
      // Functional: done at once, reported through the backward path during the offer.
      report(r.task);
      return;
    }
    running_.push_back(r);
    finish_event_.notify(work_);
  }

  void finish_method() {
    const sc_time now = sc_core::sc_time_stamp();
    while (!running_.empty() && running_.front().done <= now) {
      WorkgroupTask t = running_.front().task;
      running_.pop_front();
      report(t);
    }
    // An event keeps only its earliest notification: re-arm for the next one.
    if (!running_.empty()) finish_event_.notify(running_.front().done - now);
  }

  void report(WorkgroupTask t) {
    t.finished = true;
    tlm::tlm_generic_payload trans;
    trans.set_extension(&t);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    socket->nb_transport_bw(trans, phase, delay);
    trans.clear_extension(&t);
  }

  unsigned capacity_;
  sc_time work_;
  std::deque<Running> running_;
  sc_core::sc_event finish_event_;
};

// A cache's control port reduced to its timing: every command is answered
// `latency` cycles after it arrives, with BEGIN_RESP on the backward path.
// Its debug transport says whether it is write-back, as a Cache's does.
class HarnessCache : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HarnessCache);
  HarnessCache(sc_core::sc_module_name name, unsigned latency)
      : sc_module(name), ctrl("ctrl"), latency_(latency, SC_NS), peq_("peq") {
    ctrl.register_nb_transport_fw(this, &HarnessCache::nb_transport_fw);
    ctrl.register_transport_dbg(this, &HarnessCache::transport_dbg);
    SC_METHOD(answer_method);
    sensitive << peq_.get_event();
    dont_initialize();
  }

  tlm_utils::simple_target_socket<HarnessCache> ctrl;
  std::vector<std::pair<CacheOp, sc_time>> commands;  // op, arrival
  bool write_back = false;

 private:
  unsigned int transport_dbg(tlm::tlm_generic_payload& t) {
    t.get_extension<CacheCommand>()->write_back = write_back;
    return 0;
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
      commands.emplace_back(t.get_extension<CacheCommand>()->op, sc_core::sc_time_stamp() + delay);
      peq_.notify(t, delay + latency_);
    }
    return tlm::TLM_ACCEPTED;
  }
  void answer_method() {
    while (tlm::tlm_generic_payload* t = peq_.get_next_transaction()) {
      t->get_extension<CacheCommand>()->lines_invalidated = 3;
      t->set_response_status(tlm::TLM_OK_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_time delay = SC_ZERO_TIME;
      ctrl->nb_transport_bw(*t, phase, delay);
    }
  }
  sc_time latency_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> peq_;
};

// A real dispatch of vector_add over `items` work-items in workgroups of 64.
struct Job {
  explicit Job(isa::DeviceMemory& mem, uint32_t items, uint32_t scratch_wave_bytes = 0) {
    const std::string path = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/vector_add.hsaco";
    ProgramCache::Program& p = programs.get(path);
    const isa::KernelInfo& k = ProgramCache::kernel(p, path, "vector_add");
    runtime::KernelArgs args;
    args.pointer(mem.alloc(4 * items)).pointer(mem.alloc(4 * items)).pointer(mem.alloc(4 * items)).value(items);
    prepared = std::make_unique<isa::PreparedDispatch>(mem, p.cache, k,
                                                       make_launch_config(k, {items, 1, 1}, {64, 1, 1}, args), 0);
    // vector_add has no private segment; pretend it has one to see the regions.
    prepared->ctx().scratch_wave_bytes = scratch_wave_bytes;
    job.ctx = &prepared->ctx();
    job.program = &p.cache;
  }
  ProgramCache programs;
  std::unique_ptr<isa::PreparedDispatch> prepared;
  DispatchJob job;
};

struct Bench {
  Bench(json params, std::vector<std::pair<unsigned, unsigned>> cus, std::vector<unsigned> acquire_latency,
        std::vector<unsigned> release_latency, std::map<std::string, int> counts = {}) {
    counts["cu"] = int(cus.size());
    if (!acquire_latency.empty()) counts["acquire"] = int(acquire_latency.size());
    if (!release_latency.empty()) counts["release"] = int(release_latency.size());
    dispatcher = &pf.create<Dispatcher>("dispatcher", "se.dispatcher", params, counts);
    for (size_t i = 0; i < cus.size(); ++i) {
      this->cus.push_back(std::make_unique<HarnessCu>(("cu" + std::to_string(i)).c_str(), cus[i].first,
                                                      cus[i].second));
      dispatcher->cu[i]->bind(this->cus.back()->socket);
    }
    for (size_t i = 0; i < acquire_latency.size(); ++i) {
      l1.push_back(std::make_unique<HarnessCache>(("l1_" + std::to_string(i)).c_str(), acquire_latency[i]));
      dispatcher->acquire[i]->bind(l1.back()->ctrl);
    }
    for (size_t i = 0; i < release_latency.size(); ++i) {
      l2.push_back(std::make_unique<HarnessCache>(("l2_" + std::to_string(i)).c_str(), release_latency[i]));
      dispatcher->release[i]->bind(l2.back()->ctrl);
    }
  }
  isa::DeviceMemory& memory() { return pf.shared.get<isa::DeviceMemory>("device"); }
  uint64_t stat(const std::string& name) const { return pf.stat("se.dispatcher", name); }
  // Launches and simulates until the dispatcher pauses at the end.
  const LaunchResult& run(const DispatchJob& job) {
    sc_core::sc_start(SC_ZERO_TIME);
    dispatcher->launch(job);
    REQUIRE(dispatcher->busy());
    sc_core::sc_start();
    REQUIRE_FALSE(dispatcher->busy());
    return dispatcher->result();
  }

  MiniPlatform pf;
  Dispatcher* dispatcher = nullptr;
  std::vector<std::unique_ptr<HarnessCu>> cus;
  std::vector<std::unique_ptr<HarnessCache>> l1, l2;
};

}  // namespace

TEST_CASE("dispatcher: workgroups leave every interval round-robin between acquire and release", "[dispatcher]") {
  // 2 CUs with room for 8 workgroups each, 100 cycles of work per workgroup;
  // acquire caches answer after 10 and 15 cycles, the release cache after 20.
  Bench b({{"workgroup_interval", 4}}, {{8, 100}, {8, 100}}, {10, 15}, {20});
  Job j(b.memory(), 6 * 64);
  const LaunchResult& r = b.run(j.job);
  // The baseline policy's acquire (sw/firmware/policy/baseline.c): the L1s are
  // invalidated (the slower answers at 15), then the L2 (20 more). Workgroups
  // leave at 35, 39, 43, 47, 51, 55 alternating cu0, cu1; the last finishes
  // at 155; the release's write-back of the L2 takes 20 more.
  CHECK(r.acquire_cycles == 35);
  CHECK(r.release_cycles == 20);
  CHECK(r.cycles == 175);
  CHECK(r.workgroups == 6);
  CHECK(r.waves == 6);
  CHECK(r.wave_instructions == 60);
  CHECK(r.peak_workgroups == 6);  // the first finishes at 135, after the last left at 55
  CHECK(r.fault.empty());
  for (int i = 0; i < 6; ++i) {
    const HarnessCu::Started& s = b.cus[i % 2]->started[i / 2];
    INFO("workgroup " << i);
    CHECK(s.wg[0] == uint32_t(i));
    CHECK(s.first_wave == uint64_t(i));
    CHECK(s.at == sc_time(35 + 4 * i, SC_NS));
  }
  // The L1s get the acquire's Invalidate; the L2 the acquire's Invalidate
  // after the L1s' and the release's Writeback after the last workgroup.
  REQUIRE(b.l1[0]->commands.size() == 1);
  CHECK(b.l1[0]->commands[0].first == CacheOp::Invalidate);
  CHECK(b.l1[0]->commands[0].second == SC_ZERO_TIME);
  CHECK(b.l1[1]->commands.size() == 1);
  REQUIRE(b.l2[0]->commands.size() == 2);
  CHECK(b.l2[0]->commands[0].first == CacheOp::Invalidate);
  CHECK(b.l2[0]->commands[0].second == sc_time(15, SC_NS));
  CHECK(b.l2[0]->commands[1].first == CacheOp::Writeback);
  CHECK(b.l2[0]->commands[1].second == sc_time(155, SC_NS));
  CHECK(b.stat("launch_cycles") == 175);
  CHECK(b.stat("workgroups_to_cu0") == 3);
  CHECK(b.stat("workgroups_to_cu1") == 3);
  CHECK(b.stat("lines_invalidated") == 12);  // 3 per answered command
  CHECK(b.stat("refusals") == 0);
}

TEST_CASE("dispatcher: a release first writes back the acquire side's write-back caches, and only those",
          "[dispatcher]") {
  // As above, but l1_1 is write-back (answers after 15 cycles): after the last
  // workgroup (155) it alone gets a Writeback, and the L2's command waits for it.
  Bench b({{"workgroup_interval", 4}}, {{8, 100}, {8, 100}}, {10, 15}, {20});
  b.l1[1]->write_back = true;
  Job j(b.memory(), 6 * 64);
  const LaunchResult& r = b.run(j.job);
  CHECK(r.acquire_cycles == 35);
  CHECK(r.release_cycles == 15 + 20);
  CHECK(r.cycles == 155 + 15 + 20);
  REQUIRE(b.l1[0]->commands.size() == 1);  // the acquire's Invalidate only
  REQUIRE(b.l1[1]->commands.size() == 2);
  CHECK(b.l1[1]->commands[0].first == CacheOp::Invalidate);
  CHECK(b.l1[1]->commands[1].first == CacheOp::Writeback);
  CHECK(b.l1[1]->commands[1].second == sc_time(155, SC_NS));
  REQUIRE(b.l2[0]->commands.size() == 2);
  CHECK(b.l2[0]->commands[1].first == CacheOp::Writeback);
  CHECK(b.l2[0]->commands[1].second == sc_time(170, SC_NS));
}

// CP_DEBUG_SKIP_ACQUIRE (2): the L2 is not invalidated at the start (the L1s
// still are); CP_DEBUG_SKIP_RELEASE (1): no write-back at the end. One launch
// per test case: SystemC elaborates once per process.
static void check_debug_flags(int flags) {
  Bench b({{"workgroup_interval", 0}, {"debug_flags", flags}}, {{8, 100}}, {10}, {20});
  Job j(b.memory(), 64);
  const LaunchResult& r = b.run(j.job);
  const bool l2_acquire = !(flags & 2), release = !(flags & 1);
  CHECK(b.l1[0]->commands.size() == 1);
  CHECK(b.l2[0]->commands.size() == size_t(l2_acquire) + size_t(release));
  CHECK(r.acquire_cycles == (l2_acquire ? 30u : 10u));
  CHECK(r.release_cycles == (release ? 20u : 0u));
}

TEST_CASE("dispatcher: debug_flags 1 skips the baseline policy's release, as the firmware's", "[dispatcher]") {
  check_debug_flags(1);
}

TEST_CASE("dispatcher: debug_flags 2 skips the baseline policy's L2 invalidation, as the firmware's",
          "[dispatcher]") {
  check_debug_flags(2);
}

TEST_CASE("dispatcher: a full CU is skipped until it announces free resources", "[dispatcher]") {
  // cu0 holds 2 workgroups for 100 cycles, cu1 holds 2 for 150; 7 workgroups,
  // no pacing, no caches.
  Bench b({{"workgroup_interval", 0}}, {{2, 100}, {2, 150}}, {}, {});
  Job j(b.memory(), 7 * 64);
  const LaunchResult& r = b.run(j.job);
  // t=0: wg0 cu0, wg1 cu1, wg2 cu0, wg3 cu1; wg4 is refused by both (2 refusals).
  // t=100: cu0 frees both slots: wg4 and wg5 to cu0 (cu1 is still marked
  // full and not asked), wg6 refused by cu0 (3rd refusal). t=150: wg6 to cu1,
  // done at 300.
  CHECK(r.cycles == 300);
  CHECK(r.peak_workgroups == 4);  // both CUs full
  CHECK(b.stat("refusals") == 3);
  REQUIRE(b.cus[0]->started.size() == 4);
  REQUIRE(b.cus[1]->started.size() == 3);
  CHECK(b.cus[0]->started[2].wg[0] == 4);
  CHECK(b.cus[0]->started[2].at == sc_time(100, SC_NS));
  CHECK(b.cus[0]->started[3].wg[0] == 5);
  CHECK(b.cus[1]->started[2].wg[0] == 6);
  CHECK(b.cus[1]->started[2].at == sc_time(150, SC_NS));
  CHECK(b.cus[0]->refused + b.cus[1]->refused == 3);
}

TEST_CASE("dispatcher: each workgroup in flight has its own scratch region and regions are reused", "[dispatcher]") {
  Bench b({{"workgroup_interval", 0}}, {{2, 100}, {1, 100}}, {}, {});
  Job j(b.memory(), 9 * 64, 1024);
  const size_t allocations_before = b.memory().allocation_count();
  b.run(j.job);
  // 3 workgroups in flight at a time: 3 regions, each used 3 times.
  std::map<uint64_t, int> uses;
  for (auto& cu : b.cus)
    for (auto& s : cu->started) ++uses[s.scratch];
  REQUIRE(uses.size() == 3);
  for (auto& [addr, n] : uses) {
    CHECK(addr != 0);
    CHECK(n == 3);
  }
  // Regions go back to device memory when the launch ends.
  CHECK(b.memory().allocation_count() == allocations_before);
}

TEST_CASE("dispatcher: a functional launch runs every workgroup at once and skips cache maintenance",
          "[dispatcher]") {
  Bench b({}, {{1, 100}}, {10}, {20});
  Job j(b.memory(), 5 * 64 + 1);
  j.job.functional = true;
  const LaunchResult& r = b.run(j.job);
  CHECK(r.cycles == 0);
  CHECK(r.workgroups == 6);  // 5 full workgroups and a partial one
  CHECK(r.peak_workgroups == 1);
  CHECK(r.wave_instructions == 60);
  CHECK(b.cus[0]->started.size() == 6);
  CHECK(b.l1[0]->commands.empty());
  CHECK(b.l2[0]->commands.empty());
  CHECK(sc_core::sc_time_stamp() == SC_ZERO_TIME);
}

TEST_CASE("dispatcher: a wave fault stops the hand-out and the launch ends with the report", "[dispatcher]") {
  Bench b({{"workgroup_interval", 0}}, {{1, 100}}, {}, {20});
  Job j(b.memory(), 10 * 64);
  b.cus[0]->fault_x = 2;
  const LaunchResult& r = b.run(j.job);
  // The L2's invalidation 0..20; wg0 20..120, wg1 120..220, wg2 220..320
  // faults; no more workgroups; the release's write-back 20.
  CHECK(r.fault == "wave fault in workgroup 2");
  CHECK(r.workgroups == 3);
  CHECK(r.cycles == 340);
  CHECK(b.stat("faults") == 1);
}

TEST_CASE("dispatcher: a workgroup no CU can take ends the launch with a clear fault", "[dispatcher]") {
  Bench b({}, {{0, 100}, {0, 100}}, {}, {});
  Job j(b.memory(), 64);
  const LaunchResult& r = b.run(j.job);
  CHECK_THAT(r.fault, Catch::Contains("kernel 'vector_add': workgroup (0,0,0) does not fit on any compute unit"));
  CHECK(r.workgroups == 0);
}

TEST_CASE("dispatcher: a launch while one is running is a bug and bad jobs are refused", "[dispatcher]") {
  Bench b({}, {{1, 100}}, {}, {});
  Job j(b.memory(), 64);
  sc_core::sc_start(SC_ZERO_TIME);
  CHECK_THROWS_AS(b.dispatcher->launch(DispatchJob{}), UserError);
  b.dispatcher->launch(j.job);
  CHECK_THROWS_AS(b.dispatcher->launch(j.job), std::logic_error);
  sc_core::sc_start();
  CHECK_FALSE(b.dispatcher->busy());
  // A second launch on the same dispatcher starts from the current time.
  const sc_time before = sc_core::sc_time_stamp();
  b.dispatcher->launch(j.job);
  sc_core::sc_start();
  CHECK(b.dispatcher->result().cycles == 100);
  CHECK(sc_core::sc_time_stamp() - before == sc_time(100, SC_NS));
  CHECK(b.stat("launches") == 2);
}

// ---- CP mode: the register interface ------------------------------------------------

namespace {

// The command processor reduced to its two sockets: register accesses out,
// the interrupt line in (each interrupt's time is recorded).
class RegisterHost : public sc_core::sc_module {
 public:
  explicit RegisterHost(sc_core::sc_module_name name) : sc_module(name), regs("regs"), irq("irq") {
    irq.register_b_transport(this, &RegisterHost::irq_b_transport);
  }
  tlm_utils::simple_initiator_socket<RegisterHost> regs;
  tlm_utils::simple_target_socket<RegisterHost> irq;
  std::vector<sc_time> interrupts;

  // One 32-bit access; returns the response status and, for a read, the value.
  tlm::tlm_response_status access(bool write, uint32_t offset, uint32_t& value, sc_time* delay_out = nullptr) {
    tlm::tlm_generic_payload t;
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(offset);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(4);
    t.set_streaming_width(4);
    sc_time delay = SC_ZERO_TIME;
    regs->b_transport(t, delay);
    if (delay_out) *delay_out = delay;
    return t.get_response_status();
  }
  void write(uint32_t offset, uint32_t value) { REQUIRE(access(true, offset, value) == tlm::TLM_OK_RESPONSE); }
  uint32_t read(uint32_t offset) {
    uint32_t v = 0;
    REQUIRE(access(false, offset, v) == tlm::TLM_OK_RESPONSE);
    return v;
  }
  void write64(uint32_t lo, uint64_t value) {
    write(lo, static_cast<uint32_t>(value));
    write(lo + 4, static_cast<uint32_t>(value >> 32));
  }

 private:
  void irq_b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
    interrupts.push_back(sc_core::sc_time_stamp() + delay);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct CpBench {
  CpBench(std::vector<std::pair<unsigned, unsigned>> cus, std::vector<unsigned> acquire_latency,
          std::vector<unsigned> release_latency)
      : bench({{"workgroup_interval", 0}, {"register_latency", 7}}, cus, acquire_latency, release_latency,
              {{"regs", 1}, {"irq", 1}}),
        host("host") {
    host.regs.bind(*bench.dispatcher->regs);
    bench.dispatcher->irq->bind(host.irq);
  }
  // The job's packet, its kernel object entered in the platform's table.
  void load(const Job& j) {
    isa::AqlDispatchPacket p;
    bench.memory().read(&p, j.prepared->ctx().packet_address, sizeof p);
    bench.pf.shared.get<KernelObjectTable>("kernel_objects")
        .add(p.kernel_object, LoadedKernel{j.prepared->ctx().kernel, j.job.program, 0});
  }
  Bench bench;
  RegisterHost host;
};

}  // namespace

TEST_CASE("dispatcher registers: START runs exactly the range of the packet's grid and raises the interrupt",
          "[dispatcher][cp]") {
  CpBench c({{2, 100}, {2, 100}}, {10}, {20});
  Job j(c.bench.memory(), 8 * 64);
  c.load(j);
  sc_core::sc_start(SC_ZERO_TIME);
  CHECK(c.host.read(DISP_REG_CUS) == 2);
  c.host.write64(DISP_REG_PACKET_LO, j.prepared->ctx().packet_address);
  c.host.write64(DISP_REG_ID_LO, 0x1234567890ull);
  c.host.write(DISP_REG_WG_FIRST, 3);
  c.host.write(DISP_REG_WG_COUNT, 4);
  CHECK(c.host.read(DISP_REG_ID_HI) == 0x12);
  c.host.write(DISP_REG_START, 1);
  CHECK(c.host.read(DISP_REG_STATUS) == DISP_STATUS_BUSY);
  sc_core::sc_start();
  // Workgroups 3..6, two per CU at t=0 (no pacing), done at 100; no cache
  // command: the policy is the firmware's.
  REQUIRE(c.host.interrupts.size() == 1);
  CHECK(c.host.interrupts[0] == sc_time(100, SC_NS));
  std::set<uint32_t> started;
  for (auto& cu : c.bench.cus)
    for (auto& s : cu->started) {
      started.insert(s.wg[0]);
      CHECK(s.first_wave == s.wg[0]);  // one wave per workgroup, indices as in the whole grid
    }
  CHECK(started == std::set<uint32_t>{3, 4, 5, 6});
  CHECK(c.host.read(DISP_REG_WG_DONE) == 4);
  CHECK(c.host.read(DISP_REG_STATUS) == 0);
  CHECK(c.bench.l1[0]->commands.empty());
  CHECK(c.bench.l2[0]->commands.empty());
  CHECK(c.bench.stat("ranges") == 1);
  CHECK(c.bench.stat("launches") == 0);
  CHECK(c.bench.dispatcher->totals().wave_instructions == 40);
}

TEST_CASE("dispatcher registers: a cache command goes to one side and is acknowledged with an interrupt",
          "[dispatcher][cp]") {
  CpBench c({{1, 100}}, {10, 15}, {20});
  sc_core::sc_start(SC_ZERO_TIME);
  uint32_t v = DISP_CACHE_INVALIDATE | DISP_CACHE_TO_ACQUIRE;
  sc_time latency;
  REQUIRE(c.host.access(true, DISP_REG_CACHE_OP, v, &latency) == tlm::TLM_OK_RESPONSE);
  CHECK(latency == sc_time(7, SC_NS));  // register_latency
  CHECK(c.host.read(DISP_REG_STATUS) == DISP_STATUS_CACHE_BUSY);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 1);
  CHECK(c.host.interrupts[0] == sc_time(15, SC_NS));  // the slower of the two acquire-side caches
  CHECK(c.host.read(DISP_REG_LINES_INV) == 6);         // 3 per harness cache
  CHECK(c.bench.l1[0]->commands.size() == 1);
  CHECK(c.bench.l2[0]->commands.empty());
  c.host.write(DISP_REG_CACHE_OP, DISP_CACHE_WRITEBACK | DISP_CACHE_TO_RELEASE);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 2);
  CHECK(c.host.interrupts[1] - c.host.interrupts[0] == sc_time(20, SC_NS));
  REQUIRE(c.bench.l2[0]->commands.size() == 1);
  CHECK(c.bench.l2[0]->commands[0].first == CacheOp::Writeback);
  CHECK(c.host.read(DISP_REG_LINES_INV) == 3);
  CHECK(c.bench.stat("cache_commands") == 2);
}

TEST_CASE("dispatcher registers: a write-back on the release side first writes back the write-back L1s",
          "[dispatcher][cp]") {
  CpBench c({{1, 100}}, {10, 15}, {20});
  c.bench.l1[0]->write_back = true;
  sc_core::sc_start(SC_ZERO_TIME);
  // An Invalidate of the release side needs nothing from above.
  c.host.write(DISP_REG_CACHE_OP, DISP_CACHE_INVALIDATE | DISP_CACHE_TO_RELEASE);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 1);
  CHECK(c.bench.l1[0]->commands.empty());
  const sc_time first = c.host.interrupts[0];
  // A Writeback goes to l1_0 (10 cycles), then to the L2 (20 cycles); l1_1 is write-through.
  c.host.write(DISP_REG_CACHE_OP, DISP_CACHE_WRITEBACK | DISP_CACHE_TO_RELEASE);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 2);
  CHECK(c.host.interrupts[1] - first == sc_time(10 + 20, SC_NS));
  REQUIRE(c.bench.l1[0]->commands.size() == 1);
  CHECK(c.bench.l1[0]->commands[0].first == CacheOp::Writeback);
  CHECK(c.bench.l1[1]->commands.empty());
  REQUIRE(c.bench.l2[0]->commands.size() == 2);
  CHECK(c.bench.l2[0]->commands[1].first == CacheOp::Writeback);
  CHECK(c.bench.l2[0]->commands[1].second - c.bench.l1[0]->commands[0].second == sc_time(10, SC_NS));
  CHECK(c.host.read(DISP_REG_LINES_INV) == 6);  // 3 from each command's answer
}

TEST_CASE("dispatcher registers: an unknown kernel object or range is a bad packet, an unknown offset an error",
          "[dispatcher][cp]") {
  CpBench c({{1, 100}}, {}, {});
  Job j(c.bench.memory(), 4 * 64);  // not loaded: its kernel object is unknown
  sc_core::sc_start(SC_ZERO_TIME);
  c.host.write64(DISP_REG_PACKET_LO, j.prepared->ctx().packet_address);
  c.host.write(DISP_REG_WG_COUNT, 4);
  c.host.write(DISP_REG_START, 1);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 1);  // the firmware is never left waiting
  CHECK(c.host.read(DISP_REG_STATUS) == DISP_STATUS_BAD_PACKET);
  CHECK_THAT(c.bench.dispatcher->last_fault(), Catch::Contains("where no kernel is loaded"));
  CHECK(c.bench.cus[0]->started.empty());
  // Loaded, but the range runs past the grid's 4 workgroups.
  c.load(j);
  c.host.write(DISP_REG_WG_FIRST, 2);
  c.host.write(DISP_REG_START, 1);
  sc_core::sc_start();
  REQUIRE(c.host.interrupts.size() == 2);
  CHECK_THAT(c.bench.dispatcher->last_fault(), Catch::Contains("exceeds the grid's 4"));
  CHECK(c.bench.dispatcher->totals().bad_packets == 2);
  uint32_t v = 0;
  CHECK(c.host.access(false, 0x3c, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(c.host.access(true, DISP_REG_STATUS, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // read-only
  CHECK(c.host.access(true, DISP_REG_CACHE_OP, v = 9) == tlm::TLM_OK_RESPONSE);       // unknown op: refused
  sc_core::sc_start();
  CHECK(c.host.interrupts.size() == 3);
  CHECK((c.host.read(DISP_REG_STATUS) & DISP_STATUS_BAD_PACKET) != 0);
}
