// The calibration microbenchmarks (calib.h) and their registration as
// workloads of the suite.
#include "sw/workloads/calib.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads::calib {
namespace {

constexpr uint32_t kLdsWords = 4096;  // calib_lds's tile, as in calib_throughput.cl
constexpr uint32_t kMfmaOutputs = 16;  // accumulators per lane of v_mfma_f32_32x32x2f32

// The value calib_stream's buffer holds at float index i: small integers, so
// every sum is exact whatever the order of its additions.
float stream_value(uint64_t i) { return float(i % 7); }

}  // namespace

void write_chain(Device& device, DevicePtr chain, const std::vector<uint32_t>& links) {
  if (links.empty() || links.front() != 0) throw runtime::DeviceError("a chase's chain must start at offset 0");
  const uint32_t end = *std::max_element(links.begin(), links.end()) + 4;
  std::vector<uint8_t> bytes(end, 0);
  for (size_t k = 0; k < links.size(); ++k) {
    const uint32_t next = links[(k + 1) % links.size()];
    std::memcpy(&bytes[links[k]], &next, 4);
  }
  device.write(chain, bytes.data(), bytes.size());
}

namespace {

// Where a chase of `steps` links from offset 0 ends.
uint32_t chase_end(const std::vector<uint32_t>& links, uint32_t steps) {
  std::map<uint32_t, uint32_t> next;
  for (size_t k = 0; k < links.size(); ++k) next[links[k]] = links[(k + 1) % links.size()];
  uint32_t offset = 0;
  for (uint32_t i = 0; i < steps; ++i) offset = next.at(offset);
  return offset;
}

}  // namespace

Result chase(Device& device, DevicePtr chain, const std::vector<uint32_t>& links, uint32_t steps, DevicePtr out) {
  Result result;
  result.shape = "links=" + std::to_string(links.size()) + " steps=" + std::to_string(steps);
  std::vector<uint32_t> got;
  {
    Session s(device, result);
    s.launch("calib_chase", "calib_chase", Dim3{1}, Dim3{1}, KernelArgs().pointer(chain).pointer(out).value(steps));
    got = s.download<uint32_t>(out, 1);
  }
  conclude(result, {make_output("end", got)}, {make_output("end", std::vector<uint32_t>{chase_end(links, steps)})});
  return result;
}

Result loaded_chase(Device& device, DevicePtr chain, const std::vector<uint32_t>& links, uint32_t steps, DevicePtr out,
                    DevicePtr in, uint64_t bytes, uint32_t wg, uint32_t wgs, DevicePtr flag, uint64_t& stream_bytes) {
  const uint64_t streamers = uint64_t(wg) * (wgs - 1), n4 = bytes / 16;
  if (wgs < 2 || bytes % 16 || n4 % (4 * streamers) || n4 > UINT32_MAX)
    throw runtime::DeviceError("calib_loaded: needs a streaming workgroup and a multiple of 4 x its float4s");
  Result result;
  result.shape = "links=" + std::to_string(links.size()) + " steps=" + std::to_string(steps) +
                 " bytes=" + std::to_string(bytes) + " grid=" + std::to_string(uint64_t(wg) * wgs);
  std::vector<uint32_t> end, counts;
  std::vector<float> sums;
  {
    Session s(device, result);
    const DevicePtr sums_at = s.alloc(streamers * sizeof(float)), counts_at = s.alloc(streamers * sizeof(uint32_t));
    const uint32_t zero = 0;
    device.write(flag, &zero, sizeof zero);
    s.launch("calib_loaded", "calib_loaded", Dim3{uint32_t(uint64_t(wg) * wgs)}, Dim3{wg},
             KernelArgs()
                 .pointer(chain)
                 .pointer(out)
                 .value(steps)
                 .pointer(in)
                 .value(uint32_t(n4))
                 .pointer(flag)
                 .pointer(sums_at)
                 .pointer(counts_at));
    end = s.download<uint32_t>(out, 1);
    sums = s.download<float>(sums_at, streamers);
    counts = s.download<uint32_t>(counts_at, streamers);
  }
  // Each streaming work-item's float4s over the steps it ran, summed exactly.
  std::vector<float> want(streamers);
  stream_bytes = 0;
  for (uint64_t w = 0; w < streamers; ++w) {
    double sum = 0;
    uint64_t i = w;
    for (uint32_t k = 0; k < counts[w]; ++k, i = (i + 4 * streamers) % n4)
      for (uint64_t j = 0; j < 4; ++j)
        for (uint64_t c = 0; c < 4; ++c) sum += stream_value(4 * (i + j * streamers) + c);
    want[w] = float(sum);
    stream_bytes += uint64_t(counts[w]) * 64;
  }
  conclude(result, {make_output("end", end), make_output("sums", sums)},
           {make_output("end", std::vector<uint32_t>{chase_end(links, steps)}),
            make_output("sums", want, Tolerance{0, {}, "exact (integer sums)"})});
  return result;
}

