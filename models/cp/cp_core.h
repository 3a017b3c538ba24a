// "cp_core": the command processor's RV32IMAC core, executed by Unicorn, running
// a firmware ELF from sw/firmware. Its private SRAM sits at address 0 and its
// registers (sw/firmware/include/tessera/cp_regs.h) at CP_MMIO_BASE.
//
// Time: an SC_METHOD runs the core for `quantum` instructions at a time, then
// lets instructions x cpi cycles of the block's clock (plus stalls) pass before
// the next quantum, so firmware time is what the firmware executes. MMIO callbacks are synchronous and never wait; the halt
// register ends the quantum at once.
//
// The run ends when the firmware writes the halt register (exit code) or faults:
// an unmapped access, an illegal instruction or trap, or `watchdog` instructions
// without an MMIO access. A fault prints a report (PC, registers, address) and
// makes ok() false; so does a non-zero exit code. Firmware that serves queues
// never halts: it sleeps (CP_REG_SLEEP) until an interrupt line is pending.
//
// Around the core (cp_regs.h has the map):
//   dispatcher[d]  registers of dispatcher d: accesses in its register block
//                  become b_transport calls carrying the register offset; the
//                  returned delay is time the core stalls;
//   irq[d]         a write from dispatcher d sets CP_IRQ_DISPATCHER(d) and wakes a
//                  sleeping core;
//   queues         the host (the runtime, between simulation runs) configures
//                  rings and rings doorbells through configure_queue() and
//                  ring_doorbell(), which raise CP_IRQ_DOORBELL;
//   device memory  a 16 MiB window (CP_DEVMEM_*) onto the platform's device
//                  memory, each access costing `devmem_latency` cycles; the
//                  copy engine (CP_REG_COPY_*) moves a block of it into SRAM
//                  for one latency plus a cycle per further 64-byte line;
//   host notify    a write to CP_REG_HOST_NOTIFY pauses the simulation once
//                  the core has caught up with its local time, so the host's
//                  wait on a completion signal looks again.
// MMIO and device-memory accesses are logged when `trace_mmio` is on.
//
// With `gdb_port` set, the core waits for GDB on 127.0.0.1:gdb_port before its
// first instruction (models/cp/gdb_server.h; docs/FIRMWARE.md, "Debugging with
// GDB"). While GDB is attached the code hook stops Unicorn before an
// instruction with a breakpoint, a step runs one instruction, and Ctrl-C is
// looked for between quanta; quanta and firmware time stay what they are
// without GDB.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <unicorn/unicorn.h>

#include "models/cp/firmware_image.h"
#include "models/cp/gdb_server.h"
#include "models/cp/hint_checker.h"
#include "common/device_memory.h"
#include "platform/block.h"
#include "platform/gpu_control.h"
#include "platform/param_table.h"
#include "platform/registry.h"

namespace tessera {

// The values of a cp_core's parameters, each filled by its one declaration in
// cp_core_param_table() (cp_core.cpp).
struct CpCoreConfig {
  std::string firmware;
  uint64_t sram_size = 0, cpi = 0, quantum = 0, watchdog = 0, devmem_latency = 0;
  uint32_t debug_flags = 0;
  bool trace_mmio = false;
  bool elision = false;
  bool access_modes = true;  // with elision: the workloads' access modes are sent
  bool async_launches = false;
  bool check_hints = false;
  uint16_t gdb_port = 0;
};
const ParamTable<CpCoreConfig>& cp_core_param_table();

class CpCore : public Block, public CommandProcessorControl {
 public:
  SC_HAS_PROCESS(CpCore);
  explicit CpCore(const BlockContext& ctx) : CpCore(ctx, cp_core_param_table().read(ctx.params)) {}
  CpCore(const BlockContext& ctx, const CpCoreConfig& config);
  ~CpCore() override;
  CpCore(const CpCore&) = delete;
  CpCore& operator=(const CpCore&) = delete;

