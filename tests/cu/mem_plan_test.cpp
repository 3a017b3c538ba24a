// Two-phase memory instructions (models/cu/isa/mem_plan.h): for every
// mnemonic with plan/complete, random registers, addresses and EXEC on two
// identical machines; one runs the ExecFn, the other plan, then
// perform_directly, then complete, with every register complete() may not
// read scrambled in between. Registers, device memory and LDS must come out
// identical, and a faulting instruction must fault with the same message.
// Directed cases then pin the chunk layout: buffer lanes out of range, the
// scratch swizzle, flat through the LDS aperture, atomic return order, and the
// LDS addresses of DS instructions.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/op_table.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

using namespace tessera::isa;

namespace {

constexpr unsigned kVgprs = 64, kAgprs = 64;
constexpr uint64_t kBufBytes = 64 * 1024;
constexpr uint32_t kLdsBytes = 16 * 1024;
constexpr uint32_t kLaneScratch = 256;  // private bytes per lane

// One wave with its device memory (a data buffer and a scratch segment) and LDS.
struct Machine {
  DeviceMemory mem;
  std::vector<uint8_t> lds = std::vector<uint8_t>(kLdsBytes);
  Wave w{kVgprs, kAgprs};
  uint64_t buf = 0, scratch = 0;

  explicit Machine(uint32_t seed) {
    buf = mem.alloc(kBufBytes);
    scratch = mem.alloc(uint64_t(kLaneScratch) * kWaveSize);
    std::mt19937_64 rng(seed);
    const auto fill = [&](uint8_t* p, size_t n) {
      for (size_t k = 0; k < n; k += 8) {
        const uint64_t x = rng();
        std::memcpy(p + k, &x, 8);
      }
    };
    std::vector<uint8_t> bytes(kBufBytes);
    fill(bytes.data(), bytes.size());
    mem.write(buf, bytes.data(), bytes.size());
    bytes.resize(uint64_t(kLaneScratch) * kWaveSize);
    fill(bytes.data(), bytes.size());
    mem.write(scratch, bytes.data(), bytes.size());
    fill(lds.data(), lds.size());
    w.attach_memory(&mem);
    w.attach_lds(lds.data(), kLdsBytes);
    w.attach_scratch(scratch, kLaneScratch);
  }
  std::vector<uint8_t> contents(uint64_t addr, uint64_t bytes) const {
    std::vector<uint8_t> v(bytes);
    mem.read(v.data(), addr, bytes);
    return v;
  }
};

// Every register of a wave, for snapshots and comparisons.
struct Regs {
  std::vector<uint32_t> s, v, a;
};
Regs regs_of(const Wave& w) {
  Regs r;
  for (uint16_t i = 0; i < reg::kScalarFileSize; ++i) r.s.push_back(w.s(i));
  for (unsigned i = 0; i < w.num_vgprs(); ++i) r.v.insert(r.v.end(), w.v(i), w.v(i) + kWaveSize);
  for (unsigned i = 0; i < w.num_agprs(); ++i) r.a.insert(r.a.end(), w.a(i), w.a(i) + kWaveSize);
  return r;
}
void set_regs(Wave& w, const Regs& r) {
  for (uint16_t i = 0; i < reg::kScalarFileSize; ++i) w.s(i) = r.s[i];
  for (unsigned i = 0; i < w.num_vgprs(); ++i) std::memcpy(w.v(i), &r.v[i * kWaveSize], 4 * kWaveSize);
  for (unsigned i = 0; i < w.num_agprs(); ++i) std::memcpy(w.a(i), &r.a[i * kWaveSize], 4 * kWaveSize);
}

const OpInfo* op_named(const std::string& mnemonic) {
  for (const OpInfo* op : all_ops())
    if (mnemonic == op->mnemonic && op->format != Format::VOP3) return op;
  return nullptr;
}

Instruction decode2(uint32_t w0, uint32_t w1) {
  const uint32_t words[3] = {w0, w1, 0};
  const Instruction in = decode(words, 3, 0);
  REQUIRE(in.op != nullptr);
  return in;
}

// --- Encoders (gfx90a field layouts, as models/cu/isa/decoder.cpp reads them) ---
struct FlatFields {
  unsigned vaddr = 0, data = 0, vdst = 0, saddr = 0x7f;  // 0x7f: saddr "off"
  int offset = 0;
  bool glc = false, slc = false, acc = false;
};
Instruction encode_flat(const OpInfo& op, const FlatFields& f) {
  const unsigned seg = op.format == Format::FLAT ? 0 : op.format == Format::SCRATCH ? 1 : 2;
  const uint32_t w0 = (0x37u << 26) | (uint32_t(op.opcode) << 18) | (uint32_t(f.slc) << 17) | (uint32_t(f.glc) << 16) |
                      (seg << 14) | (uint32_t(f.offset) & 0x1fff);
  const uint32_t w1 = f.vaddr | (f.data << 8) | (f.saddr << 16) | (uint32_t(f.acc) << 23) | (f.vdst << 24);
  return decode2(w0, w1);
}

struct BufFields {
  unsigned vaddr = 0, vdata = 0, srsrc = 0, soffset = 128;  // soffset: an SGPR or an inline constant code
  unsigned offset = 0;
  bool offen = false, idxen = false, glc = false, slc = false, acc = false;
};
Instruction encode_mubuf(const OpInfo& op, const BufFields& f) {
  const uint32_t w0 = (0x38u << 26) | (uint32_t(op.opcode) << 18) | (uint32_t(f.slc) << 17) | (uint32_t(f.glc) << 14) |
                      (uint32_t(f.idxen) << 13) | (uint32_t(f.offen) << 12) | (f.offset & 0xfff);
  const uint32_t w1 = f.vaddr | (f.vdata << 8) | ((f.srsrc >> 2) << 16) | (uint32_t(f.acc) << 23) | (f.soffset << 24);
  return decode2(w0, w1);
}

struct SmemFields {
  unsigned sdata = 0, sbase = 0, soffset = 0;
  int offset = 0;
  bool imm = true, soe = false, glc = false;
};
Instruction encode_smem(const OpInfo& op, const SmemFields& f) {
  const uint32_t w0 = (0x30u << 26) | (uint32_t(op.opcode) << 18) | (uint32_t(f.imm) << 17) | (uint32_t(f.glc) << 16) |
                      (uint32_t(f.soe) << 14) | (f.sdata << 6) | (f.sbase >> 1);
  const uint32_t w1 = f.imm ? ((uint32_t(f.offset) & 0x1fffff) | (f.soe ? f.soffset << 25 : 0)) : f.soffset;
  return decode2(w0, w1);
}

// Bytes a memory instruction moves per lane (per address for DS).
unsigned access_bytes(const OpInfo& op) {
  const std::string m = op.mnemonic;
  if (op.flags & kAtomic) return m.find("_x2") != std::string::npos ? 8 : 4;
  if (m.find("byte") != std::string::npos) return 1;
  if (m.find("short") != std::string::npos) return 2;
  if (m.find("dwordx2") != std::string::npos) return 8;
  if (m.find("dwordx3") != std::string::npos) return 12;
  if (m.find("dwordx4") != std::string::npos) return 16;
  return 4;
}
unsigned data_dwords(const OpInfo& op) { return type_dwords(op.src_type[1]) ? type_dwords(op.src_type[1]) : 1; }
unsigned dst_dwords(const OpInfo& op) { return type_dwords(op.dst_type) ? type_dwords(op.dst_type) : 1; }

// Random instruction, registers and addresses for one trial, written into a
// machine; the other machine receives a copy of the registers.
class Trial {
 public:
  Trial(std::mt19937& rng, Machine& m) : rng_(rng), m_(m) {}

