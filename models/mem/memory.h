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
// The AT machinery is the pattern for every memory-side target (processes are
// Activities of platform/scheduler.h, which keep SystemC's event rules):
//   nb_transport_fw only queues into PEQs;
//   accept_method  (PEQ event, space freed) accepts requests while there is room;
//   respond_method (one event, next_trigger for the next known time) sends
//                  responses in order, one in flight at a time;
//   end_resp_method (PEQ event) retires responses and frees space.
// No process runs while nothing is queued.
#pragma once
#include <deque>

#include <tlm_utils/simple_target_socket.h>

#include "models/mem/backing_store.h"
#include "models/mem/timed_queue.h"
#include "platform/block.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

class Memory : public Block {
 public:
  SC_HAS_PROCESS(Memory);
  explicit Memory(const BlockContext& ctx);

  tlm_utils::simple_target_socket<Memory> in;

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  std::string summary() const override;

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  BackingStore& store() { return store_; }

 private:
  struct Arrived {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
  };
  struct InService {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
    sc_core::sc_time ready;  // earliest time its BEGIN_RESP may be sent
  };

  // TLM interface (registered with the socket).
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  // AT processes.
  void accept_method();
  void respond_method();
  void end_resp_method();

  // Checks and performs the access on the store; sets the response status
  // (exactly once) and returns the bytes moved (0 on error).
  uint64_t execute(tlm::tlm_generic_payload& trans);
  void accept(const Arrived& a);
  void retire(tlm::tlm_generic_payload& trans);
  void set_occupancy(unsigned n);
  void record_done(const sc_core::sc_time& start, const sc_core::sc_time& end);

  BackingStore& store_;
  uint64_t base_, size_;
  sc_core::sc_time latency_;
  double bandwidth_;
  unsigned queue_depth_;

  Activity accept_{this, &Memory::accept_method};
  Activity respond_{this, &Memory::respond_method};
  Activity end_resp_{this, &Memory::end_resp_method};
  TimedQueue<tlm::tlm_generic_payload*> req_peq_;
  TimedQueue<tlm::tlm_generic_payload*> end_resp_peq_;
  Trigger space_event_{accept_};    // a request retired: accept_method may accept more
  Trigger respond_event_{respond_};  // a response may be sendable now
  std::deque<Arrived> waiting_;      // arrived, END_REQ withheld
  std::deque<InService> in_service_; // accepted, BEGIN_RESP not yet sent
  tlm::tlm_generic_payload* resp_in_flight_ = nullptr;  // BEGIN_RESP sent, END_RESP awaited
  sc_core::sc_time resp_free_at_;    // response channel reusable from then (annotated END_RESP)
  sc_core::sc_time channel_free_;    // data channel busy until
  sc_core::sc_time last_ready_;      // keeps responses in order
  unsigned occupancy_ = 0;           // accepted and not retired
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
