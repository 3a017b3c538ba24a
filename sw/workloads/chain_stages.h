// The four elementwise uint stages of sw/kernels/producer_consumer.cl, with
// their CPU references; shared by the producer_consumer and no_reuse workloads.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::workloads::chain {

constexpr uint32_t kGroup = 256;
constexpr const char* kProgram = "producer_consumer";

struct Stage {
  const char* kernel;
  uint32_t (*reference)(uint32_t x, uint32_t i);
};

inline uint32_t scale(uint32_t x, uint32_t i) { return x * 2654435761u + i; }
inline uint32_t mix(uint32_t x, uint32_t) { return x ^ (x >> 15) ^ (x << 7); }
inline uint32_t rotate(uint32_t x, uint32_t) { return ((x << 11) | (x >> 21)) + 0x9e3779b9u; }
inline uint32_t fold(uint32_t x, uint32_t) {
  return (x * x) ^ (x >> 16) ^ uint32_t((uint64_t(x) * 0x85ebca6bu) >> 32);
}

inline const std::array<Stage, 4>& stages() {
  static const std::array<Stage, 4> all = {
      {{"pc_scale", scale}, {"pc_mix", mix}, {"pc_rotate", rotate}, {"pc_fold", fold}}};
  return all;
}

}  // namespace tessera::workloads::chain
