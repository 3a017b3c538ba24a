// "traffic_gen": a self-checking traffic generator on one initiator socket.
//
// It first writes a known pattern over its whole region, then issues `count`
// reads and checks every byte against what it wrote:
//   stream        sequential writes, sequential reads (wrapping);
//   random        writes in a seeded permutation of the access-sized blocks,
//                 reads of seeded uniformly chosen blocks;
//   pointer_chase the region is one seeded random cycle of elements, each
//                 holding the address of the next; reads follow it one at a
//                 time, each issued only when the previous one returned.
// Every byte's value derives from its address and the seed, so nothing is
// stored per block and two generators with different seeds write different data.
// In AT mode up to `outstanding` transactions are in flight; responses are
// handled at their annotated time through a PEQ. Deterministic: the random
// numbers come from std::mt19937_64 with our own bounded mapping.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "platform/block.h"
#include "platform/param_table.h"
#include "platform/registry.h"

namespace tessera {

// The values of a traffic generator's parameters, each filled by its one
// declaration in traffic_gen_param_table() (traffic_gen.cpp).
struct TrafficGenConfig {
  std::string pattern;
  uint64_t base = 0, size = 0, access_size = 0, count = 0;
  unsigned outstanding = 0;
  bool lt = false;  // protocol "lt"
  uint64_t seed = 0;
  sc_core::sc_time start;
};
const ParamTable<TrafficGenConfig>& traffic_gen_param_table();

class TrafficGen : public Block, public tlm::tlm_mm_interface {
 public:
  SC_HAS_PROCESS(TrafficGen);
  explicit TrafficGen(const BlockContext& ctx) : TrafficGen(ctx, traffic_gen_param_table().read(ctx.params)) {}
  TrafficGen(const BlockContext& ctx, const TrafficGenConfig& config);
  ~TrafficGen() override;

  tlm_utils::simple_initiator_socket<TrafficGen> mem;

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  bool ok() const override;
  std::string summary() const override;

  bool finished() const { return finished_; }
  uint64_t reads_checked() const { return reads_.value; }
  uint64_t mismatches() const { return mismatches_.value; }
  uint64_t errors() const { return errors_.value; }
  double average_read_latency_ns() const;

  // The data the generator writes to (and expects from) `len` bytes at `addr`.
  void expected_data(uint64_t addr, uint8_t* out, uint64_t len) const;

  void free(tlm::tlm_generic_payload* trans) override;  // tlm_mm_interface

 private:
  enum class Pattern { Stream, Random, PointerChase };
  struct Request;

  void run();  // SC_THREAD: the write pass, then the read pass
  void write_pass();
  void read_pass();
  uint64_t block_address(uint64_t index) const { return base_ + index * access_size_; }
  uint64_t random_below(uint64_t n);  // uniform in [0, n), same on every library
  void build_order();

  // Waits for a free slot, then sends one transaction (LT: b_transport).
  void issue(tlm::tlm_command cmd, uint64_t addr);
  void drain();  // waits until nothing is in flight
  Request* allocate();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
  void complete(Request& r);

  Pattern pattern_;
  std::string pattern_name_;
  uint64_t base_, size_, access_size_, count_, blocks_;
  unsigned outstanding_;
  bool lt_;
  sc_core::sc_time start_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  std::vector<uint32_t> order_;  // write order (random) or successor index (pointer chase)

  tlm_utils::peq_with_cb_and_phase<TrafficGen> peq_;
  std::vector<uint8_t> scratch_;  // expected data of the read being checked
  sc_core::sc_event progress_;
  std::vector<std::unique_ptr<Request>> pool_;
  std::vector<Request*> free_;
  unsigned in_flight_ = 0;
  tlm::tlm_generic_payload* request_pending_ = nullptr;  // BEGIN_REQ sent, END_REQ awaited
  uint64_t chase_next_ = 0;                              // address the last chase read returned
  bool finished_ = false;
  double latency_sum_ns_ = 0;
  sc_core::sc_time read_start_, read_end_;

  Counter &reads_, &writes_, &bytes_read_, &bytes_written_, &mismatches_, &errors_;
  Histogram& read_latency_ns_;
  Scalar &read_bandwidth_, &avg_latency_;
};

BlockType traffic_gen_block_type();

}  // namespace tessera
