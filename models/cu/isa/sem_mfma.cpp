// Matrix fused multiply-add (v_mfma_*) with the CDNA2 register layouts.
//
// An MFMA computes, for each of `blocks` independent blocks b,
//   D[b] = C[b] + A[b] (M x K) * B[b] (K x N), N = M,
// with A and B spread over the 64 lanes and C/D over `M*M*blocks/64`
// registers (AGPRs or VGPRs) per lane. Layouts (kpl = A elements per lane):
//   A[b][i][k]: lane i + M*g with g = b + blocks*(k / kpl), element k % kpl
//               of the lane's source registers (packed low half first).
//   B[b][k][j]: the same with j for i.
//   D[b][i][j], 32-bit results:
//     M = 32: register 16b + 4(i/8) + i%4, lane j + 32((i/4)%2)
//     M = 16: register 4b + i%4,           lane j + 16(i/4)
//     M = 4:  register i,                  lane j + 4b
//   f64 results hold one value per register pair: 16x16: value i%4 at lane
//   j + 16(i/4); 4x4 (4 blocks): lane j + 4b + 16i.
// CBSZ/ABID broadcast one block's A to a group of 2^CBSZ blocks; BLGP remaps
// the lanes B is read from (broadcast or rotate of lane groups). Products are
// exact in f64 and summed in f64 in k order, then rounded once to f32; the
// integer forms accumulate in 32-bit two's complement.
// MFMA results are written in every lane (the instruction does not look at EXEC).
#include <cstring>
#include <string>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;

enum class Elem { F32, F16, BF16, I8, F64 };

struct Shape {
  int m, k, blocks;
  Elem elem;
  int kpl() const { return m * k * blocks / kWaveSize; }
  int elem_bits() const {
    switch (elem) {
      case Elem::F32: return 32;
      case Elem::F64: return 64;
      case Elem::I8: return 8;
      default: return 16;
    }
  }
  int out_values() const { return m * m * blocks / kWaveSize; }  // per lane
};

// One source operand's elements as doubles (or exact integers), per lane.
struct Elements {
  double v[kWaveSize][8];
};

void read_elements(const Wave& w, const Operand& op, const Shape& s, Elements& e) {
  const int kpl = s.kpl(), bits = s.elem_bits();
  const int dwords = (kpl * bits + 31) / 32;
  alignas(64) uint32_t buf[4][kWaveSize];
  const uint32_t* p[4];
  for (int d = 0; d < dwords; ++d) p[d] = w.src32(op, buf[d], static_cast<unsigned>(d));
  for (int l = 0; l < kWaveSize; ++l) {
    for (int x = 0; x < kpl; ++x) {
      const int bit = x * bits;
      const uint32_t word = p[bit / 32][l];
      switch (s.elem) {
        case Elem::F32: e.v[l][x] = f32(word); break;
        case Elem::F64: e.v[l][x] = fp::f64(p[0][l] | (static_cast<uint64_t>(p[1][l]) << 32)); break;
        case Elem::F16: e.v[l][x] = f16_to_f32(static_cast<uint16_t>(word >> (bit % 32))); break;
        case Elem::BF16: e.v[l][x] = bf16_to_f32(static_cast<uint16_t>(word >> (bit % 32))); break;
        case Elem::I8: e.v[l][x] = static_cast<int8_t>(word >> (bit % 32)); break;
      }
    }
  }
}

int blgp_lane(int lane, uint8_t blgp) {
  switch (blgp) {
    case 1: return lane & 31;
    case 2: return (lane & 31) + 32;
    case 3: return (lane + 16) & 63;
    case 4: case 5: case 6: case 7: return (lane & 15) + 16 * (blgp - 4);
    default: return lane;
  }
}

// (register, lane) of D[b][i][j]; for f64 the register is a value index.
// The lane is always j plus a part that does not depend on j.
void out_position(const Shape& s, int b, int i, int j, int& reg, int& lane) {
  if (s.elem == Elem::F64) {
    if (s.m == 16) {
      reg = i % 4;
      lane = j + 16 * (i / 4);
    } else {
      reg = 0;
      lane = j + 4 * b + 16 * i;
    }
    return;
  }
  if (s.m == 32) {
    reg = 16 * b + 4 * (i / 8) + i % 4;
    lane = j + 32 * ((i / 4) % 2);
  } else if (s.m == 16) {
    reg = 4 * b + i % 4;
    lane = j + 16 * (i / 4);
  } else {
    reg = i;
    lane = j + 4 * b;
  }
}

