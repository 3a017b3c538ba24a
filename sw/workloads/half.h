// IEEE 754 binary16 conversion for host-side f16 data, carried as uint16_t bits.
#pragma once
#include <cstdint>
#include <cstring>

namespace tessera::workloads {

// Round to nearest even; overflow gives infinity, NaN stays a quiet NaN.
inline uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  int32_t e = int32_t(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;  // rounds to zero
    mant |= 0x800000;          // the implicit bit, then shift into a subnormal
    uint32_t shift = uint32_t(14 - e);
    uint32_t half_mant = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half_mant & 1))) ++half_mant;
    return uint16_t(sign | half_mant);
  }
  uint32_t half_mant = mant >> 13;
  uint32_t rest = mant & 0x1fff;
  uint32_t bits = (uint32_t(e) << 10) | half_mant;
  if (rest > 0x1000 || (rest == 0x1000 && (half_mant & 1))) ++bits;  // may carry into the exponent: correct
  return uint16_t(sign | bits);
}

inline float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000 | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalise
      int32_t e = -1;
      do {
        mant <<= 1;
        ++e;
      } while (!(mant & 0x400));
      x = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace tessera::workloads