  Instruction make(const OpInfo& op) {
    randomize_registers();
    // Unit stride: active lanes 0..n-1 at consecutive addresses, which a
    // plan packs into one chunk when they are all in one allocation.
    unit_ = (op.format == Format::FLAT || op.format == Format::GLOBAL) && chance(3);
    unit_base_ = (rnd(static_cast<uint32_t>(kBufBytes - 64 * 16)) / 4) * 4 + (chance(4) ? rnd(4) : 0);
    exec_ = unit_ ? ~0ull >> rnd(64) : pick_exec();
    fault_lane_ = chance(6) && exec_ ? pick_active_lane() : -1;
    Instruction in;
    switch (op.format) {
      case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: in = make_flat(op); break;
      case Format::MUBUF: in = make_mubuf(op); break;
      case Format::SMEM: in = make_smem(op); break;
      default: FAIL("unexpected format for " << op.mnemonic);
    }
    m_.w.set_exec(exec_);
    return in;
  }

 private:
  uint32_t rnd(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  bool chance(unsigned one_in) { return rnd(one_in) == 0; }

  void randomize_registers() {
    for (uint16_t r = 0; r < reg::kScalarFileSize; ++r) m_.w.s(r) = static_cast<uint32_t>(rng_());
    for (unsigned r = 0; r < kVgprs; ++r)
      for (int l = 0; l < kWaveSize; ++l) m_.w.v(r)[l] = static_cast<uint32_t>(rng_());
    for (unsigned r = 0; r < kAgprs; ++r)
      for (int l = 0; l < kWaveSize; ++l) m_.w.a(r)[l] = static_cast<uint32_t>(rng_());
    m_.w.attach_scratch(m_.scratch, kLaneScratch);  // FLAT_SCRATCH back in place
  }
  uint64_t pick_exec() {
    switch (rnd(4)) {
      case 0: return ~0ull;
      case 1: return 0;
      case 2: return (uint64_t(rng_()) << 32) | rng_();
      default: return 1ull << rnd(64);
    }
  }
  int pick_active_lane() {
    for (;;) {
      const unsigned l = rnd(64);
      if ((exec_ >> l) & 1) return static_cast<int>(l);
    }
  }
  // An offset into the buffer with room for 64 bytes: anywhere, or in a
  // small hot window so that lanes collide.
  uint64_t buffer_offset(unsigned align) {
    const uint64_t span = chance(3) ? 64 : kBufBytes - 64;
    return (rnd(static_cast<uint32_t>(span)) / align) * align;
  }
  // Private offset of an access of `bytes` that stays inside one dword.
  uint64_t private_offset(unsigned bytes) {
    const unsigned align = bytes >= 4 ? 4 : bytes;
    return (rnd(kLaneScratch - 16) / align) * align;
  }
  unsigned vreg(unsigned dwords) { return rnd(kVgprs - dwords + 1); }

  // Per-lane targets for FLAT/GLOBAL/SCRATCH: a device address, an LDS
  // aperture address or a private offset (scratch) / private aperture address.
  uint64_t flat_target(const OpInfo& op, unsigned lane, unsigned bytes, unsigned kind_mix) {
    const bool bad = static_cast<int>(lane) == fault_lane_;
    const unsigned align = chance(4) ? 1 : (bytes >= 4 ? 4 : bytes);
    if (op.format == Format::SCRATCH) {
      if (bad) return chance(2) ? kLaneScratch + 4 * rnd(8) : private_offset(4) + 3;  // past the end, or crossing
      return private_offset(bytes);
    }
    unsigned kind = 0;  // 0 global, 1 LDS, 2 private
    if (op.format == Format::FLAT && kind_mix) kind = rnd(kind_mix == 1 ? 2 : 3);
    if (kind == 1) {
      if (bad) return kSharedApertureBase + kLdsBytes - bytes + 4 + rnd(64);
      return kSharedApertureBase + (rnd(kLdsBytes - 16) / align) * align;
    }
    if (kind == 2) {
      if (bad) return kPrivateApertureBase + kLaneScratch + 4 * rnd(8);
      return kPrivateApertureBase + private_offset(bytes);
    }
    if (bad) return m_.buf + kBufBytes - bytes + 1 + rnd(64);
    if (unit_) return m_.buf + unit_base_ + uint64_t(lane) * bytes;
    return m_.buf + buffer_offset(align);
  }

  Instruction make_flat(const OpInfo& op) {
    FlatFields f;
    const unsigned bytes = access_bytes(op);
    const bool scratch = op.format == Format::SCRATCH;
    f.offset = scratch ? static_cast<int>(rnd(32)) * 4 : static_cast<int>(rnd(512)) - (op.format == Format::FLAT ? 0 : 256);
    f.glc = chance(2);
    f.slc = chance(2);
    f.acc = chance(4);
    f.data = (f.acc ? rnd(kAgprs - data_dwords(op) + 1) : vreg(data_dwords(op)));
    f.vdst = f.acc ? rnd(kAgprs - dst_dwords(op) + 1) : vreg(dst_dwords(op));
    const bool saddr = op.format != Format::FLAT && chance(2);
    // Scratch with saddr: every lane at the same private offset (SADDR + offset).
    const unsigned kind_mix = chance(2) ? 0 : rnd(2) + 1;
    if (saddr) f.saddr = scratch ? rnd(reg::kSgprCount) : 2 * rnd(reg::kSgprCount / 2);
    f.vaddr = vreg(scratch ? 1 : 2);
    uint64_t base = 0;
    if (saddr && scratch) {
      const uint64_t target = flat_target(op, fault_lane_ >= 0 ? fault_lane_ : 0, bytes, 0);
      m_.w.s(static_cast<uint16_t>(f.saddr)) = static_cast<uint32_t>(target - f.offset);
      return encode_flat(op, f);
    }
    if (saddr) {
      base = m_.buf - 8192;
      m_.w.set_s64(static_cast<uint16_t>(f.saddr), base);
    }
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      const uint64_t target = (exec_ >> lane) & 1 ? flat_target(op, lane, bytes, kind_mix) : uint64_t(rng_()) << rnd(40);
      const uint64_t v = target - static_cast<uint64_t>(static_cast<int64_t>(f.offset)) - base;
      m_.w.v(f.vaddr)[lane] = static_cast<uint32_t>(v);
      if (!scratch && !saddr) m_.w.v(f.vaddr + 1)[lane] = static_cast<uint32_t>(v >> 32);
    }
    return encode_flat(op, f);
  }

