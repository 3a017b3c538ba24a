// bfs: level-synchronous breadth-first search from vertex 0 over a random
// undirected graph of `size` vertices (average degree about 4, so a few
// vertices are unreachable), one launch per level until nothing changes.
#include <algorithm>
#include <deque>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 128;

struct Graph {
  std::vector<uint32_t> row_ptr, cols;
};

Graph random_graph(uint32_t n, Rng& rng) {
  std::vector<std::vector<uint32_t>> adjacency(n);
  const uint64_t edges = uint64_t(n) * 2;
  for (uint64_t e = 0; e < edges && n > 1; ++e) {
    uint32_t a = rng.below(n), b = rng.below(n);
    if (a == b) continue;
    adjacency[a].push_back(b);
    adjacency[b].push_back(a);
  }
  Graph g;
  g.row_ptr.push_back(0);
  for (auto& list : adjacency) {
    g.cols.insert(g.cols.end(), list.begin(), list.end());
    g.row_ptr.push_back(uint32_t(g.cols.size()));
  }
  if (g.cols.empty()) g.cols.push_back(0);  // a device buffer cannot be empty; never read
  return g;
}

std::vector<int32_t> reference_levels(const Graph& g, uint32_t n) {
  std::vector<int32_t> level(n, -1);
  std::deque<uint32_t> queue{0};
  level[0] = 0;
  while (!queue.empty()) {
    uint32_t v = queue.front();
    queue.pop_front();
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (level[g.cols[e]] < 0) {
        level[g.cols[e]] = level[v] + 1;
        queue.push_back(g.cols[e]);
      }
  }
  return level;
}

Result run_bfs(Device& device, size_t size, uint64_t seed) {
  const uint32_t n = uint32_t(size);
  Rng rng(seed);
  Graph g = random_graph(n, rng);
  std::vector<int32_t> levels(n, -1);
  levels[0] = 0;
  Result result;
  result.shape = std::to_string(n) + " vertices, " + std::to_string(g.row_ptr.back()) + " directed edges";
  {
    Session s(device, result);
    DevicePtr drow = s.upload(g.row_ptr), dcols = s.upload(g.cols), dlevels = s.upload(levels);
    DevicePtr dchanged = s.alloc(sizeof(uint32_t));
    for (int32_t level = 0;; ++level) {
      s.write(dchanged, std::vector<uint32_t>{0});
      s.launch("bfs", "bfs_level", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(drow).pointer(dcols).pointer(dlevels).value(level).pointer(dchanged).value(n));
      if (s.download<uint32_t>(dchanged, 1)[0] == 0) break;
      if (uint32_t(level) > n) {  // a correct device cannot get here; a broken one must not hang the run
        result.message = "bfs did not converge after " + std::to_string(level) + " levels";
        return result;
      }
    }
    levels = s.download<int32_t>(dlevels, n);
  }
  std::vector<int32_t> want = reference_levels(g, n);
  int32_t depth = *std::max_element(want.begin(), want.end());
  result.shape += ", depth " + std::to_string(depth);
  conclude(result, {make_output("levels", levels)}, {make_output("levels", want)});
  return result;
}

const WorkloadRegistrar registrar{{"bfs", "level-synchronous BFS over a random CSR graph, one launch per level",
                                   100000, {1, 100, 3000}, run_bfs}};

}  // namespace
}  // namespace tessera::workloads