// The largest M and K of any shape (kShapes checks its entries against them).
constexpr int kMaxM = 32, kMaxK = 16;

// The accumulator (C, then D) as 32-bit words: acc[reg][lane].
struct Accumulator {
  uint32_t w[32][kWaveSize];
};

// True when a register operand covers `dwords` registers inside its file.
bool fits(const Wave& w, const Operand& op, int dwords) {
  if (op.kind == OperandKind::Vgpr) return op.reg + dwords <= static_cast<int>(w.num_vgprs());
  if (op.kind == OperandKind::Agpr) return op.reg + dwords <= static_cast<int>(w.num_agprs());
  return op.kind == OperandKind::Constant || op.kind == OperandKind::Scalar;
}

void run_mfma(Wave& w, const Instruction& in, const Shape& s) {
  const int in_dwords = (s.kpl() * s.elem_bits() + 31) / 32;
  const int out_regs = s.out_values() * (s.elem == Elem::F64 ? 2 : 1);
  if (!fits(w, in.src[0], in_dwords) || !fits(w, in.src[1], in_dwords) || !fits(w, in.src[2], out_regs) ||
      !fits(w, in.dst[0], out_regs) || in.dst[0].kind == OperandKind::Constant) {
    w.fault(std::string(in.mnemonic()) + ": register operands beyond the wave's " + std::to_string(w.num_vgprs()) +
            " VGPRs / " + std::to_string(w.num_agprs()) + " AGPRs");
    return;
  }
  static thread_local Elements a, b;  // large: kept off the stack, reused, never reallocated
  static thread_local Accumulator acc;
  read_elements(w, in.src[0], s, a);
  read_elements(w, in.src[1], s, b);
  const int regs = s.out_values() * (s.elem == Elem::F64 ? 2 : 1);
  for (int r = 0; r < regs; ++r) {
    if (in.src[2].kind == OperandKind::Constant) {
      // An inline constant C is the same value in every element.
      const uint64_t c = in.src[2].value;
      const uint32_t word = s.elem == Elem::F64 ? static_cast<uint32_t>(c >> (32 * (r & 1))) : static_cast<uint32_t>(c);
      for (int l = 0; l < kWaveSize; ++l) acc.w[r][l] = word;
    } else {
      std::memcpy(acc.w[r], w.lanes(in.src[2], static_cast<unsigned>(r)), sizeof acc.w[r]);
    }
  }
  const int kpl = s.kpl(), group = 1 << in.cbsz;
  const bool f64 = s.elem == Elem::F64;
  const double neg_a = (f64 && (in.neg & 1)) ? -1.0 : 1.0, neg_b = (f64 && (in.neg & 2)) ? -1.0 : 1.0;
  const double neg_c = (f64 && (in.neg & 4)) ? -1.0 : 1.0;
  for (int blk = 0; blk < s.blocks; ++blk) {
    const int a_blk = in.cbsz ? (blk & ~(group - 1)) | (in.abid & (group - 1)) : blk;
    // This block's A rows and B columns as k-vectors: at[i][k], bt[k][j].
    double at[kMaxM][kMaxK], bt[kMaxK][kMaxM];
    for (int k = 0; k < s.k; ++k) {
      const int g_a = a_blk + s.blocks * (k / kpl), g_b = blk + s.blocks * (k / kpl), kk = k % kpl;
      for (int i = 0; i < s.m; ++i) at[i][k] = a.v[i + s.m * g_a][kk];
      for (int j = 0; j < s.m; ++j) bt[k][j] = b.v[f64 ? j + s.m * g_b : blgp_lane(j + s.m * g_b, in.blgp)][kk];
    }
    for (int i = 0; i < s.m; ++i) {
      // One row of D at a time, k outside j: every sum still adds its
      // products in k order, and the j loop vectorises. (Integer products
      // and their sums are exact in f64: |sum| <= 16 * 128 * 128.)
      double sum[kMaxM] = {};
      for (int k = 0; k < s.k; ++k) {
        const double x = at[i][k];
        for (int j = 0; j < s.m; ++j) sum[j] += x * bt[k][j];
      }
      // D[blk][i][j] for every j: one register, consecutive lanes from lane0.
      int reg = 0, lane0 = 0;
      out_position(s, blk, i, 0, reg, lane0);
      if (s.elem == Elem::I8) {
        uint32_t* d = acc.w[reg] + lane0;
        for (int j = 0; j < s.m; ++j) d[j] = static_cast<uint32_t>(d[j] + static_cast<uint32_t>(static_cast<int64_t>(sum[j])));
      } else if (f64) {
        uint32_t *lo = acc.w[2 * reg] + lane0, *hi = acc.w[2 * reg + 1] + lane0;
        for (int j = 0; j < s.m; ++j) {
          const double d = neg_c * fp::f64(lo[j] | (static_cast<uint64_t>(hi[j]) << 32)) + neg_a * neg_b * sum[j];
          lo[j] = static_cast<uint32_t>(bits(d));
          hi[j] = static_cast<uint32_t>(bits(d) >> 32);
        }
      } else {
        uint32_t* d = acc.w[reg] + lane0;
        for (int j = 0; j < s.m; ++j) d[j] = bits(static_cast<float>(static_cast<double>(f32(d[j])) + sum[j]));
      }
    }
  }
  for (int r = 0; r < regs; ++r) w.write32(in.dst[0], acc.w[r], ~0ull, static_cast<unsigned>(r));
}

