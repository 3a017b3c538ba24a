// What clang-14 emits for gfx90a from OpenCL C is executed: probe kernels
// that call the libclc builtins (math on float, double and half; integer,
// conversions with every rounding and saturation mode; atomics of 32 and 64
// bits on global and local memory; vector loads, shuffles, fences, async
// copies) are compiled at -O0 and -O2, and every instruction of their code
// must decode and have semantics. docs/ISA.md lists what this found.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decoder.h"
#include "models/cu/isa/semantics.h"
#include "tests/cu/kernel_builder.h"

using namespace tessera::isa;

namespace {

const char* kProbeFloat = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define F1(fn) o[k++] = fn(x);
#define F2(fn) o[k++] = fn(x, y);
__kernel void pf(__global const float* in, __global float* o0) {
  size_t i = get_global_id(0); float x = in[i], y = in[i+1], z = in[i+2]; __global float* o = o0 + i * 128; int k = 0;
  F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(asinh) F1(acosh) F1(atanh)
  F1(exp2) F1(exp10) F1(log2) F1(log10) F1(log1p) F1(expm1) F1(cbrt) F1(sqrt) F1(rsqrt) F1(erf) F1(erfc)
  F1(tgamma) F1(lgamma) F1(floor) F1(ceil) F1(round) F1(trunc) F1(rint) F1(fabs) F1(logb) F1(sinpi) F1(cospi) F1(tanpi)
  F1(asinpi) F1(acospi) F1(atanpi) F1(native_sin) F1(native_cos) F1(native_exp) F1(native_log) F1(native_sqrt)
  F1(native_recip) F1(native_rsqrt) F1(half_exp) F1(half_log) F1(half_sqrt) F1(half_recip)
  F2(atan2) F2(fmod) F2(remainder) F2(hypot) F2(copysign) F2(nextafter) F2(fmin) F2(fmax) F2(fdim) F2(pow) F2(powr)
  F2(atan2pi) F2(maxmag) F2(minmag) F2(native_divide) F2(native_powr)
  o[k++] = fma(x, y, z); o[k++] = mad(x, y, z); o[k++] = ldexp(x, (int)y); o[k++] = pown(x, (int)y); o[k++] = rootn(x, (int)y);
  int e; o[k++] = frexp(x, &e); o[k++] = e; float ip; o[k++] = modf(x, &ip); o[k++] = ip; int q; o[k++] = remquo(x, y, &q); o[k++] = q;
  o[k++] = ilogb(x); o[k++] = isnan(x) + isinf(y) + isfinite(z) + signbit(x) + isnormal(y);
  float4 v = (float4)(x, y, z, x); o[k++] = dot(v, v); o[k++] = length(v); o[k++] = distance(v, v + 1); v = normalize(v); o[k++] = v.y;
  float4 c = cross(v, v.yzxw); o[k++] = c.z; o[k++] = step(x, y) + smoothstep(x, y, z) + sign(x) + degrees(x) + radians(y) + mix(x, y, z) + clamp(x, y, z);
  double d = x, e2 = y; double r = sin(d) + exp(d) + log(d) + pow(d, e2) + sqrt(d) + fma(d, e2, d) + floor(d) + d / e2 + rsqrt(d) + cbrt(d) + atan2(d, e2) + fmod(d, e2) + tanh(d) + erf(d);
  o[k++] = (float)r; o[k++] = (float)(d * e2 - (double)(int)x); o[k++] = convert_int_sat_rte(x * 1e10f); o[k++] = convert_uint_rtp(y); o[k++] = convert_short_sat(z); o[k++] = convert_char_sat_rtn(x);
  o[k++] = (float)convert_long_rtz(x) + (float)convert_ulong(y); o[k++] = convert_float_rtz(d) + convert_float_rtp(d) + convert_float_rtn(d);
  o[k++] = vload_half(i, (__global const half*)in); vstore_half_rtz(x, i, (__global half*)o0); vstore_half(y, i + 1, (__global half*)o0);
  o[k++] = as_float(as_uint(x) ^ 0x80000000u); 
}
)CL";

