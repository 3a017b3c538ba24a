// permuted_consumer: a producer kernel writes buf[i] = f(i, round) over n uint
// elements; a consumer kernel reads the range the next part's workgroups wrote,
// out[i] = h(buf[(i + n/parts) % n]) + i, with parts = 4. n is size rounded up
// to a multiple of parts x the workgroup size, so each part is a whole number
// of workgroups: with 4 chiplets (one contiguous workgroup range each) chiplet
// c reads exactly what chiplet c+1 (mod 4) wrote; with 2, chiplet c reads half
// its own and half the other's; with 1, everything stays local.
//
// Two rounds (4 launches) over the same buf, each consumer writing its own
// output: in round 2 a chiplet reads lines that it cached in round 1 and that
// another chiplet has rewritten since, so the result depends on the
// kernel-start invalidation as well as the kernel-end write-back. Integer
// arithmetic, checked exactly.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kParts = 4;
constexpr uint32_t kRounds = 2;

uint32_t produce(uint32_t i, uint32_t round) {
  uint32_t v = (i + 1u) * 2654435761u + round * 0x632be5abu;
  v ^= v >> 16;
  return v * 0x85ebca6bu;
}

uint32_t consume(uint32_t v, uint32_t i) { return (v ^ (v >> 13)) * 0xc2b2ae35u + i; }

Result run_permuted_consumer(Device& device, size_t size, uint64_t seed) {
  const uint32_t n = round_up(size, kParts * kGroup);
  // The data is a function of the index and round; the seed picks the rounds'
  // numbers, so different seeds give different data.
  Rng rng(seed);
  std::vector<uint32_t> round_ids(kRounds);
  for (auto& r : round_ids) r = rng.next_u32();
  Result result;
  result.shape = "n=" + std::to_string(n) + " (size " + std::to_string(size) + " rounded up to parts x " +
                 std::to_string(kGroup) + "), parts=" + std::to_string(kParts) + ", " + std::to_string(kRounds) +
                 " rounds";
  std::vector<std::vector<uint32_t>> got;
  {
    Session s(device, result);
    DevicePtr buf = s.alloc(n * sizeof(uint32_t));
    std::vector<DevicePtr> out;
    for (uint32_t r = 0; r < kRounds; ++r) {
      out.push_back(s.alloc(n * sizeof(uint32_t)));
      // n is a whole number of workgroups: the producer and the consumer's
      // output are touched in shares; the consumer reads another part's share,
      // which a proportional share cannot say, so its reads are declared whole.
      s.set_access_modes({{buf, n * sizeof(uint32_t), AccessMode::ReadWrite, 0, true}});
      s.launch("permuted_consumer", "perm_produce", Dim3{n}, Dim3{kGroup},
               KernelArgs().pointer(buf).value(round_ids[r]).value(n));
      s.set_access_modes({{buf, n * sizeof(uint32_t), AccessMode::ReadOnly},
                          {out.back(), n * sizeof(uint32_t), AccessMode::ReadWrite, 0, true}});
      s.launch("permuted_consumer", "perm_consume", Dim3{n}, Dim3{kGroup},
               KernelArgs().pointer(buf).pointer(out.back()).value(kParts).value(n));
    }
    for (DevicePtr p : out) got.push_back(s.download<uint32_t>(p, n));
  }
  std::vector<Output> device_outputs, reference_outputs;
  const uint32_t shift = n / kParts;
  for (uint32_t r = 0; r < kRounds; ++r) {
    std::vector<uint32_t> want(n);
    for (uint32_t i = 0; i < n; ++i) want[i] = consume(produce((i + shift) % n, round_ids[r]), i);
    const std::string name = "out" + std::to_string(r);
    device_outputs.push_back(make_output(name, got[r]));
    reference_outputs.push_back(make_output(name, want));
  }
  conclude(result, std::move(device_outputs), reference_outputs);
  return result;
}

const WorkloadRegistrar registrar{
    {"permuted_consumer",
     "producer then consumer reading the next part's range (parts=4), 2 rounds; n = size rounded up to 4 x 256",
     1u << 15, {1, 2000, 4097}, run_permuted_consumer}};

}  // namespace
}  // namespace tessera::workloads
