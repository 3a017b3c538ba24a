// "cp_core": the command processor's RV32IMAC core, executed by Unicorn, running
// a firmware ELF from sw/firmware. Its private SRAM sits at address 0 and its
// registers (sw/firmware/include/tessera/cp_regs.h) at CP_MMIO_BASE.
//
// Time: an SC_THREAD runs the core for `quantum` instructions at a time, then
// waits instructions x cpi cycles of the block's clock, so firmware time is what
// the firmware executes. MMIO callbacks are synchronous and never wait; the halt
// register ends the quantum at once.
//
// The run ends when the firmware writes the halt register (exit code) or faults:
// an unmapped access, an illegal instruction or trap, or `watchdog` instructions
// without an MMIO access. A fault prints a report (PC, registers, address) and
// makes ok() false; so does a non-zero exit code.
#pragma once
#include <cstdint>
#include <string>

#include <unicorn/unicorn.h>

#include "models/cp/firmware_image.h"
#include "platform/block.h"
#include "platform/registry.h"

namespace tessera {

class CpCore : public Block {
 public:
  SC_HAS_PROCESS(CpCore);
  explicit CpCore(const BlockContext& ctx);
  ~CpCore() override;
  CpCore(const CpCore&) = delete;
  CpCore& operator=(const CpCore&) = delete;

  bool ok() const override { return finished_ && !faulted_ && exit_code_ == 0; }
  std::string summary() const override;

  bool halted() const { return finished_ && !faulted_; }
  bool faulted() const { return faulted_; }
  uint32_t exit_code() const { return exit_code_; }
  const std::string& fault_report() const { return fault_report_; }

 private:
  void run_thread();
  void setup_engine(const FirmwareImage& image);
  uint64_t current_cycle() const;  // at the instruction being executed now
  void fault(const std::string& what, uint64_t address, bool has_address);
  void finish_run();
  void console_byte(uint8_t byte);

  // Unicorn callbacks (user_data is the CpCore).
  static uint64_t mmio_read(uc_engine* uc, uint64_t offset, unsigned size, void* self);
  static void mmio_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value, void* self);
  static void on_code(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static bool on_invalid(uc_engine* uc, uc_mem_type type, uint64_t address, int size, int64_t value, void* self);
  static void on_interrupt(uc_engine* uc, uint32_t cause, void* self);

  uc_engine* uc_ = nullptr;
  uint64_t sram_size_, cpi_, quantum_, watchdog_;
  uint32_t entry_ = 0;

  uint64_t quantum_start_cycle_ = 0;  // CP cycle at the start of the current quantum
  uint64_t quantum_insns_ = 0;        // instructions started in the current quantum
  uint64_t insns_since_mmio_ = 0;
  uint32_t timer_hi_latch_ = 0;
  uint32_t scratch_ = 0;
  std::string console_line_;

  bool finished_ = false, faulted_ = false, stop_requested_ = false;
  uint32_t exit_code_ = 0;
  std::string fault_report_;
  std::string pending_fault_;          // set by a callback, reported after uc_emu_start returns
  uint64_t fault_address_ = 0;
  uint64_t last_pc_ = 0;               // address of the instruction started last
  bool trap_pc_approximate_ = false;  // a trap: only Unicorn's PC register is known
  bool fault_at_fetch_ = false;        // the fault address is the PC (nothing was fetched there)
  bool fault_has_address_ = false;

  Counter &instructions_, &cycles_, &mmio_reads_, &mmio_writes_, &console_bytes_;
};

BlockType cp_core_block_type();

}  // namespace tessera
