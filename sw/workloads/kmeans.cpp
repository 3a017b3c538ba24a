// kmeans: six iterations of k-means (k = 8) over `size` 2-D points with integer
// coordinates, two launches per iteration (assign, update). Integer arithmetic
// throughout, so every device must agree exactly.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;
constexpr uint32_t kClusters = 8;
constexpr uint32_t kDims = 2;
constexpr int kIterations = 6;
constexpr uint32_t kCoordinateRange = 1000;  // squared distances stay far below 2^32

struct Clustering {
  std::vector<uint32_t> assignment, counts;
  std::vector<int32_t> centroids;
};

void reference_iteration(const std::vector<int32_t>& points, uint32_t n, Clustering& k) {
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t best = 0, best_distance = UINT32_MAX;
    for (uint32_t c = 0; c < kClusters; ++c) {
      uint32_t distance = 0;
      for (uint32_t d = 0; d < kDims; ++d) {
        int32_t diff = points[i * kDims + d] - k.centroids[c * kDims + d];
        distance += uint32_t(diff * diff);
      }
      if (distance < best_distance) {
        best_distance = distance;
        best = c;
      }
    }
    k.assignment[i] = best;
  }
  for (uint32_t c = 0; c < kClusters; ++c) {
    int32_t sum[kDims] = {};
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (k.assignment[i] != c) continue;
      for (uint32_t d = 0; d < kDims; ++d) sum[d] += points[i * kDims + d];
      ++count;
    }
    if (count > 0)
      for (uint32_t d = 0; d < kDims; ++d) k.centroids[c * kDims + d] = sum[d] / int32_t(count);
    k.counts[c] = count;
  }
}

Result run_kmeans(Device& device, size_t size, uint64_t seed) {
  const uint32_t n = uint32_t(size);
  Rng rng(seed);
  // Points around kClusters random centres, so the clustering has structure.
  std::vector<int32_t> centres(kClusters * kDims), points(n * kDims);
  for (auto& v : centres) v = int32_t(100 + rng.below(kCoordinateRange - 200));
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t c = rng.below(kClusters);
    for (uint32_t d = 0; d < kDims; ++d) points[i * kDims + d] = centres[c * kDims + d] + int32_t(rng.below(161)) - 80;
  }
  Clustering want;
  want.assignment.assign(n, 0);
  want.counts.assign(kClusters, 0);
  // Initial centroids: the first k points (repeated if there are fewer).
  for (uint32_t c = 0; c < kClusters; ++c)
    for (uint32_t d = 0; d < kDims; ++d) want.centroids.push_back(points[(c % n) * kDims + d]);
  Result result;
  result.shape = std::to_string(n) + " points, k=" + std::to_string(kClusters) + ", " + std::to_string(kIterations) +
                 " iterations";
  Clustering got;
  {
    Session s(device, result);
    DevicePtr dpoints = s.upload(points), dcentroids = s.upload(want.centroids);
    DevicePtr dassign = s.alloc(n * sizeof(uint32_t)), dcounts = s.alloc(kClusters * sizeof(uint32_t));
    for (int it = 0; it < kIterations; ++it) {
      s.launch("kmeans", "kmeans_assign", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(dpoints).pointer(dcentroids).pointer(dassign).value(n).value(kClusters).value(
                   kDims));
      s.launch("kmeans", "kmeans_update", Dim3{round_up(kClusters * kDims, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(dpoints).pointer(dassign).pointer(dcentroids).pointer(dcounts).value(n).value(
                   kClusters).value(kDims));
    }
    got.assignment = s.download<uint32_t>(dassign, n);
    got.centroids = s.download<int32_t>(dcentroids, kClusters * kDims);
    got.counts = s.download<uint32_t>(dcounts, kClusters);
  }
  for (int it = 0; it < kIterations; ++it) reference_iteration(points, n, want);
  conclude(result,
           {make_output("assignment", got.assignment), make_output("centroids", got.centroids),
            make_output("counts", got.counts)},
           {make_output("assignment", want.assignment), make_output("centroids", want.centroids),
            make_output("counts", want.counts)});
  return result;
}

const WorkloadRegistrar registrar{{"kmeans", "integer k-means (k=8, 2-D), assign + update launches per iteration",
                                   100000, {1, 100, 5000}, run_kmeans}};

}  // namespace
}  // namespace tessera::workloads
