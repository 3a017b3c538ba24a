// "memory": a simple memory target with a fixed latency, a data channel of
// finite bandwidth and a finite request queue, storing its bytes in a shared
// BackingStore.
//
// Timing (both LT and AT): a request's data occupies the channel for
// length / bandwidth; the response is ready `latency` after its data has
// passed. In AT, requests are served in order, back-to-back requests are
// serialised on the channel (so responses are spaced by their transfer time),
// and at most `queue_depth` requests are accepted (END_REQ sent) and not yet
// completed (END_RESP received); a further BEGIN_REQ waits without END_REQ.
// Addresses are global: the memory answers [base, base+size).
//
// The AT protocol around it (back-pressure, in-order responses, protocol
// checks) is the shared AtTargetPort (models/mem/at_target_port.h).
#pragma once
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/at_target_port.h"
#include "models/mem/backing_store.h"
#include "models/mem/socket_table.h"
#include "platform/block.h"
#include "platform/param_table.h"
#include "platform/registry.h"

namespace tessera {

// The values of a memory's parameters, each filled by its one declaration in
// memory_param_table() (memory.cpp).
struct MemoryConfig {
  uint64_t base = 0, size = 0;
  sc_core::sc_time latency;
  double bandwidth = 0;  // bytes per second
  unsigned queue_depth = 0;
  std::string store;
  uint64_t page_size = 0;
};
const ParamTable<MemoryConfig>& memory_param_table();

class Memory : public Block, private AtTargetPort::Server {
 public:
  SC_HAS_PROCESS(Memory);
  explicit Memory(const BlockContext& ctx) : Memory(ctx, memory_param_table().read(ctx.params)) {}
  Memory(const BlockContext& ctx, const MemoryConfig& config);

  tlm_utils::simple_target_socket<Memory> in;

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  std::string summary() const override;

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  BackingStore& store() { return store_; }

 private:
  // TLM interface (registered with the socket).
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  // AtTargetPort::Server.
  void serve(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) override;
  void responding(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) override;
  void occupancy_changing(unsigned from, unsigned to) override;

  // Checks and performs the access on the store; sets the response status
  // (exactly once) and returns the bytes moved (0 on error).
  uint64_t execute(tlm::tlm_generic_payload& trans);
  void record_done(const sc_core::sc_time& start, const sc_core::sc_time& end);

  BackingStore& store_;
  uint64_t base_, size_;
  sc_core::sc_time latency_;
  double bandwidth_;
  AtTargetPort port_;
  SocketTable<tlm::tlm_target_socket<>> targets_;
  sc_core::sc_time channel_free_;    // data channel busy until
  sc_core::sc_time occupancy_since_;
  sc_core::sc_time first_activity_, last_activity_;
  bool active_ = false;
  bool error_logged_ = false;

  Counter &reads_, &writes_, &bytes_read_, &bytes_written_, &errors_, &busy_ps_;
  Scalar& bandwidth_achieved_;
  Histogram &latency_ns_, &occupancy_hist_;
};

BlockType memory_block_type();

}  // namespace tessera