  // A buffer resource in s[srsrc..+3] of one of four kinds: raw (offsets
  // checked against num_records), structured (indices checked), swizzled with
  // the thread id (the private segment buffer) and raw near the allocation's
  // end, where in-range lanes can still fault.
  Instruction make_mubuf(const OpInfo& op) {
    BufFields f;
    const unsigned bytes = access_bytes(op);
    f.srsrc = 4 * rnd(reg::kSgprCount / 4);
    f.vaddr = vreg(2);
    f.glc = chance(2);
    f.slc = chance(2);
    f.acc = chance(4);
    f.vdata = f.acc ? rnd(kAgprs - std::max(data_dwords(op), dst_dwords(op)) + 1)
                    : vreg(std::max(data_dwords(op), dst_dwords(op)));
    f.offset = rnd(64);
    uint32_t soffset = 0;
    if (chance(2)) {
      f.soffset = 128 + rnd(17);  // inline constants 0..16
      soffset = f.soffset - 128;
    } else {
      do f.soffset = rnd(reg::kSgprCount); while (f.soffset >= f.srsrc && f.soffset < f.srsrc + 4);
      soffset = 4 * rnd(8);
      m_.w.s(static_cast<uint16_t>(f.soffset)) = soffset;
    }
    uint64_t base = m_.buf;
    uint32_t stride = 0, num_records = 0, d3 = 0;
    bool swizzle = false;
    const unsigned kind = rnd(4);
    if (kind == 0 || kind == 3) {  // raw
      f.offen = true;
      num_records = kind == 0 ? 64 + rnd(4096) : 8192;
      if (kind == 3) base = m_.buf + kBufBytes - 2048;
    } else if (kind == 1) {  // structured
      f.idxen = true;
      f.offen = chance(2);
      stride = 4 * (1 + rnd(16));
      num_records = 1 + rnd(256);
    } else {  // swizzled, thread id added: element size 4, index stride 64
      swizzle = true;
      stride = 4 * (1 + rnd(4));
      num_records = chance(2) ? 0xffffffffu : rnd(1 << 16);
      d3 = (1u << 19) | (3u << 21) | (1u << 23);
      f.offen = true;
    }
    m_.w.s(static_cast<uint16_t>(f.srsrc)) = static_cast<uint32_t>(base);
    m_.w.s(static_cast<uint16_t>(f.srsrc + 1)) =
        static_cast<uint32_t>((base >> 32) & 0xffff) | (stride << 16) | (uint32_t(swizzle) << 31);
    m_.w.s(static_cast<uint16_t>(f.srsrc + 2)) = num_records;
    m_.w.s(static_cast<uint16_t>(f.srsrc + 3)) = d3;
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      uint32_t index = rnd(num_records + 8), offset = 0;
      if (kind == 0) offset = rnd(num_records + 64);
      if (kind == 3) offset = rnd(4096);
      if (kind == 1) offset = rnd(stride);
      if (kind == 2) offset = 4 * rnd(200) + (bytes < 4 ? rnd(4 / bytes) * bytes : 0);
      if (static_cast<int>(lane) == fault_lane_) offset = uint32_t(kBufBytes) + 4096;
      const bool both = f.offen && f.idxen;
      if (f.idxen) m_.w.v(f.vaddr)[lane] = index;
      if (f.offen) m_.w.v(f.vaddr + (both ? 1 : 0))[lane] = offset;
    }
    (void)soffset;
    return encode_mubuf(op, f);
  }

  Instruction make_smem(const OpInfo& op) {
    SmemFields f;
    const std::string m = op.mnemonic;
    const unsigned n = (op.flags & kStore) ? type_dwords(op.src_type[1]) : type_dwords(op.dst_type);
    f.sdata = 4 * rnd((reg::kSgprCount - n) / 4 + 1);
    const bool buffer = m.find("buffer") != std::string::npos;
    f.sbase = buffer ? 4 * rnd(reg::kSgprCount / 4) : 2 * rnd(reg::kSgprCount / 2);
    f.glc = chance(2);
    f.imm = !chance(4);
    f.soe = f.imm && chance(3);
    f.offset = static_cast<int>(rnd(256));
    if (!f.imm || f.soe) {
      do f.soffset = rnd(reg::kSgprCount); while (f.soffset >= f.sbase && f.soffset < f.sbase + 4);
      m_.w.s(static_cast<uint16_t>(f.soffset)) = 4 * rnd(64) + rnd(4);
    }
    if (buffer) {
      const uint64_t base = fault_lane_ >= 0 ? m_.buf + kBufBytes - 128 : m_.buf + 64 * rnd(1024);
      m_.w.s(static_cast<uint16_t>(f.sbase)) = static_cast<uint32_t>(base);
      m_.w.s(static_cast<uint16_t>(f.sbase + 1)) = static_cast<uint32_t>(base >> 32) & 0xffff;
      m_.w.s(static_cast<uint16_t>(f.sbase + 2)) = fault_lane_ >= 0 ? 4096 : rnd(1024);
    } else {
      const uint64_t at = fault_lane_ >= 0 ? m_.buf + kBufBytes - 32 + rnd(32) : m_.buf + buffer_offset(4);
      const uint64_t off = f.imm ? f.offset : 0;
      const uint64_t soff = (!f.imm || f.soe) ? m_.w.s(static_cast<uint16_t>(f.soffset)) : 0;
      m_.w.set_s64(static_cast<uint16_t>(f.sbase), at - off - soff);
    }
    return encode_smem(op, f);
  }

