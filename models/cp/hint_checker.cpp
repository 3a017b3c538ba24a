#include "models/cp/hint_checker.h"

#include "models/cu/compute_unit.h"
#include "models/cu/mem_request.h"
#include "models/cu/wave_slot.h"

namespace tessera {

namespace {

constexpr uint64_t kGranule = 256;  // the Chiplet Coherence Table's (sw/firmware/policy/cpelide.c)

// The first workgroup of chiplet c when the CP splits `workgroups` over `chiplets`.
uint64_t first_workgroup(uint64_t c, uint64_t workgroups, uint64_t chiplets) { return c * workgroups / chiplets; }

unsigned chiplet_of(uint64_t workgroup, uint64_t workgroups, unsigned chiplets) {
  unsigned c = 0;
  while (c + 1 < chiplets && first_workgroup(c + 1, workgroups, chiplets) <= workgroup) ++c;
  return c;
}

}  // namespace

void HintChecker::watch(Block& block) {
  if (auto* cu = dynamic_cast<ComputeUnit*>(&block)) cu->attach(*this);
}

void HintChecker::expect(uint64_t packet, const std::string& kernel, const std::vector<DeclaredUse>& uses,
                         unsigned dispatchers) {
  if (uses.empty()) {
    expected_.erase(packet);
    return;
  }
  Expected e;
  e.kernel = kernel;
  e.uses = uses;
  e.dispatchers = dispatchers ? dispatchers : 1;
  expected_[packet] = std::move(e);
}

void HintChecker::on_memory_response(const WaveSlot& w, const MemInst& m, uint64_t) {
  if (expected_.empty() || m.scalar || !w.wg) return;
  const WorkgroupTask& task = w.wg->task;
  auto it = expected_.find(task.ctx->packet_address);
  if (it == expected_.end()) return;
  const isa::DispatchContext& ctx = *task.ctx;
  const uint64_t workgroup =
      task.workgroup[0] + uint64_t(ctx.workgroup_count[0]) * (task.workgroup[1] + uint64_t(ctx.workgroup_count[1]) *
                                                                                      task.workgroup[2]);
  const uint64_t workgroups = ctx.workgroup_total();
  const unsigned chiplet = chiplet_of(workgroup, workgroups, it->second.dispatchers);
  const bool write = m.plan.kind != isa::MemKind::Load;
  for (const isa::MemChunk& chunk : m.plan.chunks)
    if (chunk.space == isa::MemSpace::Global)
      check(it->second, chunk.addr, chunk.bytes, write, chiplet, workgroups);
}

void HintChecker::check(Expected& e, uint64_t address, unsigned bytes, bool write, unsigned chiplet,
                        uint64_t workgroups) {
  for (size_t i = 0; i < e.uses.size(); ++i) {
    const DeclaredUse& u = e.uses[i];
    if (address < u.base || address - u.base >= u.bytes) continue;
    if (address + bytes > u.base + u.bytes) report(e, i, "an access past the buffer's end", address, chiplet);
    if (write && u.read_only) report(e, i, "a write to a buffer declared read-only", address, chiplet);
    if (u.chiplet_mask && !(u.chiplet_mask >> chiplet & 1))
      report(e, i, "an access by a chiplet outside the declared mask", address, chiplet);
    if (u.partitioned) {
      const uint64_t first = first_workgroup(chiplet, workgroups, e.dispatchers);
      const uint64_t end = first_workgroup(chiplet + 1, workgroups, e.dispatchers);
      const uint64_t lo = u.bytes * first / workgroups / kGranule * kGranule;
      const uint64_t hi = (u.bytes * end + workgroups - 1) / workgroups;
      const uint64_t offset = address - u.base;
      if (offset < lo || offset + bytes > (hi + kGranule - 1) / kGranule * kGranule)
        report(e, i, "an access outside the chiplet's share of a partitioned buffer", address, chiplet);
    }
    return;
  }
  report(e, e.uses.size(), "an access outside every declared buffer", address, chiplet);
}

void HintChecker::report(Expected& e, size_t use, const std::string& what, uint64_t address, unsigned chiplet) {
  auto [it, added] = e.reported.emplace(std::make_pair(use, what), violations_.size());
  if (!added) {
    ++violations_[it->second].count;
    return;
  }
  HintViolation v;
  v.kernel = e.kernel;
  if (use < e.uses.size()) {
    v.buffer_base = e.uses[use].base;
    v.buffer_bytes = e.uses[use].bytes;
  }
  v.address = address;
  v.chiplet = chiplet;
  v.what = what;
  v.count = 1;
  violations_.push_back(std::move(v));
}

}  // namespace tessera
