// The calibration microbenchmarks (sw/kernels/calib_*.cl) as host programs:
// each runs one launch and checks its output against a CPU reference like
// every workload, so that a measurement is also a correctness check. They are
// registered as workloads (calib_chase, calib_stream, calib_valu, calib_salu,
// calib_mfma, calib_lds) at sizes of their own, and `tessera calibrate` runs
// them with the layouts and sizes a netlist needs (platform/calibration.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/workloads/workload.h"

namespace tessera::workloads::calib {

// A pointer chase over `links` (byte offsets from `chain`; links[0] must be 0):
// the link at links[k] holds links[k + 1], the last one links[0].
void write_chain(Device& device, DevicePtr chain, const std::vector<uint32_t>& links);

// One launch of calib_chase: one work-item follows `steps` links from offset
// 0 and stores where it ended at `out`; checked against a walk on the CPU.
Result chase(Device& device, DevicePtr chain, const std::vector<uint32_t>& links, uint32_t steps, DevicePtr out);

// Fills `bytes` at `in` with the values calib_stream's check expects.
void fill_stream(Device& device, DevicePtr in, uint64_t bytes);

// One launch of calib_stream: `wgs` workgroups of `wg` read the first
// `bytes` of `in` (filled by fill_stream) `passes` times; each work-item's
// sum is checked. bytes / 16 must be a multiple of 4 x wg x wgs.
Result stream(Device& device, DevicePtr in, uint64_t bytes, uint32_t wg, uint32_t wgs, uint32_t passes);

enum class Kind { valu, salu, mfma, lds };
const char* kind_name(Kind k);

// One launch of calib_<kind>: `wgs` workgroups of `wg` work-items, `iters`
// loop steps each, every work-item's output checked.
Result throughput(Device& device, Kind kind, uint32_t wg, uint32_t wgs, uint32_t iters);

}  // namespace tessera::workloads::calib