  std::mt19937& rng_;
  Machine& m_;
  uint64_t exec_ = 0;
  int fault_lane_ = -1;
  bool unit_ = false;
  uint64_t unit_base_ = 0;  // the unit-stride run's offset in the buffer
};

// Registers complete() may read or write: the destination.
bool in_operand(const Operand& op, OperandKind kind, unsigned r) {
  return op.kind == kind && r >= op.reg && r < unsigned(op.reg) + op.dwords;
}

// Overwrites every register except the destination, as later instructions may.
void scramble_sources(Wave& w, const Instruction& in, std::mt19937& rng) {
  const Operand& d = in.dst[0];
  for (uint16_t r = 0; r < reg::kScalarFileSize; ++r)
    if (!in_operand(d, OperandKind::Scalar, r)) w.s(r) = static_cast<uint32_t>(rng());
  for (unsigned r = 0; r < w.num_vgprs(); ++r)
    if (!in_operand(d, OperandKind::Vgpr, r))
      for (int l = 0; l < kWaveSize; ++l) w.v(r)[l] = static_cast<uint32_t>(rng());
  for (unsigned r = 0; r < w.num_agprs(); ++r)
    if (!in_operand(d, OperandKind::Agpr, r))
      for (int l = 0; l < kWaveSize; ++l) w.a(r)[l] = static_cast<uint32_t>(rng());
}

// Restores what scramble_sources overwrote, keeping the destination.
void restore_sources(Wave& w, const Instruction& in, const Regs& saved) {
  Regs now = regs_of(w);
  const Operand& d = in.dst[0];
  for (uint16_t r = 0; r < reg::kScalarFileSize; ++r)
    if (!in_operand(d, OperandKind::Scalar, r)) now.s[r] = saved.s[r];
  for (unsigned r = 0; r < w.num_vgprs(); ++r)
    if (!in_operand(d, OperandKind::Vgpr, r))
      std::memcpy(&now.v[r * kWaveSize], &saved.v[r * kWaveSize], 4 * kWaveSize);
  for (unsigned r = 0; r < w.num_agprs(); ++r)
    if (!in_operand(d, OperandKind::Agpr, r))
      std::memcpy(&now.a[r * kWaveSize], &saved.a[r * kWaveSize], 4 * kWaveSize);
  set_regs(w, now);
}

struct Outcome {
  unsigned runs = 0, faults = 0, chunks = 0, packed = 0;
};

// One trial of `op`: ExecFn on machine a, plan/perform/complete on b.
void run_trial(const OpInfo& op, std::mt19937& rng, uint32_t seed, Outcome& out) {
  Machine a(seed), b(seed);
  Trial t(rng, a);
  const Instruction in = t.make(op);
  set_regs(b.w, regs_of(a.w));
  INFO(op.mnemonic << " seed " << seed << " exec " << std::hex << a.w.exec());

  semantics().find(op.mnemonic)(a.w, in);

  const MemFns fns = mem_fns(op.mnemonic);
  REQUIRE(fns.plan);
  REQUIRE(fns.complete);
  // A used plan full of another instruction's state: plan() starts by
  // clearing it (the CU reuses its plans without clearing them).
  MemPlan plan;
  plan.kind = MemKind::Atomic;
  plan.exec = ~0ull;
  plan.lane_stride = 3;
  plan.data.fill(0xa5);
  plan.chunks.push_back(MemChunk{0x40, 0, 4, 0, MemSpace::Lds});
  plan.atomic_cmp.push_back(7);
  plan.lds_chunks = true;
  const Regs before = regs_of(b.w);
  fns.plan(b.w, in, plan);
  const Regs after_plan = regs_of(b.w);
  REQUIRE(after_plan.s == before.s);  // plan never writes registers
  REQUIRE(after_plan.v == before.v);
  REQUIRE(after_plan.a == before.a);
  ++out.runs;
  REQUIRE(b.w.status() == a.w.status());
  if (a.w.status() == WaveStatus::Faulted) {
    ++out.faults;
    REQUIRE(b.w.fault_message() == a.w.fault_message());
    REQUIRE(plan.chunks.empty());
    return;
  }
  out.chunks += static_cast<unsigned>(plan.chunks.size());
  out.packed += plan.lane_stride != MemPlan::kLaneBytes;
  scramble_sources(b.w, in, rng);
  REQUIRE(perform_directly(b.w, plan));
  fns.complete(b.w, in, plan);
  restore_sources(b.w, in, before);

  const Regs ra = regs_of(a.w), rb = regs_of(b.w);
  REQUIRE(ra.s == rb.s);
  REQUIRE(ra.v == rb.v);
  REQUIRE(ra.a == rb.a);
  REQUIRE(a.contents(a.buf, kBufBytes) == b.contents(b.buf, kBufBytes));
  REQUIRE(a.contents(a.scratch, uint64_t(kLaneScratch) * kWaveSize) ==
          b.contents(b.scratch, uint64_t(kLaneScratch) * kWaveSize));
  REQUIRE(a.lds == b.lds);
}

bool is_cache_maintenance(const std::string& m) {
  return m.rfind("s_dcache_", 0) == 0 || m.rfind("buffer_wb", 0) == 0 || m.rfind("buffer_inv", 0) == 0;
}

}  // namespace

TEST_CASE("mem_plan: every instruction that reaches device memory has plan and complete", "[mem_plan]") {
  std::set<std::string> expected;
  for (const OpInfo* op : all_ops()) {
    const bool device = op->format == Format::SMEM || op->format == Format::FLAT || op->format == Format::GLOBAL ||
                        op->format == Format::SCRATCH || op->format == Format::MUBUF || op->format == Format::MTBUF;
    if (device && semantics().find(op->mnemonic) && !is_cache_maintenance(op->mnemonic)) expected.insert(op->mnemonic);
  }
  std::set<std::string> have, not_encodable;
  for (const auto& [name, fns] : mem_fns_table().all()) {
    (op_named(name) ? have : not_encodable).insert(name);
    CHECK(fns.plan != nullptr);
    CHECK(fns.complete != nullptr);
    CHECK(semantics().find(name.c_str()) != nullptr);
  }
  CHECK(have == expected);
  // 13 SMEM + 3 x 22 FLAT/GLOBAL/SCRATCH loads and stores + 2 x 31 atomics + 40 MUBUF.
  CHECK(have.size() + not_encodable.size() == 13 + 66 + 62 + 40);
  // The FLAT and GLOBAL atomics share one list; gfx90a encodes these two only as GLOBAL.
  CHECK(not_encodable == std::set<std::string>{"flat_atomic_add_f32", "flat_atomic_pk_add_f16"});
  CHECK(mem_fns("ds_read_b32").plan == nullptr);
  CHECK(mem_fns("v_add_f32").plan == nullptr);
  CHECK(mem_fns("s_dcache_wb").plan == nullptr);
}

