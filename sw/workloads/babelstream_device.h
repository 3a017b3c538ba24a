// The BabelStream kernels (babelstream.cl) on a device, shared by babelstream
// (one pass) and babelstream_iter: `iterations` rounds of copy (c = a), mul
// (b = s c), add (c = a + b) and triad (a = b + s c) over the same three
// arrays, then one dot (a . b) whose partial sums are added here.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/workloads/compare.h"

namespace tessera::workloads {

constexpr uint32_t kBabelstreamGroup = 256;     // matches STREAM_DOT_GROUP in babelstream.cl
constexpr uint32_t kBabelstreamDotGroups = 32;  // partial sums written by stream_dot

struct BabelstreamArrays {
  std::vector<float> a, b, c;
  float dot = 0.0f;
};

// With `hints`, each launch declares its buffers' access modes (the streaming
// kernels touch each chiplet's share when n is a whole number of workgroups;
// dot reads a and b whole, with a grid-stride loop).
inline BabelstreamArrays run_babelstream_kernels(Device& device, Result& result, const BabelstreamArrays& in,
                                                 float scalar, int iterations, bool hints = false) {
  const size_t n = in.a.size();
  const uint32_t group = kBabelstreamGroup;
  BabelstreamArrays out;
  std::vector<float> partial;
  {
    Session s(device, result);
    DevicePtr da = s.upload(in.a), db = s.upload(in.b), dc = s.upload(in.c);
    DevicePtr dpartial = s.alloc(kBabelstreamDotGroups * sizeof(float));
    const Dim3 grid{round_up(n, group)}, block{group};
    const uint32_t count = uint32_t(n);
    const size_t bytes = n * sizeof(float);
    const bool shares = n % group == 0;
    const auto declare = [&](std::vector<BufferAccess> modes) {
      if (hints) s.set_access_modes(modes);
    };
    const auto ro = [&](DevicePtr p) { return BufferAccess{p, bytes, AccessMode::ReadOnly, 0, shares}; };
    const auto rw = [&](DevicePtr p) { return BufferAccess{p, bytes, AccessMode::ReadWrite, 0, shares}; };
    for (int it = 0; it < iterations; ++it) {
      declare({ro(da), rw(dc)});
      s.launch("babelstream", "stream_copy", grid, block, KernelArgs().pointer(da).pointer(dc).value(count));
      declare({ro(dc), rw(db)});
      s.launch("babelstream", "stream_mul", grid, block,
               KernelArgs().pointer(db).pointer(dc).value(scalar).value(count));
      declare({ro(da), ro(db), rw(dc)});
      s.launch("babelstream", "stream_add", grid, block, KernelArgs().pointer(da).pointer(db).pointer(dc).value(count));
      declare({ro(db), ro(dc), rw(da)});
      s.launch("babelstream", "stream_triad", grid, block,
               KernelArgs().pointer(da).pointer(db).pointer(dc).value(scalar).value(count));
    }
    declare({{da, bytes, AccessMode::ReadOnly},
             {db, bytes, AccessMode::ReadOnly},
             {dpartial, kBabelstreamDotGroups * sizeof(float), AccessMode::ReadWrite}});
    s.launch("babelstream", "stream_dot", Dim3{kBabelstreamDotGroups * group}, block,
             KernelArgs().pointer(da).pointer(db).pointer(dpartial).value(count));
    out.a = s.download<float>(da, n);
    out.b = s.download<float>(db, n);
    out.c = s.download<float>(dc, n);
    partial = s.download<float>(dpartial, kBabelstreamDotGroups);
  }
  for (float p : partial) out.dot += p;
  return out;
}

}  // namespace tessera::workloads
