// Vector compares (VOPC and their VOP3 forms): v_cmp_* write a lane mask to
// VCC or an SGPR pair, v_cmpx_* also write it to EXEC. Lanes outside EXEC
// read as 0 in the result mask.
#include <string>
#include <type_traits>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;

// The 16 float predicates in opcode order; integers use F..T with NE for LG.
enum Cmp { F, LT, EQ, LE, GT, LG, GE, O, U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU };

template <int OP, typename T>
inline bool compare(T a, T b) {
  if constexpr (OP == F) return false;
  if constexpr (OP == LT) return a < b;
  if constexpr (OP == EQ) return a == b;
  if constexpr (OP == LE) return a <= b;
  if constexpr (OP == GT) return a > b;
  if constexpr (OP == LG) return a < b || a > b;  // integers: not equal
  if constexpr (OP == GE) return a >= b;
  if constexpr (OP == O) return a == a && b == b;
  if constexpr (OP == U) return a != a || b != b;
  if constexpr (OP == NGE) return !(a >= b);
  if constexpr (OP == NLG) return !(a < b || a > b);
  if constexpr (OP == NGT) return !(a > b);
  if constexpr (OP == NLE) return !(a <= b);
  if constexpr (OP == NEQ) return !(a == b);
  if constexpr (OP == NLT) return !(a < b);
  if constexpr (OP == TRU) return true;
  return false;
}

enum class Kind { F16, F32, F64, I16, U16, I32, U32, I64, U64 };

// Writes the compare result: dst[0] (VCC or SGPRs), and EXEC for cmpx.
inline void finish(ValuOperands& ops, uint64_t bits, bool x) {
  if (ops.inst().num_dst > 0) ops.store_lane_mask(bits, 0);
  if (x) ops.wave().set_exec(bits & ops.mask());
}

template <Kind K, int OP, bool X>
void cmp_fn(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  uint64_t bits = 0;
  if constexpr (K == Kind::F32 || K == Kind::F16) {
    alignas(64) float a[kWaveSize], b[kWaveSize];
    if constexpr (K == Kind::F32) {
      ops.f32(0, a);
      ops.f32(1, b);
    } else {
      ops.f16(0, a);
      ops.f16(1, b);
    }
    bits = lane_bits([&](int l) { return compare<OP>(a[l], b[l]); });
  } else if constexpr (K == Kind::F64) {
    alignas(64) double a[kWaveSize], b[kWaveSize];
    ops.f64(0, a);
    ops.f64(1, b);
    bits = lane_bits([&](int l) { return compare<OP>(a[l], b[l]); });
  } else if constexpr (K == Kind::I16 || K == Kind::U16) {
    alignas(64) uint16_t a[kWaveSize], b[kWaveSize];
    ops.u16(0, a);
    ops.u16(1, b);
    using T = std::conditional_t<K == Kind::I16, int16_t, uint16_t>;
    bits = lane_bits([&](int l) { return compare<OP>(static_cast<T>(a[l]), static_cast<T>(b[l])); });
  } else if constexpr (K == Kind::I32 || K == Kind::U32) {
    alignas(64) uint32_t b0[kWaveSize], b1[kWaveSize];
    const uint32_t* a = ops.u32(0, b0);
    const uint32_t* b = ops.u32(1, b1);
    using T = std::conditional_t<K == Kind::I32, int32_t, uint32_t>;
    bits = lane_bits([&](int l) { return compare<OP>(static_cast<T>(a[l]), static_cast<T>(b[l])); });
  } else {
    alignas(64) uint64_t a[kWaveSize], b[kWaveSize];
    ops.u64(0, a);
    ops.u64(1, b);
    using T = std::conditional_t<K == Kind::I64, int64_t, uint64_t>;
    bits = lane_bits([&](int l) { return compare<OP>(static_cast<T>(a[l]), static_cast<T>(b[l])); });
  }
  finish(ops, bits, X);
}

