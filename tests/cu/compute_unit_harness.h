// Test support for the compute unit: kernels written in gfx90a assembly
// (assembled at test time with clang/lld, like kernel_builder.h compiles
// OpenCL C), a fixed-latency memory target serving device memory over AT, a
// dispatcher that offers workgroups in order and records when each finishes,
// and a rig that wires one CU to them.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/cu/compute_unit.h"
#include "models/cu/isa/prepared_dispatch.h"
#include "models/cu/workgroup_task.h"
#include "models/mem/gpu_access.h"
#include "tests/cu/kernel_builder.h"
#include "tests/mem/mem_test_support.h"

namespace tessera::test {

struct AsmKernel {
  std::string name = "k";
  std::string body;           // instructions, one per line
  unsigned vgprs = 8;         // .amdhsa_next_free_vgpr (arch VGPRs; no AGPRs unless agprs)
  unsigned agprs = 0;
  unsigned sgprs = 16;
  unsigned lds = 0;           // static LDS bytes
  unsigned max_workgroup = 1024;
};

// A code object with one kernel taking one global pointer argument `out`;
// s[0:1] = kernarg pointer, s2 = workgroup id x, v0 = work-item id x.
inline std::string assemble(const AsmKernel& k) {
  const unsigned total = k.vgprs + k.agprs;
  std::string s = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n.text\n.globl " + k.name + "\n.p2align 8\n.type " +
                  k.name + ",@function\n" + k.name + ":\n" + k.body + "\n.rodata\n.p2align 6\n.amdhsa_kernel " +
                  k.name + "\n  .amdhsa_next_free_vgpr " + std::to_string(total) + "\n  .amdhsa_next_free_sgpr " +
                  std::to_string(k.sgprs) + "\n  .amdhsa_accum_offset " + std::to_string(k.vgprs) +
                  "\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_system_sgpr_workgroup_id_x 1\n"
                  "  .amdhsa_group_segment_fixed_size " + std::to_string(k.lds) +
                  "\n.end_amdhsa_kernel\n.amdgpu_metadata\n---\namdhsa.version: [1, 1]\namdhsa.kernels:\n  - .name: " +
                  k.name + "\n    .symbol: " + k.name + ".kd\n    .kernarg_segment_size: 8\n"
                  "    .kernarg_segment_align: 8\n    .group_segment_fixed_size: " + std::to_string(k.lds) +
                  "\n    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n    .sgpr_count: " +
                  std::to_string(k.sgprs) + "\n    .vgpr_count: " + std::to_string(total) +
                  "\n    .max_flat_workgroup_size: " + std::to_string(k.max_workgroup) +
                  "\n    .args:\n      - {.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, "
                  ".address_space: global}\n...\n.end_amdgpu_metadata\n";
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/tests/cu_kernels";
  const std::string base = dir + "/asm_" + k.name + "_" + std::to_string(std::hash<std::string>()(s));
  const std::string hsaco = base + ".hsaco";
  if (std::ifstream(hsaco).good()) return hsaco;
  const std::string tmp = base + "." + std::to_string(getpid());
  if (std::system(("mkdir -p '" + dir + "'").c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  std::ofstream(tmp + ".s") << s;
  const std::string cmd = "clang-14 -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx90a -c '" + tmp + ".s' -o '" +
                          tmp + ".o' && ld.lld-14 -shared '" + tmp + ".o' -o '" + tmp + ".hsaco'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("kernel " + k.name + " failed to assemble");
  std::rename((tmp + ".hsaco").c_str(), hsaco.c_str());
  std::remove((tmp + ".s").c_str());
  std::remove((tmp + ".o").c_str());
  return hsaco;
}

// An AT target with a fixed latency and unlimited acceptance, reading and
// writing device memory when a request arrives and answering `latency`
// later. Applies atomics in lane order (as the L2 would).
class LatencyMemory : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(LatencyMemory);
  LatencyMemory(sc_core::sc_module_name name, isa::DeviceMemory& mem, sc_core::sc_time latency)
      : sc_module(name), socket("socket"), mem_(mem), latency_(latency), peq_("peq") {
    socket.register_nb_transport_fw(this, &LatencyMemory::nb_transport_fw);
    socket.register_transport_dbg(this, &LatencyMemory::transport_dbg);
    SC_METHOD(respond);
    sensitive << peq_.get_event();
    dont_initialize();
  }

  tlm_utils::simple_target_socket<LatencyMemory> socket;
  struct Seen {
    uint64_t addr;
    unsigned len;
    AccessKind kind;
    sc_core::sc_time at;
  };
  std::vector<Seen> requests;
  unsigned debug_accesses = 0;
  // Requests starting in [refuse_from, refuse_to) are answered with an address error.
  uint64_t refuse_from = 0, refuse_to = 0;
  // Called on every vector load's answer (a test marks lines compressed, as an L1 would).
  std::function<void(tlm::tlm_generic_payload&, GpuAccess&)> on_load;
  // Called on every vector store as it arrives.
  std::function<void(tlm::tlm_generic_payload&, GpuAccess&)> on_store;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    GpuAccess* a = t.get_extension<GpuAccess>();
    requests.push_back(Seen{t.get_address(), t.get_data_length(), a ? a->kind : AccessKind::Load, sc_core::sc_time_stamp()});
    if (t.get_address() >= refuse_from && t.get_address() < refuse_to)
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    else
      perform(t, a);
    t.acquire();
    peq_.notify(t, delay + latency_);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  // Debug reads and writes of device memory, at no time.
  unsigned int transport_dbg(tlm::tlm_generic_payload& t) {
    ++debug_accesses;
    if (t.is_read())
      mem_.read_any(t.get_address(), t.get_data_ptr(), t.get_data_length());
    else if (t.is_write())
      mem_.write_masked(t.get_address(), t.get_data_ptr(), t.get_data_length(), nullptr);
    else
      return 0;
    return t.get_data_length();
  }
  void perform(tlm::tlm_generic_payload& t, GpuAccess* a) {
    if (a && a->kind == AccessKind::Atomic) {
      for (AtomicLane& l : a->lanes) {
        const unsigned n = (a->elem == isa::mem::Elem::U64 || a->elem == isa::mem::Elem::F64) ? 8 : 4;
        uint8_t* p = mem_.translate(t.get_address() + l.offset, n);
        l.old = p ? isa::mem::rmw(p, a->elem, a->op, l.src, l.cmp) : 0;
      }
    } else if (t.is_read()) {
      mem_.read_any(t.get_address(), t.get_data_ptr(), t.get_data_length());
      if (on_load && a && a->kind == AccessKind::Load) on_load(t, *a);
    } else {
      if (on_store && a && a->kind == AccessKind::Store) on_store(t, *a);
      mem_.write_masked(t.get_address(), t.get_data_ptr(), t.get_data_length(), t.get_byte_enable_ptr());
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void respond() {
    while (tlm::tlm_generic_payload* t = peq_.get_next_transaction()) {
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      socket->nb_transport_bw(*t, phase, d);  // the CU answers TLM_COMPLETED
      t->release();
    }
  }
  isa::DeviceMemory& mem_;
  sc_core::sc_time latency_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> peq_;
};

// Offers workgroups in order; a refused one is offered again when the CU
// announces free resources. Records when each workgroup finishes.
class TestDispatcher : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TestDispatcher);
  explicit TestDispatcher(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_nb_transport_bw(this, &TestDispatcher::nb_transport_bw);
    SC_THREAD(run);
  }
  tlm_utils::simple_initiator_socket<TestDispatcher> socket;
  std::vector<WorkgroupTask> tasks;     // to offer, in order
  std::vector<WorkgroupTask> finished;  // as reported
  std::vector<sc_core::sc_time> finish_times, accept_times;
  unsigned refusals = 0;

 private:
  void run() {
    for (const WorkgroupTask& task : tasks) {
      for (;;) {
        tlm::tlm_generic_payload p;
        auto* ext = new WorkgroupTask(task);
        p.set_extension(ext);
        p.set_command(tlm::TLM_IGNORE_COMMAND);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->b_transport(p, d);
        const bool accepted = ext->accepted;
        if (accepted && ext->finished) {  // functional mode, or a workgroup that can never run
          finished.push_back(*ext);
          finish_times.push_back(sc_core::sc_time_stamp());
        }
        if (accepted) {
          accept_times.push_back(sc_core::sc_time_stamp());
          break;
        }
        ++refusals;
        wait(freed_);
      }
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase&, sc_core::sc_time&) {
    WorkgroupTask* t = p.get_extension<WorkgroupTask>();
    if (t && t->finished) {
      finished.push_back(*t);
      finish_times.push_back(sc_core::sc_time_stamp());
    }
    freed_.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  sc_core::sc_event freed_;
};

// CU parameters with no launch latency, so that cycle counts start at the
// first instruction; `extra` adds or overrides parameters.
inline json quiet(json extra = json::object()) {
  json p = {{"launch_latency", 0}};
  for (auto& [k, v] : extra.items()) p[k] = v;
  return p;
}

// One CU with its dispatcher and three latency memories (vector, scalar,
// instruction fetch), running one kernel of an assembled or compiled code
// object. Clock 1 ns: times in ns are cycles.
struct CuRig {
  CuRig(const std::string& hsaco, const std::string& kernel, const json& cu_params, unsigned vmem_latency = 100,
        unsigned smem_latency = 20, unsigned fetch_latency = 10)
      : code(isa::CodeObject::load_file(hsaco)),
        program(code),
        device(platform.shared.get<isa::DeviceMemory>("device")),
        cu(platform.create<ComputeUnit>("compute_unit", "cu[0]", cu_params)),
        vmem("vmem_mem", device, ns(vmem_latency)),
        smem("smem_mem", device, ns(smem_latency)),
        fetch("fetch_mem", device, ns(fetch_latency)),
        dispatcher("dispatcher") {
    info = code.find_kernel(kernel);
    if (!info) throw std::runtime_error("no kernel " + kernel);
    dispatcher.socket.bind(cu.dispatch);
    cu.vmem.bind(vmem.socket);
    cu.smem.bind(smem.socket);
    cu.ifetch.bind(fetch.socket);
  }

  // Prepares a 1-D launch with `out` as the argument; queues every workgroup.
  void launch(uint64_t out, uint32_t grid, uint32_t block, bool functional = false) {
    isa::LaunchConfig cfg;
    cfg.grid[0] = grid;
    cfg.workgroup[0] = block;
    isa::ArgValue a;
    a.bytes.resize(8);
    std::memcpy(a.bytes.data(), &out, 8);
    cfg.args.push_back(a);
    launch(cfg, functional);
  }
  void launch(const isa::LaunchConfig& cfg, bool functional = false) {
    prepared = std::make_unique<isa::PreparedDispatch>(device, program, *info, cfg, 0);
    const isa::DispatchContext& ctx = prepared->ctx();
    uint64_t wave = 0;
    for (uint32_t z = 0; z < ctx.workgroup_count[2]; ++z)
      for (uint32_t y = 0; y < ctx.workgroup_count[1]; ++y)
        for (uint32_t x = 0; x < ctx.workgroup_count[0]; ++x) {
          WorkgroupTask t;
          t.ctx = &ctx;
          t.program = &program;
          t.workgroup[0] = x;
          t.workgroup[1] = y;
          t.workgroup[2] = z;
          t.first_dispatch_wave = wave;
          t.functional = functional;
          // Each workgroup its own private segments, as a dispatcher with
          // many workgroups in flight hands them out.
          if (prepared->scratch_bytes_per_workgroup())
            t.scratch_address = device.alloc(prepared->scratch_bytes_per_workgroup());
          wave += ctx.waves_per_workgroup;
          dispatcher.tasks.push_back(t);
        }
  }

  void run() { sc_core::sc_start(); }
  uint64_t stat(const std::string& name) const { return platform.stat("cu[0]", name); }
  // The cycle the last workgroup finished.
  uint64_t finish_cycle() const {
    uint64_t c = 0;
    for (const auto& t : dispatcher.finish_times) c = std::max<uint64_t>(c, uint64_t(t.to_seconds() * 1e9 + 0.5));
    return c;
  }

  MiniPlatform platform;
  isa::CodeObject code;
  isa::DecodeCache program;
  isa::DeviceMemory& device;
  ComputeUnit& cu;
  LatencyMemory vmem, smem, fetch;
  TestDispatcher dispatcher;
  const isa::KernelInfo* info = nullptr;
  std::unique_ptr<isa::PreparedDispatch> prepared;
};

}  // namespace tessera::test
