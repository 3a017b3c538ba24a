#include "models/lds/lds_multicast.h"

#include <utility>

#include "models/cu/inst_marks.h"

namespace tessera::lds {

uint32_t multicast_mark(const analysis::InstructionMark& m) {
  if (!m.lds_read || !(m.multicast_read || m.multicast_pair)) return 0;
  return kMulticastMark | (m.multicast_pair ? kMulticastPairMark : 0) |
         uint32_t(m.read_sources) << kMulticastSourcesShift;
}

bool multicast_allowed(uint32_t bits, const analysis::WorkgroupShape& shape) {
  if (!(bits & kMulticastMark)) return false;
  // A workgroup of one wave has no other wave to send a partner: its reads
  // would only wait in the table until they expire.
  if (uint64_t{shape.x} * shape.y * shape.z <= 64) return false;
  analysis::InstructionMark m;
  m.lds_read = true;
  m.read_sources = static_cast<analysis::Sources>(bits >> kMulticastSourcesShift & 0x3ff);
  m.multicast_pair = bits & kMulticastPairMark;
  m.multicast_class = analysis::classify(m.read_sources);
  m.multicast_read = m.multicast_class != analysis::ValueClass::Varying;
  return analysis::multicast(m, shape);
}

void register_multicast_marker() {
  static const bool registered = register_inst_marker(
      "lds_multicast", [](isa::DecodeCache& program, const isa::KernelInfo& kernel, InstMarks& marks) {
        const analysis::KernelMarks k = analysis::analyze_kernel(program.code(), kernel);
        for (const analysis::InstructionMark& m : k.marks)
          if (const uint32_t bits = multicast_mark(m)) marks.set(m.pc, bits);
      });
  (void)registered;
}

uint32_t fingerprint(const LdsRequest& r) {
  if (!r.exec) return 0;
  return r.addr[0][__builtin_ctzll(r.exec)];
}

void HeldRead::hold(const MulticastRead& r, uint64_t deadline) {
  group_ = r.group;
  tag_ = r.tag;
  key_ = r.key;
  exec_ = r.request.exec;
  deadline_ = deadline;
  fingerprint_ = lds::fingerprint(r.request);
  addresses_per_lane_ = r.request.addresses_per_lane;
  bytes_ = r.request.bytes;
  for (unsigned a = 0; a < addresses_per_lane_; ++a)
    for (unsigned l = 0; l < 64; ++l) addr_[a][l] = exec_ >> l & 1 ? r.request.addr[a][l] : 0;
}

LdsRequest HeldRead::request() const {
  LdsRequest r;
  r.exec = exec_;
  r.addresses_per_lane = addresses_per_lane_;
  r.bytes = bytes_;
  for (unsigned a = 0; a < addresses_per_lane_; ++a) r.addr[a] = addr_[a].data();
  return r;
}

bool HeldRead::same_addresses(const LdsRequest& r) const {
  if (r.exec != exec_ || r.addresses_per_lane != addresses_per_lane_ || r.bytes != bytes_) return false;
  for (unsigned a = 0; a < addresses_per_lane_; ++a)
    for (unsigned l = 0; l < 64; ++l)
      if (exec_ >> l & 1 && r.addr[a][l] != addr_[a][l]) return false;
  return true;
}

LdsMulticast::LdsMulticast(unsigned table, unsigned wait) : wait_(wait), table_(table) {}

LdsMulticast::Outcome LdsMulticast::offer(const MulticastRead& r, uint64_t c, HeldRead& partner) {
  const uint32_t fp = fingerprint(r.request);
  for (size_t i = 0; i < used_; ++i) {
    const HeldRead& e = table_[i];
    if (e.group() != r.group || e.tag().owner == r.tag.owner || e.key() != r.key || e.fingerprint() != fp) continue;
    take(i, partner);
    return partner.same_addresses(r.request) ? Outcome::Merged : Outcome::Mismatch;
  }
  if (used_ == table_.size()) return Outcome::TableFull;
  table_[used_++].hold(r, c + wait_);
  return Outcome::Waiting;
}

void LdsMulticast::take(size_t i, HeldRead& out) {
  out = std::move(table_[i]);
  for (size_t j = i + 1; j < used_; ++j) table_[j - 1] = std::move(table_[j]);
  --used_;
}

bool LdsMulticast::pop_expired(uint64_t c, HeldRead& out) {
  // Every read waits the same time, so the oldest entry ends its wait first.
  if (!used_ || table_[0].deadline() > c) return false;
  take(0, out);
  return true;
}

bool LdsMulticast::pop_group(const void* group, HeldRead& out) {
  for (size_t i = 0; i < used_; ++i)
    if (table_[i].group() == group) {
      take(i, out);
      return true;
    }
  return false;
}

uint64_t LdsMulticast::next_deadline() const { return used_ ? table_[0].deadline() : LdsPipeline::kNone; }

}  // namespace tessera::lds