TEST_CASE("mem_plan: plan then complete equals the ExecFn for every mnemonic", "[mem_plan]") {
  std::mt19937 rng(2024);
  unsigned mnemonics = 0;
  Outcome total;
  for (const auto& [name, fns] : mem_fns_table().all()) {
    const OpInfo* op = op_named(name);
    if (!op) continue;  // no gfx90a encoding (see the test above)
    INFO(name);
    Outcome out;
    for (uint32_t trial = 0; trial < 48; ++trial) run_trial(*op, rng, trial * 7919u + mnemonics, out);
    // Enough trials ran without a fault to compare data, and some faulted.
    CHECK(out.runs - out.faults >= 12);
    total.runs += out.runs;
    total.faults += out.faults;
    total.chunks += out.chunks;
    total.packed += out.packed;
    ++mnemonics;
  }
  CHECK(mnemonics == 179);
  CHECK(total.faults > 0);
  CHECK(total.chunks > 0);
  CHECK(total.packed > 0);  // unit-stride plans were among those compared
}

// --- Directed cases: exact chunks and values ---

namespace {

Instruction encode_ds(const std::string& mnemonic, unsigned addr, unsigned data0, unsigned vdst, unsigned offset0,
                      unsigned offset1) {
  const OpInfo* op = op_named(mnemonic);
  REQUIRE(op != nullptr);
  const uint32_t w0 = (0x36u << 26) | (uint32_t(op->opcode) << 17) | (offset1 << 8) | offset0;
  const uint32_t w1 = addr | (data0 << 8) | (vdst << 24);
  return decode2(w0, w1);
}

// plan, perform_directly and complete on one machine; the plan is kept.
void run_plan(Machine& m, const Instruction& in, MemPlan& plan) {
  const MemFns fns = mem_fns(in.mnemonic());
  REQUIRE(fns.plan);
  fns.plan(m.w, in, plan);
  REQUIRE(m.w.running());
  REQUIRE(perform_directly(m.w, plan));
  fns.complete(m.w, in, plan);
}

uint32_t dword_at(const Machine& m, uint64_t addr) {
  uint32_t v;
  m.mem.read(&v, addr, 4);
  return v;
}

// A raw buffer resource in s[8:11]: `records` bytes from `base`.
void raw_resource(Machine& m, uint64_t base, uint32_t records) {
  m.w.s(8) = static_cast<uint32_t>(base);
  m.w.s(9) = static_cast<uint32_t>(base >> 32) & 0xffff;
  m.w.s(10) = records;
  m.w.s(11) = 0;
}

}  // namespace

TEST_CASE("mem_plan: buffer lanes out of range have no chunk and read zero or store nothing", "[mem_plan]") {
  Machine m(1);
  raw_resource(m, m.buf, 64);  // 16 dwords in range
  for (int l = 0; l < kWaveSize; ++l) m.w.v(0)[l] = 4 * l;
  m.w.set_exec(~0ull);
  BufFields f;
  f.vaddr = 0;
  f.vdata = 1;
  f.srsrc = 8;
  f.offen = true;
  MemPlan plan;
  run_plan(m, encode_mubuf(*op_named("buffer_load_dword"), f), plan);
  REQUIRE(plan.chunks.size() == 16);
  for (unsigned l = 0; l < 16; ++l) {
    CHECK(plan.chunks[l].lane == l);
    CHECK(plan.chunks[l].addr == m.buf + 4 * l);
    CHECK(plan.chunks[l].bytes == 4);
  }
  for (int l = 0; l < kWaveSize; ++l) CHECK(m.w.v(1)[l] == (l < 16 ? dword_at(m, m.buf + 4 * l) : 0u));

  // A store: lanes 16..63 are dropped, so the dword after the range keeps its value.
  const uint32_t after = dword_at(m, m.buf + 64);
  for (int l = 0; l < kWaveSize; ++l) m.w.v(1)[l] = 0xabc00000u + l;
  run_plan(m, encode_mubuf(*op_named("buffer_store_dword"), f), plan);
  CHECK(plan.chunks.size() == 16);
  CHECK(dword_at(m, m.buf + 60) == 0xabc0000fu);
  CHECK(dword_at(m, m.buf + 64) == after);

  // A returning atomic: out-of-range lanes get 0, in-range ones the old value.
  f.glc = true;
  for (int l = 0; l < kWaveSize; ++l) m.w.v(1)[l] = 1;
  run_plan(m, encode_mubuf(*op_named("buffer_atomic_add"), f), plan);
  CHECK(plan.chunks.size() == 16);
  CHECK(m.w.v(1)[15] == 0xabc0000fu);
  CHECK(dword_at(m, m.buf + 60) == 0xabc00010u);
  CHECK(m.w.v(1)[16] == 0u);
  CHECK(m.w.v(1)[63] == 0u);
}