// v_cmp_class_*: src1's bits select classes (fp::ClassBit) of src0. The
// class is of the raw input (after abs/neg): denormals are not flushed first.
template <Kind K, bool X>
void class_fn(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) uint32_t b0[kWaveSize], b1[kWaveSize];
  const uint32_t* m = ops.u32(1, b1);
  const bool abs = in.abs & 1, neg = in.neg & 1;
  uint64_t bits = 0;
  if constexpr (K == Kind::F64) {
    alignas(64) uint64_t a[kWaveSize];
    ops.u64(0, a);
    const uint64_t clear = abs ? ~(1ull << 63) : ~0ull, flip = neg ? (1ull << 63) : 0;
    bits = lane_bits([&](int l) { return (class_of_f64((a[l] & clear) ^ flip) & m[l]) != 0; });
  } else if constexpr (K == Kind::F32) {
    const uint32_t* a = ops.u32(0, b0);
    const uint32_t clear = abs ? 0x7fffffffu : ~0u, flip = neg ? 0x80000000u : 0;
    bits = lane_bits([&](int l) { return (class_of_f32((a[l] & clear) ^ flip) & m[l]) != 0; });
  } else {
    alignas(64) uint16_t a[kWaveSize];
    ops.u16(0, a);
    const uint16_t clear = abs ? 0x7fff : 0xffff, flip = neg ? 0x8000 : 0;
    bits = lane_bits([&](int l) { return (class_of_f16(static_cast<uint16_t>((a[l] & clear) ^ flip)) & m[l]) != 0; });
  }
  finish(ops, bits, X);
}

template <Kind K, bool X>
void add_float_family(SemanticsTable& t, const char* type) {
  static const char* const names[16] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o",
                                        "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
  const ExecFn fns[16] = {cmp_fn<K, F, X>,   cmp_fn<K, LT, X>,  cmp_fn<K, EQ, X>,  cmp_fn<K, LE, X>,
                          cmp_fn<K, GT, X>,  cmp_fn<K, LG, X>,  cmp_fn<K, GE, X>,  cmp_fn<K, O, X>,
                          cmp_fn<K, U, X>,   cmp_fn<K, NGE, X>, cmp_fn<K, NLG, X>, cmp_fn<K, NGT, X>,
                          cmp_fn<K, NLE, X>, cmp_fn<K, NEQ, X>, cmp_fn<K, NLT, X>, cmp_fn<K, TRU, X>};
  for (int i = 0; i < 16; ++i) {
    const std::string name = std::string(X ? "v_cmpx_" : "v_cmp_") + names[i] + "_" + type;
    t.add(name.c_str(), fns[i]);
  }
}

template <Kind K, bool X>
void add_int_family(SemanticsTable& t, const char* type) {
  static const char* const names[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
  const ExecFn fns[8] = {cmp_fn<K, F, X>,  cmp_fn<K, LT, X>, cmp_fn<K, EQ, X>, cmp_fn<K, LE, X>,
                         cmp_fn<K, GT, X>, cmp_fn<K, LG, X>, cmp_fn<K, GE, X>, cmp_fn<K, TRU, X>};
  for (int i = 0; i < 8; ++i) {
    const std::string name = std::string(X ? "v_cmpx_" : "v_cmp_") + names[i] + "_" + type;
    t.add(name.c_str(), fns[i]);
  }
}
}  // namespace

void register_valu_cmp_semantics(SemanticsTable& t) {
  add_float_family<Kind::F16, false>(t, "f16");
  add_float_family<Kind::F16, true>(t, "f16");
  add_float_family<Kind::F32, false>(t, "f32");
  add_float_family<Kind::F32, true>(t, "f32");
  add_float_family<Kind::F64, false>(t, "f64");
  add_float_family<Kind::F64, true>(t, "f64");
  add_int_family<Kind::I16, false>(t, "i16");
  add_int_family<Kind::I16, true>(t, "i16");
  add_int_family<Kind::U16, false>(t, "u16");
  add_int_family<Kind::U16, true>(t, "u16");
  add_int_family<Kind::I32, false>(t, "i32");
  add_int_family<Kind::I32, true>(t, "i32");
  add_int_family<Kind::U32, false>(t, "u32");
  add_int_family<Kind::U32, true>(t, "u32");
  add_int_family<Kind::I64, false>(t, "i64");
  add_int_family<Kind::I64, true>(t, "i64");
  add_int_family<Kind::U64, false>(t, "u64");
  add_int_family<Kind::U64, true>(t, "u64");
  t.add("v_cmp_class_f32", class_fn<Kind::F32, false>);
  t.add("v_cmpx_class_f32", class_fn<Kind::F32, true>);
  t.add("v_cmp_class_f64", class_fn<Kind::F64, false>);
  t.add("v_cmpx_class_f64", class_fn<Kind::F64, true>);
  t.add("v_cmp_class_f16", class_fn<Kind::F16, false>);
  t.add("v_cmpx_class_f16", class_fn<Kind::F16, true>);
}

}  // namespace tessera::isa