void fill_stream(Device& device, DevicePtr in, uint64_t bytes) {
  std::vector<float> v(bytes / 4);
  for (size_t i = 0; i < v.size(); ++i) v[i] = stream_value(i);
  device.write(in, v.data(), bytes);
}

Result stream(Device& device, DevicePtr in, uint64_t bytes, uint32_t wg, uint32_t wgs, uint32_t passes) {
  const uint32_t global = wg * wgs;
  const uint64_t n4 = bytes / 16;
  if (bytes % 16 || n4 % (4ull * global) || n4 > UINT32_MAX)
    throw runtime::DeviceError("calib_stream: the buffer must hold a multiple of 4 x the grid's float4s");
  Result result;
  result.shape = "bytes=" + std::to_string(bytes) + " grid=" + std::to_string(global) +
                 " passes=" + std::to_string(passes);
  std::vector<float> got;
  {
    Session s(device, result);
    const DevicePtr out = s.alloc(global * sizeof(float));
    s.launch("calib_stream", "calib_stream", Dim3{global}, Dim3{wg},
             KernelArgs().pointer(in).pointer(out).value(uint32_t(n4)).value(passes));
    got = s.download<float>(out, global);
  }
  // Each work-item's float4s, summed exactly (integers far below 2^24).
  std::vector<float> want(global);
  for (uint32_t g = 0; g < global; ++g) {
    double sum = 0;
    for (uint64_t i = g; i < n4; i += global)
      for (uint64_t c = 0; c < 4; ++c) sum += stream_value(4 * i + c);
    want[g] = float(sum * passes);
  }
  conclude(result, {make_output("sums", got)}, {make_output("sums", want, Tolerance{0, {}, "exact (integer sums)"})});
  return result;
}

namespace {

constexpr uint32_t kLinkPage = 4096;  // the chiplet network's page, as in calib_link.cl
constexpr uint32_t kLinkGroup = 256;  // work-items per workgroup: one float4 each per page

// Page q of chiplet c's pages in calib_link.cl (page_of there).
uint64_t page_of(uint64_t q, uint32_t chiplets, uint32_t reader, uint32_t c) {
  if (reader == chiplets) return q * chiplets + c;
  const uint64_t others = chiplets - 1, r = q % others;
  return q / others * chiplets + r + (r >= reader ? 1 : 0);
}

}  // namespace

uint64_t link_buffer_bytes(uint32_t pages, uint32_t chiplets, uint32_t reader) {
  if (chiplets < 2 || pages == 0) return 0;
  // Whole rounds of `chiplets` pages.
  const uint64_t rounds = reader == chiplets ? pages : uint64_t(pages - 1) / (chiplets - 1) + 1;
  return rounds * chiplets * kLinkPage;
}