  using InitiatorSocket = tlm_utils::simple_initiator_socket_tagged<CpCore>;
  using TargetSocket = tlm_utils::simple_target_socket_tagged<CpCore>;
  std::vector<std::unique_ptr<InitiatorSocket>> dispatcher;  // to each dispatcher's regs socket
  std::vector<std::unique_ptr<TargetSocket>> irq;            // from each dispatcher's irq socket

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;

  // No fault and no non-zero exit code (firmware that serves queues never halts).
  bool ok() const override { return !faulted_ && exit_code_ == 0; }
  std::string summary() const override;

  // CommandProcessorControl: the host side, called between simulation runs.
  Block& block() override { return *this; }
  const Block& block() const override { return *this; }
  size_t dispatcher_count() const override { return dispatcher.size(); }
  void configure_queue(unsigned q, uint64_t ring, uint32_t packets, uint64_t descriptor) override;
  void ring_doorbell(unsigned q, uint32_t write_index) override;
  uint32_t read_index(unsigned q) const override { return queues_.at(q).read; }

  bool sleeping() const override { return sleeping_; }
  bool finished() const override { return finished_; }
  uint64_t instructions() const override { return instructions_.value; }
  uint64_t busy_cycles() const override { return cycles_.value + stall_cycles_stat_.value; }
  bool elision() const override { return elision_; }
  bool access_modes() const override { return access_modes_; }
  bool async_launches() const override { return async_launches_; }
  HintCheckControl* hint_checker() override { return hint_checker_.get(); }
  bool halted() const { return finished_ && !faulted_; }
  bool faulted() const override { return faulted_; }
  uint32_t exit_code() const { return exit_code_; }
  const std::string& fault_report() const override { return fault_report_; }

 private:
  void step();
  uint64_t run_quantum();  // cycles it took
  bool after_quantum();
  uc_err run_debugged();                   // the quantum under GDB
  uc_err run_watched(uint64_t count);      // Unicorn with the code hook looking for breakpoints
  bool gdb_breakpoint_before(uint64_t address);  // the code hook's test: stop before this instruction
  bool gdb_attached() const { return gdb_ && gdb_->connected(); }
  void attach_gdb();
  bool serve_gdb(const std::string& stop_reply, bool announce = true);  // false: GDB killed the firmware
  void gdb_after_run();                           // the run ended: tell GDB how
  class GdbTarget;  // the core's registers and SRAM as GDB sees them
  void setup_engine(const FirmwareImage& image);
  uint64_t current_cycle() const;  // at the instruction being executed now
  void fault(const std::string& what, uint64_t address, bool has_address);
  void finish_run();
  void resume_after_mmio_stop();
  void console_byte(uint8_t byte);
  bool read_register(uint32_t offset, uint32_t& value);
  bool write_register(uint32_t offset, uint32_t value);
  bool queue_register(uint32_t offset, uint32_t* read, const uint32_t* write);
  bool dispatcher_access(uint32_t offset, uint32_t& value, bool write);
  void register_fault(const char* kind, uint64_t offset, unsigned size, const std::string& why);
  void irq_b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  sc_core::sc_time local_offset() const;  // how far the core's time is ahead of SystemC's
  void trace_access(const char* what, uint64_t address, uint64_t value) const;  // logged when trace_mmio is on
  void trace_awake(Tracer& t);
  void trace_doorbell(Tracer& t, unsigned q, uint32_t write_index);
  void trace_packets_done(Tracer& t, unsigned q);