TEST_CASE("mem_plan: a fault names the same lane and message as the ExecFn", "[mem_plan]") {
  for (const char* name : {"global_load_dword", "global_store_dwordx4", "scratch_load_dword", "flat_atomic_add"}) {
    INFO(name);
    const OpInfo* op = op_named(name);
    Machine a(2), b(2);
    FlatFields f;
    f.vaddr = 10;
    f.data = 20;
    f.vdst = 30;
    f.glc = true;
    const bool scratch = op->format == Format::SCRATCH;
    for (int l = 0; l < kWaveSize; ++l) {
      uint64_t addr = scratch ? 4 * l : a.buf + 16 * l;
      if (l == 37) addr = scratch ? 4 * l + 2 : a.buf + kBufBytes + 0x100;  // crossing a dword / past the end
      if (l == 50) addr = scratch ? kLaneScratch : a.buf - 0x40;               // also bad, but later
      a.w.v(10)[l] = static_cast<uint32_t>(addr);
      a.w.v(11)[l] = static_cast<uint32_t>(addr >> 32);
    }
    a.w.set_exec(~0ull);
    set_regs(b.w, regs_of(a.w));
    const Instruction in = encode_flat(*op, f);
    semantics().find(name)(a.w, in);
    MemPlan plan;
    mem_fns(name).plan(b.w, in, plan);
    REQUIRE(a.w.status() == WaveStatus::Faulted);
    REQUIRE(b.w.status() == WaveStatus::Faulted);
    CHECK(b.w.fault_message() == a.w.fault_message());
    CHECK(plan.chunks.empty());
    char expected[64];
    if (scratch)
      std::snprintf(expected, sizeof expected, "private offset 0x%x (lane 37) crosses", 4 * 37 + 2);
    else
      std::snprintf(expected, sizeof expected, "access at 0x%llx is outside",
                    static_cast<unsigned long long>(a.buf + kBufBytes + 0x100));
    CHECK_THAT(b.w.fault_message(), Catch::Contains(expected));
  }
}

TEST_CASE("mem_plan: sources overwritten between plan and complete do not change the result", "[mem_plan]") {
  Machine m(3);
  FlatFields f;
  f.vaddr = 0;
  f.data = 2;
  f.vdst = 3;
  for (int l = 0; l < kWaveSize; ++l) {
    const uint64_t addr = m.buf + 4 * l;
    m.w.v(0)[l] = static_cast<uint32_t>(addr);
    m.w.v(1)[l] = static_cast<uint32_t>(addr >> 32);
    m.w.v(2)[l] = 0x1000u + l;
    m.w.v(3)[l] = 0x5555aaaau;
  }
  m.w.set_exec(0xffull);
  MemPlan plan;
  const Instruction store = encode_flat(*op_named("global_store_dword"), f);
  mem_fns("global_store_dword").plan(m.w, store, plan);
  // Later instructions rewrite the address, the data and EXEC before the store leaves.
  for (int l = 0; l < kWaveSize; ++l) m.w.v(0)[l] = m.w.v(1)[l] = m.w.v(2)[l] = 0;
  m.w.set_exec(~0ull);
  REQUIRE(perform_directly(m.w, plan));
  for (int l = 0; l < 8; ++l) CHECK(dword_at(m, m.buf + 4 * l) == 0x1000u + l);
  CHECK(dword_at(m, m.buf + 32) != 0x1008u);

  // A d16_hi load merges into the destination as it is when the data returns.
  for (int l = 0; l < kWaveSize; ++l) {
    m.w.v(0)[l] = static_cast<uint32_t>(m.buf + 4 * l);
    m.w.v(1)[l] = static_cast<uint32_t>((m.buf + 4 * l) >> 32);
  }
  m.w.set_exec(0x3ull);
  const Instruction load = encode_flat(*op_named("global_load_short_d16_hi"), f);
  mem_fns("global_load_short_d16_hi").plan(m.w, load, plan);
  m.w.set_exec(0);
  m.w.v(3)[0] = 0x0000beefu;
  REQUIRE(perform_directly(m.w, plan));
  mem_fns("global_load_short_d16_hi").complete(m.w, load, plan);
  CHECK(m.w.v(3)[0] == 0x1000beefu);  // high half: the low 16 bits of dword 0 (0x1000)
  CHECK(m.w.v(3)[1] == 0x1001aaaau);
  CHECK(m.w.v(3)[2] == 0x5555aaaau);  // lane 2 was not in EXEC at issue
}

TEST_CASE("mem_plan: scratch and flat-to-private chunks are swizzled per dword", "[mem_plan]") {
  Machine m(4);
  // scratch_load_dwordx2 v[2:3], v1, off offset:4 with every lane at private offset 8 + 4.
  FlatFields f;
  f.vaddr = 1;
  f.vdst = 2;
  f.offset = 4;
  for (int l = 0; l < kWaveSize; ++l) m.w.v(1)[l] = 8;
  m.w.set_exec(~0ull);
  MemPlan plan;
  run_plan(m, encode_flat(*op_named("scratch_load_dwordx2"), f), plan);
  REQUIRE(plan.chunks.size() == 128);  // two dwords per lane, 256 bytes apart: not contiguous
  for (unsigned l = 0; l < 64; ++l) {
    const MemChunk& lo = plan.chunks[2 * l];
    const MemChunk& hi = plan.chunks[2 * l + 1];
    CHECK(lo.addr == m.scratch + 3 * 256 + 4 * l);  // private offset 12: element 3
    CHECK(hi.addr == m.scratch + 4 * 256 + 4 * l);
    CHECK(lo.bytes == 4);
    CHECK(hi.data_offset == l * MemPlan::kLaneBytes + 4);
    CHECK(m.w.v(2)[l] == dword_at(m, lo.addr));
    CHECK(m.w.v(3)[l] == dword_at(m, hi.addr));
  }
  // flat_store_dword through the private aperture lands at the same swizzled places.
  f = FlatFields{};
  f.vaddr = 4;
  f.data = 6;
  for (int l = 0; l < kWaveSize; ++l) {
    m.w.v(4)[l] = 12;
    m.w.v(5)[l] = static_cast<uint32_t>(kPrivateApertureBase >> 32);
    m.w.v(6)[l] = 0x7000u + l;
  }
  run_plan(m, encode_flat(*op_named("flat_store_dword"), f), plan);
  REQUIRE(plan.chunks.size() == 64);
  CHECK(plan.chunks[9].space == MemSpace::Global);
  CHECK(plan.chunks[9].addr == m.scratch + 3 * 256 + 36);
  CHECK(dword_at(m, m.scratch + 3 * 256 + 36) == 0x7009u);
}

