// nw: Needleman-Wunsch global alignment of two sequences of n symbols (16
// letters), one launch per anti-diagonal of the (n+1) x (n+1) score matrix
// (2n - 1 launches), each reading the two previous anti-diagonals. A control
// for the zero-skipping studies: the sequences and the similarity table hold
// no zeros, and the scores are mostly non-zero. Integer arithmetic, exact.
#include <algorithm>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;
constexpr uint32_t kAlphabet = 16;  // NW_ALPHABET in nw.cl
constexpr int32_t kGap = 3;

Result run_nw(Device& device, size_t size, uint64_t seed) {
  const uint32_t n = uint32_t(size), cols = n + 1;
  Rng rng(seed);
  std::vector<uint32_t> a(n), b(n);
  for (auto& v : a) v = 1 + rng.below(kAlphabet - 1);
  for (auto& v : b) v = 1 + rng.below(kAlphabet - 1);
  std::vector<int32_t> similarity(kAlphabet * kAlphabet);
  for (uint32_t i = 0; i < kAlphabet; ++i)
    for (uint32_t j = 0; j < kAlphabet; ++j)
      similarity[i * kAlphabet + j] = i == j ? int32_t(5 + rng.below(6)) : -int32_t(1 + rng.below(4));
  std::vector<int32_t> score(size_t(cols) * cols, 0);
  for (uint32_t i = 1; i <= n; ++i) score[i * cols] = score[i] = -kGap * int32_t(i);
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(n ? 2 * n - 1 : 0) + " launches";
  std::vector<int32_t> got;
  {
    Session s(device, result);
    DevicePtr dscore = s.upload(score), da = s.upload(a), db = s.upload(b), dsim = s.upload(similarity);
    for (uint32_t d = 2; d <= 2 * n; ++d) {
      const uint32_t cells = std::min(d - 1, n) - (d > n ? d - n : 1) + 1;
      s.launch("nw", "nw_diagonal", Dim3{round_up(cells, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(dscore).pointer(da).pointer(db).pointer(dsim).value(n).value(d).value(kGap));
    }
    got = s.download<int32_t>(dscore, score.size());
  }
  for (uint32_t i = 1; i <= n; ++i)
    for (uint32_t j = 1; j <= n; ++j) {
      const int32_t diagonal = score[(i - 1) * cols + j - 1] + similarity[a[i - 1] * kAlphabet + b[j - 1]];
      score[i * cols + j] = std::max(diagonal, std::max(score[(i - 1) * cols + j], score[i * cols + j - 1]) - kGap);
    }
  conclude(result, {make_output("score", got)}, {make_output("score", score)});
  return result;
}

const WorkloadRegistrar registrar{{"nw",
                                   "Needleman-Wunsch scores of two n-symbol sequences, one launch per anti-diagonal",
                                   256, {1, 30, 70}, run_nw}};

}  // namespace
}  // namespace tessera::workloads