  // Unicorn callbacks (user_data is the CpCore).
  static uint64_t mmio_read(uc_engine* uc, uint64_t offset, unsigned size, void* self);
  static void mmio_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value, void* self);
  static uint64_t devmem_read(uc_engine* uc, uint64_t offset, unsigned size, void* self);
  static void devmem_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value, void* self);
  static void on_code(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static bool on_invalid(uc_engine* uc, uc_mem_type type, uint64_t address, int size, int64_t value, void* self);
  static void on_interrupt(uc_engine* uc, uint32_t cause, void* self);

  uc_engine* uc_ = nullptr;
  uint64_t sram_size_, cpi_, quantum_, watchdog_, devmem_latency_;
  uint32_t debug_flags_;
  bool l2_homes_;  // CP_REG_L2_HOMES: the platform's L2Homes (platform/l2_homes.h)
  bool trace_mmio_;
  bool elision_;
  bool access_modes_;
  bool async_launches_;
  std::unique_ptr<HintChecker> hint_checker_;  // when check_hints is on
  isa::DeviceMemory& memory_;

  std::unique_ptr<GdbTarget> gdb_target_;
  std::unique_ptr<GdbServer> gdb_;  // when gdb_port is set
  bool gdb_waiting_ = false;        // not connected yet: the first activation waits for GDB
  bool gdb_stepping_ = false;       // GDB asked for one instruction
  bool gdb_step_done_ = false;      // that instruction ran: stop before the next
  bool gdb_resuming_ = false;       // the instruction at the PC runs even if a breakpoint is on it
  bool gdb_watching_ = false;       // the code hook looks for breakpoints (only inside run_watched)
  bool gdb_at_breakpoint_ = false;  // the code hook stopped Unicorn before a breakpoint
  int fault_signal_ = 5;            // POSIX signal GDB is told a fault was (SIGTRAP by default)

  struct Queue {
    uint64_t ring = 0, descriptor = 0;
    uint32_t size = 0, doorbell = 0, read = 0;
  };
  std::array<Queue, 8> queues_{};
  uint64_t devmem_window_ = 0;
  uint64_t copy_src_ = 0;  // the copy engine's registers (CP_REG_COPY_*)
  uint32_t copy_dst_ = 0;
  uint32_t irq_pending_ = 0;
  sc_core::sc_event irq_event_;
  bool sleep_requested_ = false, sleeping_ = false, notify_host_ = false;
  bool quantum_done_ = false;  // a quantum ran; its time is passing
  sc_core::sc_time sleep_start_;
  // Tracing: since when the firmware has been awake, and the packets rung
  // in but not yet done (queue, index, when rung, AQL type).
  sc_core::sc_time awake_since_;
  struct TracedPacket {
    unsigned queue;
    uint32_t index;
    uint64_t start;
    unsigned type;
  };
  std::vector<TracedPacket> traced_packets_;
  uint64_t stall_cycles_ = 0;  // in the current quantum: MMIO and device-memory latency
  uint32_t entry_ = 0;

  uint64_t quantum_start_cycle_ = 0;  // CP cycle at the start of the current quantum
  uint64_t quantum_insns_ = 0;        // instructions started in the current quantum
  uint64_t insns_since_mmio_ = 0;
  // Register reads and host notifications since the last other register
  // write, device-memory access or sleep: a firmware polling forever.
  uint64_t polls_in_a_row_ = 0;
  uint32_t timer_hi_latch_ = 0;
  uint32_t scratch_ = 0;
  std::string console_line_;

  bool finished_ = false, faulted_ = false, stop_requested_ = false;
  uint32_t exit_code_ = 0;
  std::string fault_report_;
  std::string pending_fault_;          // set by a callback, reported after uc_emu_start returns
  uint64_t fault_address_ = 0;
  uint64_t last_pc_ = 0;               // address of the instruction started last
  uint32_t last_size_ = 0;             // and its length in bytes
  bool mmio_stop_ = false;             // a register write ended the quantum inside its store
  bool trap_pc_approximate_ = false;  // a trap: only Unicorn's PC register is known
  bool fault_at_fetch_ = false;        // the fault address is the PC (nothing was fetched there)
  bool fault_has_address_ = false;

  Counter &instructions_, &cycles_, &stall_cycles_stat_, &sleep_cycles_, &mmio_reads_, &mmio_writes_,
      &devmem_reads_, &devmem_writes_, &devmem_copies_, &console_bytes_, &doorbells_, &interrupts_, &host_notifications_,
      &kernel_launches_, &longest_poll_;
  void count_poll(uint64_t offset);
  void end_poll() { polls_in_a_row_ = 0; }
  bool copy_block(uint32_t bytes);  // CP_REG_COPY_BYTES: false for a copy the registers do not allow
};

BlockType cp_core_block_type();

}  // namespace tessera