TEST_CASE("mem_plan: unit-stride lanes in one allocation move as one packed chunk", "[mem_plan]") {
  Machine m(6);
  FlatFields f;
  f.vaddr = 0;
  f.vdst = 4;
  const uint64_t base = m.buf + 0x100;
  for (int l = 0; l < kWaveSize; ++l) {
    m.w.v(0)[l] = static_cast<uint32_t>(base + 16 * l);
    m.w.v(1)[l] = static_cast<uint32_t>((base + 16 * l) >> 32);
  }
  m.w.set_exec(~0ull >> 24);  // lanes 0..39
  MemPlan plan;
  run_plan(m, encode_flat(*op_named("global_load_dwordx4"), f), plan);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.lane_stride == 16);
  CHECK(plan.chunks[0].addr == base);
  CHECK(plan.chunks[0].bytes == 40 * 16);
  for (unsigned l = 0; l < 40; ++l)
    for (unsigned d = 0; d < 4; ++d) CHECK(m.w.v(4 + d)[l] == dword_at(m, base + 16 * l + 4 * d));

  // Dwords: packed at 4 bytes a lane; lanes past EXEC keep their registers.
  for (int l = 0; l < kWaveSize; ++l) {
    m.w.v(0)[l] = static_cast<uint32_t>(base + 4 * l);
    m.w.v(1)[l] = static_cast<uint32_t>((base + 4 * l) >> 32);
    m.w.v(8)[l] = 0x5a5a0000u + l;
  }
  f.vdst = 8;
  run_plan(m, encode_flat(*op_named("global_load_dword"), f), plan);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.lane_stride == 4);
  CHECK(plan.chunks[0].bytes == 40 * 4);
  for (unsigned l = 0; l < kWaveSize; ++l)
    CHECK(m.w.v(8)[l] == (l < 40 ? dword_at(m, base + 4 * l) : 0x5a5a0000u + l));

  // A store writes exactly the active lanes' bytes.
  const uint32_t after = dword_at(m, base + 4 * 40);
  f = FlatFields{};
  f.vaddr = 0;
  f.data = 10;
  for (int l = 0; l < kWaveSize; ++l) m.w.v(10)[l] = 0xc0de0000u + l;
  run_plan(m, encode_flat(*op_named("global_store_dword"), f), plan);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.lane_stride == 4);
  for (unsigned l = 0; l < 40; ++l) CHECK(dword_at(m, base + 4 * l) == 0xc0de0000u + l);
  CHECK(dword_at(m, base + 4 * 40) == after);

  // Lane 7 out of step (onto lane 8's dword): runs 0..6, 7 and 8..39, still
  // packed; lane 8 stores after lane 7, as the ExecFn does.
  m.w.v(0)[7] += 4;
  run_plan(m, encode_flat(*op_named("global_store_dword"), f), plan);
  REQUIRE(plan.chunks.size() == 3);
  CHECK(plan.lane_stride == 4);
  CHECK(plan.chunks[1].lane == 7);
  CHECK(plan.chunks[1].addr == base + 32);
  CHECK(plan.chunks[2].bytes == 32 * 4);
  CHECK(dword_at(m, base + 28) == 0xc0de0007u);  // no lane wrote it this time: the first store's lane 7
  CHECK(dword_at(m, base + 32) == 0xc0de0008u);
  m.w.v(0)[7] -= 4;
  // An atomic: one chunk a lane at kLaneBytes, as atomics always are.
  run_plan(m, encode_flat(*op_named("global_atomic_add"), f), plan);
  CHECK(plan.chunks.size() == 40);
  CHECK(plan.lane_stride == MemPlan::kLaneBytes);
}

TEST_CASE("mem_plan: flat through the shared aperture gives LDS chunks", "[mem_plan]") {
  Machine m(5);
  FlatFields f;
  f.vaddr = 0;
  f.vdst = 2;
  for (int l = 0; l < kWaveSize; ++l) {
    const uint64_t addr = kSharedApertureBase + 8 * l;
    m.w.v(0)[l] = static_cast<uint32_t>(addr);
    m.w.v(1)[l] = static_cast<uint32_t>(addr >> 32);
  }
  m.w.set_exec(0xf0ull);
  MemPlan plan;
  run_plan(m, encode_flat(*op_named("flat_load_dwordx2"), f), plan);
  REQUIRE(plan.chunks.size() == 4);  // the two dwords of a lane merge back into one chunk
  for (unsigned k = 0; k < 4; ++k) {
    const MemChunk& c = plan.chunks[k];
    CHECK(c.space == MemSpace::Lds);
    CHECK(c.lane == 4 + k);
    CHECK(c.addr == 8 * (4 + k));
    CHECK(c.bytes == 8);
    uint32_t lo, hi;
    std::memcpy(&lo, &m.lds[c.addr], 4);
    std::memcpy(&hi, &m.lds[c.addr + 4], 4);
    CHECK(m.w.v(2)[c.lane] == lo);
    CHECK(m.w.v(3)[c.lane] == hi);
  }
}

TEST_CASE("mem_plan: a flat store split between LDS and memory can be performed space by space", "[mem_plan]") {
  Machine m(10);
  FlatFields f;
  f.vaddr = 0;
  f.data = 2;
  for (int l = 0; l < kWaveSize; ++l) {
    // Even lanes to LDS offset 4*l, odd lanes to device memory.
    const uint64_t addr = (l % 2 == 0) ? kSharedApertureBase + 4 * l : m.buf + 4 * l;
    m.w.v(0)[l] = static_cast<uint32_t>(addr);
    m.w.v(1)[l] = static_cast<uint32_t>(addr >> 32);
    m.w.v(2)[l] = 0xc0de0000u + l;
  }
  m.w.set_exec(~0ull);
  MemPlan plan;
  const Instruction in = encode_flat(*op_named("flat_store_dword"), f);
  mem_fns("flat_store_dword").plan(m.w, in, plan);
  REQUIRE(plan.chunks.size() == 64);
  const uint32_t before = dword_at(m, m.buf + 4), even_before = dword_at(m, m.buf + 8);
  REQUIRE(perform_directly(m.w, plan, MemSpace::Lds));
  uint32_t lds4;
  std::memcpy(&lds4, &m.lds[8], 4);
  CHECK(lds4 == 0xc0de0002u);                     // lane 2 went to the LDS
  CHECK(dword_at(m, m.buf + 4) == before);         // lane 1 not yet in memory
  REQUIRE(perform_directly(m.w, plan, MemSpace::Global));
  CHECK(dword_at(m, m.buf + 4) == 0xc0de0001u);
  CHECK(dword_at(m, m.buf + 8) == even_before);    // lane 2 wrote the LDS, not memory
}