struct Named {
  const char* name;
  Shape shape;
};

constexpr Named kShapes[] = {
    {"v_mfma_f32_32x32x1f32", {32, 1, 2, Elem::F32}},    {"v_mfma_f32_16x16x1f32", {16, 1, 4, Elem::F32}},
    {"v_mfma_f32_4x4x1f32", {4, 1, 16, Elem::F32}},      {"v_mfma_f32_32x32x2f32", {32, 2, 1, Elem::F32}},
    {"v_mfma_f32_16x16x4f32", {16, 4, 1, Elem::F32}},    {"v_mfma_f32_32x32x4f16", {32, 4, 2, Elem::F16}},
    {"v_mfma_f32_16x16x4f16", {16, 4, 4, Elem::F16}},    {"v_mfma_f32_4x4x4f16", {4, 4, 16, Elem::F16}},
    {"v_mfma_f32_32x32x8f16", {32, 8, 1, Elem::F16}},    {"v_mfma_f32_16x16x16f16", {16, 16, 1, Elem::F16}},
    {"v_mfma_i32_32x32x4i8", {32, 4, 2, Elem::I8}},      {"v_mfma_i32_16x16x4i8", {16, 4, 4, Elem::I8}},
    {"v_mfma_i32_4x4x4i8", {4, 4, 16, Elem::I8}},        {"v_mfma_i32_32x32x8i8", {32, 8, 1, Elem::I8}},
    {"v_mfma_i32_16x16x16i8", {16, 16, 1, Elem::I8}},    {"v_mfma_f32_32x32x2bf16", {32, 2, 2, Elem::BF16}},
    {"v_mfma_f32_16x16x2bf16", {16, 2, 4, Elem::BF16}},  {"v_mfma_f32_4x4x2bf16", {4, 2, 16, Elem::BF16}},
    {"v_mfma_f32_32x32x4bf16", {32, 4, 1, Elem::BF16}},  {"v_mfma_f32_16x16x8bf16", {16, 8, 1, Elem::BF16}},
    {"v_mfma_f32_32x32x4bf16_1k", {32, 4, 2, Elem::BF16}}, {"v_mfma_f32_16x16x4bf16_1k", {16, 4, 4, Elem::BF16}},
    {"v_mfma_f32_4x4x4bf16_1k", {4, 4, 16, Elem::BF16}},   {"v_mfma_f32_32x32x8bf16_1k", {32, 8, 1, Elem::BF16}},
    {"v_mfma_f32_16x16x16bf16_1k", {16, 16, 1, Elem::BF16}}, {"v_mfma_f64_16x16x4f64", {16, 4, 1, Elem::F64}},
    {"v_mfma_f64_4x4x4f64", {4, 4, 4, Elem::F64}},
};
constexpr int kNumShapes = sizeof(kShapes) / sizeof(kShapes[0]);
constexpr bool shapes_fit() {
  for (const Named& n : kShapes)
    if (n.shape.m > kMaxM || n.shape.k > kMaxK) return false;
  return true;
}
static_assert(shapes_fit(), "an MFMA shape exceeds kMaxM/kMaxK");

template <int N>
void mfma(Wave& w, const Instruction& in) {
  run_mfma(w, in, kShapes[N].shape);
}

template <int N>
void add_all(SemanticsTable& t) {
  if constexpr (N < kNumShapes) {
    t.add(kShapes[N].name, mfma<N>);
    add_all<N + 1>(t);
  }
}
}  // namespace

void register_mfma_semantics(SemanticsTable& t) { add_all<0>(t); }

}  // namespace tessera::isa
