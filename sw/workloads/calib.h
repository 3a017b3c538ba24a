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

// One launch of calib_link on a chiplet platform whose network places 4 KiB
// pages round-robin over `chiplets` and whose command processor gives chiplet
// c workgroups [c x share, (c + 1) x share): a grid of chiplets x share
// workgroups of 256. With reader < chiplets only that chiplet's workgroups
// read, `pages` pages homed on the other chiplets (a stream over the links
// into it); with reader == chiplets every chiplet's workgroups read `pages`
// pages homed on their own chiplet. `in` is filled by fill_stream over
// link_buffer_bytes. Each work-item's sum is checked. `pages` must be a
// multiple of 4 x share. `pipelined` launches calib_link_pipelined, whose
// waves issue each loop step's loads before they wait for the step before.
Result link_stream(Device& device, DevicePtr in, uint32_t pages, uint32_t chiplets, uint32_t reader, uint32_t share,
                   bool pipelined = false);
// The bytes of `in` that link_stream with these arguments reaches.
uint64_t link_buffer_bytes(uint32_t pages, uint32_t chiplets, uint32_t reader);

// One launch of calib_loaded: workgroup 0's first work-item follows `steps`
// links of `chain` (as chase(), storing its end at `out`) while the other
// `wgs` - 1 workgroups of `wg` stream the first `bytes` of `in` (filled by
// fill_stream; bytes / 16 a multiple of 4 x the streaming work-items) until
// the chase ends. `flag` is 4 bytes of scratch. The chase's end and every
// streaming work-item's sum (for the steps it reports) are checked;
// `stream_bytes` gets the bytes the stream read.
Result loaded_chase(Device& device, DevicePtr chain, const std::vector<uint32_t>& links, uint32_t steps, DevicePtr out,
                    DevicePtr in, uint64_t bytes, uint32_t wg, uint32_t wgs, DevicePtr flag, uint64_t& stream_bytes);

enum class Kind { valu, salu, mfma, lds };
const char* kind_name(Kind k);

// One launch of calib_<kind>: `wgs` workgroups of `wg` work-items, `iters`
// loop steps each, every work-item's output checked.
Result throughput(Device& device, Kind kind, uint32_t wg, uint32_t wgs, uint32_t iters);

}  // namespace tessera::workloads::calib