Result link_stream(Device& device, DevicePtr in, uint32_t pages, uint32_t chiplets, uint32_t reader, uint32_t share,
                   bool pipelined) {
  if (chiplets < 2 || reader > chiplets)
    throw runtime::DeviceError("calib_link: needs two chiplets or more and a reader among them (or all)");
  if (share == 0 || pages % (4 * share))
    throw runtime::DeviceError("calib_link: the pages must be a multiple of 4 x the workgroups per chiplet");
  const uint32_t wgs = share * chiplets, global = kLinkGroup * wgs;
  Result result;
  result.shape = "pages=" + std::to_string(pages) + " chiplets=" + std::to_string(chiplets) +
                 " reader=" + (reader == chiplets ? std::string("all, own memory") : std::to_string(reader)) +
                 " grid=" + std::to_string(global) + (pipelined ? " pipelined" : "");
  std::vector<float> got;
  {
    Session s(device, result);
    const DevicePtr out = s.alloc(global * sizeof(float));
    s.launch("calib_link", pipelined ? "calib_link_pipelined" : "calib_link", Dim3{global}, Dim3{kLinkGroup},
             KernelArgs().pointer(in).pointer(out).value(pages).value(chiplets).value(reader).value(share));
    got = s.download<float>(out, global);
  }
  std::vector<float> want(global, 0.0f);
  for (uint32_t w = 0; w < wgs; ++w) {
    const uint32_t c = w / share;
    if (reader != chiplets && c != reader) continue;
    for (uint32_t t = 0; t < kLinkGroup; ++t) {
      double sum = 0;
      for (uint64_t q = w % share; q < pages; q += share) {
        const uint64_t i = page_of(q, chiplets, reader, c) * kLinkGroup + t;
        for (uint64_t k = 0; k < 4; ++k) sum += stream_value(4 * i + k);
      }
      want[uint64_t(w) * kLinkGroup + t] = float(sum);
    }
  }
  conclude(result, {make_output("sums", got)}, {make_output("sums", want, Tolerance{0, {}, "exact (integer sums)"})});
  return result;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::valu: return "valu";
    case Kind::salu: return "salu";
    case Kind::mfma: return "mfma";
    case Kind::lds: return "lds";
  }
  return "";
}

namespace {

std::vector<float> valu_reference(uint32_t global, float a, float b, uint32_t iters) {
  std::vector<float> want(global);
  for (uint32_t g = 0; g < global; ++g) {
    float x[8];
    for (int k = 0; k < 8; ++k) x[k] = float(g) + float(k);
    for (uint32_t i = 0; i < iters; ++i)
      for (float& v : x) v = std::fma(v, a, b);
    want[g] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
  }
  return want;
}

uint32_t salu_reference(uint32_t seed, uint32_t iters) {
  uint32_t x0 = seed, x1 = seed ^ 0x9e3779b9u, x2 = seed + 12345u, x3 = seed * 7u;
  for (uint32_t i = 0; i < iters; ++i) {
    x0 = x0 * 1664525u + 1013904223u;
    x1 = (x1 ^ (x1 << 13)) + 0x6d2b79f5u;
    x2 = x2 * 22695477u + 1u;
    x3 = (x3 ^ (x3 >> 7)) + 0x7f4a7c15u;
  }
  return x0 ^ x1 ^ x2 ^ x3;
}

std::vector<uint32_t> lds_reference(uint32_t global, uint32_t wg, uint32_t iters) {
  std::vector<uint32_t> want(global);
  const uint64_t step = 64ull * iters;
  for (uint32_t g = 0; g < global; ++g) {
    const uint32_t lid = g % wg;
    uint64_t sum = 0;
    for (uint32_t start = 0; start < kLdsWords; start += 512) sum += (lid + start + step) % kLdsWords;
    want[g] = uint32_t(sum);
  }
  return want;
}

}  // namespace

Result throughput(Device& device, Kind kind, uint32_t wg, uint32_t wgs, uint32_t iters) {
  const uint32_t global = wg * wgs;
  if (kind == Kind::mfma && wg % 64) throw runtime::DeviceError("calib_mfma needs whole waves of 64");
  Result result;
  result.shape = "grid=" + std::to_string(global) + " workgroup=" + std::to_string(wg) +
                 " iterations=" + std::to_string(iters);
  const std::string kernel = std::string("calib_") + kind_name(kind);
  const float a = 0.75f, b = 0.25f;  // valu: x -> 0.75 x + 0.25; mfma: 2 a b = 0.375 a step
  const uint32_t seed = 0x5eed1234u;
  Session s(device, result);
  if (kind == Kind::valu) {
    const DevicePtr out = s.alloc(global * 4);
    s.launch("calib_throughput", kernel, Dim3{global}, Dim3{wg},
             KernelArgs().pointer(out).value(a).value(b).value(iters));
    conclude(result, {make_output("x", s.download<float>(out, global))},
             {make_output("x", valu_reference(global, a, b, iters), Tolerance{0, {}, "exact (fma is correctly rounded)"})});
  } else if (kind == Kind::salu) {
    const DevicePtr out = s.alloc(global * 4);
    s.launch("calib_throughput", kernel, Dim3{global}, Dim3{wg}, KernelArgs().pointer(out).value(seed).value(iters));
    conclude(result, {make_output("x", s.download<uint32_t>(out, global))},
             {make_output("x", std::vector<uint32_t>(global, salu_reference(seed, iters)))});
  } else if (kind == Kind::mfma) {
    const DevicePtr in = s.upload(std::vector<float>{a, b}), out = s.alloc(size_t(global) * kMfmaOutputs * 4);
    s.launch("calib_throughput", kernel, Dim3{global}, Dim3{wg}, KernelArgs().pointer(in).pointer(out).value(iters));
    float acc = 0;
    for (uint32_t i = 0; i < iters; ++i) acc = acc + a * b + a * b;  // multiples of 0.375: exact below 2^21 steps
    conclude(result, {make_output("acc", s.download<float>(out, size_t(global) * kMfmaOutputs))},
             {make_output("acc", std::vector<float>(size_t(global) * kMfmaOutputs, acc))});
  } else {
    const DevicePtr out = s.alloc(global * 4);
    s.launch("calib_throughput", kernel, Dim3{global}, Dim3{wg}, KernelArgs().pointer(out).value(iters));
    conclude(result, {make_output("x", s.download<uint32_t>(out, global))},
             {make_output("x", lds_reference(global, wg, iters))});
  }
  return result;
}