TEST_CASE("mem_plan: returning atomics on one address give old values in lane order", "[mem_plan]") {
  Machine m(6);
  const uint64_t target = m.buf + 0x100;
  const uint32_t initial = 1000;
  m.mem.write(target, &initial, 4);
  FlatFields f;
  f.vaddr = 0;
  f.data = 4;
  f.vdst = 8;
  f.glc = true;
  for (int l = 0; l < kWaveSize; ++l) {
    m.w.v(0)[l] = static_cast<uint32_t>(target);
    m.w.v(1)[l] = static_cast<uint32_t>(target >> 32);
  }
  m.w.v(4)[3] = 5;
  m.w.v(4)[9] = 7;
  m.w.set_exec((1ull << 3) | (1ull << 9));
  MemPlan plan;
  run_plan(m, encode_flat(*op_named("global_atomic_add"), f), plan);
  REQUIRE(plan.chunks.size() == 2);
  CHECK(plan.kind == MemKind::Atomic);
  CHECK(plan.returns_data);
  CHECK(plan.chunks[0].lane == 3);
  CHECK(plan.chunks[1].lane == 9);
  CHECK(m.w.v(8)[3] == 1000u);  // lane 3 first
  CHECK(m.w.v(8)[9] == 1005u);  // then lane 9 sees lane 3's update
  CHECK(dword_at(m, target) == 1012u);

  // Compare-swap, both lanes expecting 1012: only the first succeeds.
  m.w.v(4)[3] = 111;
  m.w.v(5)[3] = 1012;
  m.w.v(4)[9] = 222;
  m.w.v(5)[9] = 1012;
  run_plan(m, encode_flat(*op_named("global_atomic_cmpswap"), f), plan);
  REQUIRE(plan.atomic_cmp.size() == 2);
  CHECK(plan.atomic_cmp[1] == 1012u);
  CHECK(m.w.v(8)[3] == 1012u);
  CHECK(m.w.v(8)[9] == 111u);
  CHECK(dword_at(m, target) == 111u);

  // Packed f16 add: (1.0, 1.0) + (0.5, 2.0) = (1.5, 3.0).
  const uint32_t ones = 0x3c003c00u;
  m.mem.write(target, &ones, 4);
  m.w.v(4)[3] = 0x40003800u;
  m.w.set_exec(1ull << 3);
  run_plan(m, encode_flat(*op_named("global_atomic_pk_add_f16"), f), plan);
  CHECK(plan.op == mem::Rmw::PkAddF16);
  CHECK(m.w.v(8)[3] == ones);
  CHECK(dword_at(m, target) == 0x42003e00u);
}

TEST_CASE("mem_plan: scalar loads are one chunk and s_buffer_load reads zero past num_records", "[mem_plan]") {
  Machine m(7);
  SmemFields f;
  f.sdata = 20;
  f.sbase = 4;
  f.offset = 0x40;
  m.w.set_s64(4, m.buf + 0x200);
  MemPlan plan;
  run_plan(m, encode_smem(*op_named("s_load_dwordx16"), f), plan);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.scalar);
  CHECK(plan.chunks[0].addr == m.buf + 0x240);
  CHECK(plan.chunks[0].bytes == 64);
  for (unsigned d = 0; d < 16; ++d) CHECK(m.w.s(static_cast<uint16_t>(20 + d)) == dword_at(m, m.buf + 0x240 + 4 * d));

  // s_buffer_load_dwordx4 at offset 0x40 of a 0x48-byte buffer: two dwords in range.
  raw_resource(m, m.buf, 0x48);
  f.sbase = 8;
  run_plan(m, encode_smem(*op_named("s_buffer_load_dwordx4"), f), plan);
  REQUIRE(plan.chunks.size() == 1);
  CHECK(plan.chunks[0].addr == m.buf + 0x40);
  CHECK(plan.chunks[0].bytes == 8);
  CHECK(m.w.s(20) == dword_at(m, m.buf + 0x40));
  CHECK(m.w.s(21) == dword_at(m, m.buf + 0x44));
  CHECK(m.w.s(22) == 0u);
  CHECK(m.w.s(23) == 0u);
}

TEST_CASE("mem_plan: lds_access gives the LDS addresses of every active lane", "[mem_plan]") {
  Machine m(8);
  for (int l = 0; l < kWaveSize; ++l) m.w.v(2)[l] = 16 * l;
  m.w.set_exec(0x5ull);
  LdsAccess acc;
  lds_access(m.w, encode_ds("ds_read2st64_b32", 2, 0, 0, 1, 3), acc);
  CHECK(acc.addresses_per_lane == 2);
  CHECK(acc.bytes == 4);
  CHECK(acc.exec == 0x5u);
  CHECK(acc.addr[0][0] == 256u);           // offset0 1 * 4 bytes * 64
  CHECK(acc.addr[1][0] == 768u);           // offset1 3 * 4 bytes * 64
  CHECK(acc.addr[0][2] == 32u + 256u);
  CHECK(acc.addr[0][1] == 16u + 256u);     // lane 1 is not in EXEC: computed all the same
  lds_access(m.w, encode_ds("ds_write2_b64", 2, 0, 0, 2, 5), acc);
  CHECK(acc.addresses_per_lane == 2);
  CHECK(acc.bytes == 8);
  CHECK(acc.addr[1][2] == 32u + 40u);
  lds_access(m.w, encode_ds("ds_write_b64", 2, 0, 0, 0x10, 0), acc);
  CHECK(acc.addresses_per_lane == 1);
  CHECK(acc.bytes == 8);
  CHECK(acc.addr[0][2] == 32u + 16u);
  lds_access(m.w, encode_ds("ds_add_rtn_u64", 2, 0, 0, 4, 0), acc);
  CHECK(acc.bytes == 8);
  lds_access(m.w, encode_ds("ds_bpermute_b32", 2, 0, 0, 0, 0), acc);
  CHECK(acc.addresses_per_lane == 0);
}

TEST_CASE("mem_plan: every DS instruction that touches LDS memory has an LDS access shape", "[mem_plan]") {
  Machine m(9);
  const std::set<std::string> no_bank = {"ds_nop", "ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32"};
  unsigned shaped = 0;
  for (const OpInfo* op : all_ops()) {
    if (op->format != Format::DS || !semantics().find(op->mnemonic)) continue;
    INFO(op->mnemonic);
    const Instruction in = encode_ds(op->mnemonic, 0, 1, 2, 0, 0);
    LdsAccess acc;
    lds_access(m.w, in, acc);
    if (no_bank.count(op->mnemonic)) {
      CHECK(acc.addresses_per_lane == 0);
      continue;
    }
    CHECK(acc.addresses_per_lane >= 1);
    CHECK(acc.bytes >= 1);
    ++shaped;
  }
  // 14 reads, 8 writes, 8 two-address forms, 36 atomics with and without return, 2 wrxchg.
  CHECK(shaped == 14 + 8 + 8 + 72 + 2);
}