const char* kProbeInt = R"CL(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
__kernel void pi(__global const int* in, __global int* o, __global long* lo, __global uint* u, __global float* fo) {
  __local int l[64]; __local long ll[64];
  size_t i = get_global_id(0); int x = in[i], y = in[i+1], z = in[i+2]; uint a = x, b = y; long p = x, q = y;
  int k = 0; int r = 0;
  r += clz(x) + popcount(y) + rotate(x, y) + mul_hi(x, y) + mad_hi(x, y, z) + add_sat(x, y) + sub_sat(x, y) + abs(x) + abs_diff(x, y) + hadd(x, y) + rhadd(x, y) + mad24(x, y, z) + mul24(x, y) + max(x, y) + min(x, y) + clamp(x, y, z) + mad_sat(x, y, z);
  r += (int)(upsample((short)x, (ushort)y)) + (int)mul_hi(p, q) + (int)(p / q) + (int)(p % q) + (int)(a / b) + (int)(a % b) + x / y + x % y + (int)clz(p) + (int)popcount(q) + (int)rotate(p, q) + (int)(p * q) + (int)(p >> (q & 63)) + (int)((ulong)p >> (q & 63)) + (int)(p << (q & 63));
  r += (int)mul_hi(a, b) + (int)(uchar)add_sat((uchar)x, (uchar)y) + (short)sub_sat((short)x, (short)y) + (char)hadd((char)x, (char)y);
  l[get_local_id(0)] = x; ll[get_local_id(0)] = p; barrier(CLK_LOCAL_MEM_FENCE);
  r += atomic_add(&l[y & 63], 1) + atomic_sub(&l[z & 63], 1) + atomic_xchg(&l[x & 63], 3) + atomic_min(&l[1], x) + atomic_max(&l[2], y) + atomic_and(&l[3], x) + atomic_or(&l[4], y) + atomic_xor(&l[5], z) + atomic_cmpxchg(&l[6], x, y) + atomic_inc(&l[7]) + atomic_dec(&l[8]);
  r += atomic_add(&o[y & 63], 1) + atomic_sub(&o[z & 63], 1) + atomic_xchg(&o[x & 63], 3) + atomic_min(&o[1], x) + atomic_max(&o[2], y) + atomic_and(&o[3], x) + atomic_or(&o[4], y) + atomic_xor(&o[5], z) + atomic_cmpxchg(&o[6], x, y) + atomic_inc(&o[7]) + atomic_dec(&o[8]);
  r += atomic_min(&u[1], a) + atomic_max(&u[2], b);
  r += (int)(atom_add(&lo[1], p) + atom_xchg(&lo[2], q) + atom_cmpxchg(&lo[3], p, q) + atom_min(&lo[4], p) + atom_max(&lo[5], q) + atom_and(&lo[6], p) + atom_or(&lo[7], q) + atom_xor(&lo[8], p) + atom_inc(&lo[9]) + atom_dec(&lo[10]));
  r += (int)(atom_add(&ll[1], p) + atom_xchg(&ll[2], q) + atom_cmpxchg(&ll[3], p, q) + atom_min(&ll[4], p) + atom_max(&ll[5], q));
  r += (int)atomic_xchg(&fo[1], (float)x);
  event_t ev = async_work_group_copy(l, in, 64, 0); wait_group_events(1, &ev);
  mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  int4 v = vload4(i, in); int4 s = shuffle(v, (uint4)(3, 2, 1, 0)); int8 s2 = shuffle2(v, v, (uint8)(7,6,5,4,3,2,1,0));
  r += s.x + s2.s7 + any(v) + all(v) + select(x, y, z) + bitselect(x, y, z);
  o[i] = r + l[i & 63];
  short sh = (short)x; char ch = (char)y; ushort us = (ushort)z;
  o[i + 1] = sh * ch + us / (ushort)(ch | 1) + (sh >> 3) + (ch << 2);
}
)CL";

const char* kProbeHalf = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void ph(__global half* h, __global char4* c, __global ushort2* s, __global float* f, __global double* d) {
  size_t i = get_global_id(0);
  half a = h[i], b = h[i + 1];
  h[i] = a * b + fma(a, b, a) - fmax(a, b) / b + sqrt(a) + (half)floor(b) + (half)rsqrt((float)b);
  half2 v = vload2(i, h); h[i + 2] = v.x * v.y + dot((float2)(v.x, v.y), (float2)(1, 2));
  char4 x = c[i], y = c[i + 1]; c[i] = x * y + (x >> 1) - hadd(x, y) + max(x, y) + add_sat(x, y);
  ushort2 p = s[i], q = s[i + 1]; s[i] = p * q + (p << 3) + mul_hi(p, q) + min(p, q);
  f[i] = (float)d[i] + convert_float(c[i].x) + convert_float(s[i].y) + (float)h[i] + ldexp(f[i], 3) + frexp(f[i+1], (__global int*)(f + 2));
  d[i] = d[i] * d[i + 1] + sqrt(d[i + 2]) + fmin(d[i], d[i+3]) + ldexp(d[i], 4) + trunc(d[i]) + round(d[i]) + (double)(long)d[i+1] + (double)(ulong)d[i+2] + fract(d[i], d + 5);
}
)CL";

// Mnemonics in the code of `path` that do not decode or have no semantics.
std::set<std::string> not_executed(const std::string& path, size_t& instructions) {
  const CodeObject code = CodeObject::load_file(path);
  const std::vector<uint8_t>& text = code.text();
  std::set<std::string> missing;
  for (size_t off = 0; off + 4 <= text.size();) {
    uint32_t words[3] = {0, 0, 0};
    const size_t avail = std::min<size_t>((text.size() - off) / 4, 3);
    std::memcpy(words, text.data() + off, avail * 4);
    const Instruction in = decode(words, avail, code.text_address() + off);
    ++instructions;
    if (!in.op) missing.insert("<unknown>");
    else if (!semantics().find(in.mnemonic())) missing.insert(in.mnemonic());
    off += in.size;
  }
  return missing;
}

}  // namespace

TEST_CASE("every instruction clang-14 emits for the libclc builtins is executed", "[semantics][clang]") {
  size_t instructions = 0;
  for (const char* opt : {"-O0", "-O2"}) {
    const std::pair<const char*, const char*> probes[] = {
        {"probe_float", kProbeFloat}, {"probe_int", kProbeInt}, {"probe_half", kProbeHalf}};
    for (const auto& [name, source] : probes) {
      const std::string path = tessera::test::build_kernel(std::string(name) + opt, source, opt);
      INFO(path);
      const std::set<std::string> missing = not_executed(path, instructions);
      std::string list;
      for (const std::string& m : missing) list += m + " ";
      INFO("without semantics: " << list);
      CHECK(missing.empty());
    }
  }
  CHECK(instructions > 10000);
}
