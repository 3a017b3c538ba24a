// What the host side of the platform (the host runtime, the timing device)
// drives on a GPU: a command processor and the dispatchers it programs. The
// blocks of models/cp implement these interfaces; platform/ knows only them,
// so the core library does not depend on the models library (which depends
// on the core).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace tessera {

class Block;
namespace isa {
struct DispatchContext;
class DecodeCache;
}  // namespace isa

// What a direct launch runs (no command processor). `ctx` (with
// scratch_address unused: the dispatcher gives each workgroup its own region)
// and `program` must outlive the launch.
struct DispatchJob {
  const isa::DispatchContext* ctx = nullptr;
  isa::DecodeCache* program = nullptr;
  bool functional = false;
  uint64_t code_address = 0;  // where instruction fetches go (WorkgroupTask::code_address); 0: link-time addresses
};

// What a finished launch cost, in the dispatcher's clock cycles.
struct LaunchResult {
  uint64_t cycles = 0;          // launch() to the release's acknowledgement
  uint64_t kernel_cycles = 0;   // first workgroup handed out to the last one finished
  uint64_t acquire_cycles = 0;  // of which acquiring caches
  uint64_t release_cycles = 0;  // of which releasing caches
  uint64_t workgroups = 0, waves = 0, wave_instructions = 0;
  uint64_t peak_workgroups = 0;  // most workgroups in flight at once (occupancy over all CUs)
  std::string fault;            // the first wave fault a CU reported, empty if none
  // Through a command processor: its firmware's instructions for this launch
  // and the CP cycles it was not asleep (executing or stalled on accesses).
  uint64_t cp_instructions = 0, cp_busy_cycles = 0;
};

// Everything a dispatcher has handed out and seen finish, over all launches and ranges.
struct DispatcherTotals {
  uint64_t workgroups = 0, waves = 0, wave_instructions = 0, faults = 0, bad_packets = 0, ranges = 0;
};

// A dispatcher ("dispatcher" block, models/cp/dispatcher.h).
class DispatcherControl {
 public:
  virtual ~DispatcherControl() = default;
  virtual Block& block() = 0;
  virtual const Block& block() const = 0;

  // A direct launch at the current simulated time (no command processor).
  virtual void launch(const DispatchJob& job) = 0;
  virtual bool busy() const = 0;
  // Of the last finished direct launch.
  virtual const LaunchResult& result() const = 0;

  // Command-processor mode: ranges run with no timing (functional) or timed.
  virtual void set_functional(bool functional) = 0;
  virtual DispatcherTotals totals() const = 0;
  // The first wave fault of the last range that had one, and of any range
  // that named a bad packet; empty if none.
  virtual const std::string& last_fault() const = 0;
  // When the last range (or launch) started and finished.
  virtual const sc_core::sc_time& last_start() const = 0;
  virtual const sc_core::sc_time& last_end() const = 0;
};

// One buffer a kernel declared (an access mode), as the hint checker compares
// the kernel's accesses with it.
struct DeclaredUse {
  uint64_t base = 0, bytes = 0;
  bool read_only = false;
  uint32_t chiplet_mask = 0;  // 0: every chiplet
  bool partitioned = false;   // each chiplet its share, in proportion to its workgroups
};

// An access a kernel made that its declared uses do not allow: the first one
// of its kind (buffer and what is wrong) in that launch, and how many there were.
struct HintViolation {
  std::string kernel;
  uint64_t buffer_base = 0, buffer_bytes = 0;  // 0, 0: outside every declared buffer
  uint64_t address = 0;
  unsigned chiplet = 0;
  std::string what;
  uint64_t count = 0;
};

// The hint checker (cp_core.check_hints; models/cp/hint_checker.h): watches
// the compute units' global-memory accesses and compares each with the uses
// declared for the dispatch it belongs to.
class HintCheckControl {
 public:
  virtual ~HintCheckControl() = default;
  // Called for every block of the platform: the checker attaches to compute units.
  virtual void watch(Block& block) = 0;
  // The dispatch whose AQL packet is at `packet` declared `uses` (empty: it
  // declared nothing and is not checked); its grid is split over
  // `dispatchers` chiplets as the CP splits it.
  virtual void expect(uint64_t packet, const std::string& kernel, const std::vector<DeclaredUse>& uses,
                      unsigned dispatchers) = 0;
  virtual const std::vector<HintViolation>& violations() const = 0;
};

// A command processor ("cp_core" block, models/cp/cp_core.h): the host side of
// its AQL queues, and what it has done.
class CommandProcessorControl {
 public:
  virtual ~CommandProcessorControl() = default;
  virtual Block& block() = 0;
  virtual const Block& block() const = 0;

  // Dispatchers bound to its dispatcher[] sockets.
  virtual size_t dispatcher_count() const = 0;
  // Host side of the queues, called between simulation runs.
  virtual void configure_queue(unsigned q, uint64_t ring, uint32_t packets, uint64_t descriptor) = 0;
  virtual void ring_doorbell(unsigned q, uint32_t write_index) = 0;
  virtual uint32_t read_index(unsigned q) const = 0;

  virtual bool sleeping() const = 0;
  virtual bool finished() const = 0;
  virtual bool faulted() const = 0;
  virtual const std::string& fault_report() const = 0;
  // No fault and no non-zero exit code.
  virtual bool ok() const = 0;
  virtual std::string summary() const = 0;
  virtual uint64_t instructions() const = 0;
  virtual uint64_t busy_cycles() const = 0;
  // Whether the host serves a policy that elides kernel-boundary
  // synchronisation (the netlist's cp_core.elision): it then sends access
  // modes and fences kernels at Agent scope, with System scope only around its
  // own accesses to device memory; otherwise no access modes, every kernel at
  // System scope.
  virtual bool elision() const = 0;
  // With elision: whether the host sends the access modes (the netlist's
  // cp_core.access_modes); a policy that does not read them (aql_cp_hmg.elf)
  // gets the Agent-scope fences alone.
  virtual bool access_modes() const = 0;
  // Whether the host submits launches ahead and waits only before its own
  // accesses to device memory (the netlist's cp_core.async_launches).
  virtual bool async_launches() const = 0;
  // The hint checker when the netlist's cp_core.check_hints is on; nullptr otherwise.
  virtual HintCheckControl* hint_checker() = 0;
};

}  // namespace tessera
