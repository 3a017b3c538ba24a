// lud: LU decomposition without pivoting of an n x n matrix, in place, one
// step k per pair of launches (lud_column scales column k by the pivot,
// lud_update updates the trailing matrix), 2 (n - 1) launches whose working
// set shrinks by a row and a column each step; every step reads what the
// previous one wrote. Access modes: the matrix is read-write in every launch.
//
// A numerically safe input that is also exact: A = L0 U0 with L0 unit lower
// triangular and U0 upper triangular, their off-diagonal entries multiples of
// 1/4 in [-1, 1] and U0's diagonal 2 or 4. In exact arithmetic the
// factorisation returns L0 and U0; every intermediate value a_ij - sum l u is
// a multiple of 1/16 below n + 4 in magnitude (at most 17 significant bits for
// n <= 4096), and the divisions are by powers of two. So every step is exact,
// in any order and fused or not: the packed factors compare bit for bit.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;
constexpr uint32_t kTile = 16;  // lud_update's 2D workgroup is kTile x kTile
constexpr size_t kMaxExactN = 4096;

// The packed factors L0 (below the diagonal) and U0 (on and above it), and A = L0 U0.
void make_input(size_t n, uint64_t seed, std::vector<float>& packed, std::vector<float>& a) {
  Rng rng(seed);
  packed.assign(n * n, 0.0f);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      packed[i * n + j] = i == j ? (rng.chance(0.5) ? 2.0f : 4.0f) : rng.dyadic(4, 4);
  a.assign(n * n, 0.0f);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double sum = 0.0;  // sum over p <= min(i, j) of L0[i][p] U0[p][j], L0[i][i] = 1
      for (size_t p = 0; p <= std::min(i, j); ++p) sum += (p == i ? 1.0 : double(packed[i * n + p])) * packed[p * n + j];
      a[i * n + j] = float(sum);
    }
}

Result run_lud(Device& device, size_t size, uint64_t seed) {
  const size_t n = size;
  Result result;
  if (n > kMaxExactN) {
    result.message = "n=" + std::to_string(n) + " exceeds " + std::to_string(kMaxExactN) +
                     ", beyond which the exact-result argument for this workload does not hold";
    return result;
  }
  std::vector<float> want, a;
  make_input(n, seed, want, a);
  result.shape = std::to_string(n) + "x" + std::to_string(n) + ", " + std::to_string(2 * (n - 1)) + " launches";
  const size_t bytes = n * n * sizeof(float);
  std::vector<float> got;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a);
    const uint32_t un = uint32_t(n);
    for (uint32_t k = 0; k + 1 < un; ++k) {
      const uint32_t rest = un - k - 1;
      s.set_access_modes({{da, bytes, AccessMode::ReadWrite}});
      s.launch("lud", "lud_column", Dim3{round_up(rest, kGroup)}, Dim3{kGroup}, KernelArgs().pointer(da).value(un).value(k));
      s.set_access_modes({{da, bytes, AccessMode::ReadWrite}});
      s.launch("lud", "lud_update", Dim3{round_up(rest, kTile), round_up(rest, kTile)}, Dim3{kTile, kTile},
               KernelArgs().pointer(da).value(un).value(k));
    }
    got = s.download<float>(da, n * n);
  }
  conclude(result, {make_output("lu", got)},
           {make_output("lu", want, Tolerance{0, {}, "exact (A = L0 U0 on a dyadic grid, see source)"})});
  return result;
}

const WorkloadRegistrar registrar{{"lud",
                                   "LU decomposition of an n x n matrix, 2 (n-1) launches over a shrinking trailing matrix",
                                   128, {2, 17, 50}, run_lud}};

}  // namespace
}  // namespace tessera::workloads
