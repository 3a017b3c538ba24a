// The "dispatch" protocol between a dispatcher and its compute units.
//
// A dispatcher offers one workgroup at a time to a CU with b_transport on its
// `cu[i]` socket: a generic payload (command TLM_IGNORE_COMMAND, no data)
// carrying a WorkgroupTask extension. The CU sets `accepted` if it has the
// resources (a wave slot per wave, VGPRs, SGPRs, LDS) and starts the
// workgroup; otherwise it leaves `accepted` false and remembers that the
// dispatcher is waiting. When a workgroup finishes (or when resources free up
// after a refusal) the CU calls nb_transport_bw on the same socket with
// phase BEGIN_RESP and a payload whose WorkgroupTask names the finished
// workgroup (`finished` true) or only announces free resources (`finished`
// false). The dispatcher answers TLM_COMPLETED. No time passes in either call;
// the CU models its own launch latency.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include <tlm>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/dispatch.h"

namespace tessera {

class WorkgroupTask : public tlm::tlm_extension<WorkgroupTask> {
 public:
  // What to run. The context (geometry, kernarg/packet addresses, LDS size,
  // scratch layout) and the decoded program outlive the dispatch.
  const isa::DispatchContext* ctx = nullptr;
  isa::DecodeCache* program = nullptr;
  uint32_t workgroup[3] = {0, 0, 0};
  uint64_t first_dispatch_wave = 0;  // dispatch-wide index of the workgroup's first wave
  // Device memory for the private segments of this workgroup's waves:
  // ctx->scratch_wave_bytes per wave, contiguous (0 if the kernel has none).
  uint64_t scratch_address = 0;
  // Where instruction fetches go: the device address holding the first byte
  // of the program's .text, so that programs loaded at different places do
  // not alias in the instruction caches. 0: the code object's own (link-time)
  // addresses plus the CU's fetch_base parameter.
  uint64_t code_address = 0;
  // Run with no timing: the CU executes the workgroup to completion at once,
  // reading and writing device memory directly (functional mode).
  bool functional = false;

  // Set by the CU.
  bool accepted = false;
  bool finished = false;
  // A wave faulted: the report (kernel, workgroup, wave, PC, address). The
  // dispatcher stops handing out work and the run ends with this error.
  std::string fault;
  uint64_t wave_instructions = 0;  // executed by this workgroup (when finished)

  tlm::tlm_extension_base* clone() const override { return new WorkgroupTask(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const WorkgroupTask&>(other);
  }
};

// The workgroup's own extent, for the launch rules of the static marks: one
// at the edge of a grid may be smaller than the dispatch's workgroup size.
inline analysis::WorkgroupShape extent_of(const WorkgroupTask& task) {
  const isa::DispatchContext& ctx = *task.ctx;
  uint32_t e[3];
  for (int d = 0; d < 3; ++d) e[d] = std::min(ctx.workgroup[d], ctx.grid[d] - task.workgroup[d] * ctx.workgroup[d]);
  return {e[0], e[1], e[2]};
}

}  // namespace tessera