namespace {

// The registered workloads: fixed layouts at sizes of the suite's own; a
// netlist's calibration picks its own (platform/calibration.cpp).
constexpr uint32_t kGroup = 256, kGroups = 4;

// size = the chain's footprint in bytes: one link per 64 B line, visited in
// an order drawn from the seed, followed twice round.
Result run_chase(Device& device, size_t size, uint64_t seed) {
  const uint32_t lines = uint32_t(std::max<size_t>(1, (size + 63) / 64));
  std::vector<uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  Rng rng(seed);
  for (uint32_t i = lines - 1; i > 1; --i) std::swap(order[i], order[1 + rng.below(i)]);
  std::vector<uint32_t> links;
  for (uint32_t l : order) links.push_back(l * 64);
  Result r;
  {
    // This session only owns the buffers (and frees them); chase() counts the launch.
    Result buffers_only;
    Session s(device, buffers_only);
    const DevicePtr chain = s.alloc(size_t(lines) * 64), out = s.alloc(4);
    write_chain(device, chain, links);
    r = chase(device, chain, links, 2 * lines, out);
  }
  r.shape = "footprint=" + std::to_string(lines * 64) + " B, " + r.shape;
  return r;
}

// size = bytes read, rounded up to what the grid covers in whole loop steps.
Result run_stream(Device& device, size_t size, uint64_t) {
  const uint64_t quantum = 16ull * 4 * kGroup * kGroups;
  const uint64_t bytes = (std::max<uint64_t>(size, 1) + quantum - 1) / quantum * quantum;
  Result buffers_only;  // this session only owns the buffer; stream() counts the launch
  Session s(device, buffers_only);
  const DevicePtr in = s.alloc(bytes);
  fill_stream(device, in, bytes);
  return stream(device, in, bytes, kGroup, kGroups, 1);
}

Workload throughput_workload(Kind kind, const std::string& doc) {
  return {std::string("calib_") + kind_name(kind), doc, 1000, {1, 37},
          [kind](Device& d, size_t size, uint64_t) {
            return throughput(d, kind, kGroup, kGroups, uint32_t(std::min<size_t>(size, 1u << 20)));
          }};
}

const WorkloadRegistrar chase_registrar{{"calib_chase", "calibration: pointer chase over a footprint of size bytes",
                                         16384, {64, 1000, 16384}, run_chase}};
const WorkloadRegistrar stream_registrar{{"calib_stream", "calibration: read stream of size bytes", 1u << 20,
                                          {1, 65536, 200000}, run_stream}};
const WorkloadRegistrar valu_registrar{
    throughput_workload(Kind::valu, "calibration: VALU throughput, size loop steps of 8 fma chains")};
const WorkloadRegistrar salu_registrar{
    throughput_workload(Kind::salu, "calibration: SALU throughput, size loop steps of 4 scalar chains")};
const WorkloadRegistrar mfma_registrar{
    throughput_workload(Kind::mfma, "calibration: matrix-core throughput, size v_mfma_f32_32x32x2f32 per wave")};
const WorkloadRegistrar lds_registrar{
    throughput_workload(Kind::lds, "calibration: LDS throughput, size loop steps of 8 read chains")};

}  // namespace
}  // namespace tessera::workloads::calib
