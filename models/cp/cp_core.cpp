#include "models/cp/cp_core.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include <unicorn/riscv.h>

#include "platform/errors.h"
#include "sw/firmware/include/tessera/cp_regs.h"

namespace tessera {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
  return buf;
}

// A relative firmware path is looked up in $TESSERA_FIRMWARE_DIR when that is
// set (the build tree's sw/firmware), else relative to the working directory.
std::string resolve_firmware_path(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  const char* dir = std::getenv("TESSERA_FIRMWARE_DIR");
  return dir && *dir ? std::string(dir) + "/" + path : path;
}

const char* const kRegNames[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                   "a1",   "a2", "a3",  "a4",  "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                   "s6",   "s7", "s8",  "s9",  "s10", "s11", "t3", "t4", "t5", "t6"};

void check_uc(uc_err err, const std::string& who, const char* what) {
  if (err != UC_ERR_OK) throw UserError(who + ": Unicorn " + what + " failed: " + uc_strerror(err));
}

}  // namespace

CpCore::CpCore(const BlockContext& ctx)
    : Block(ctx),
      sram_size_(ctx.params.size("sram_size")),
      cpi_(static_cast<uint64_t>(ctx.params.integer("cpi"))),
      quantum_(static_cast<uint64_t>(ctx.params.integer("quantum"))),
      watchdog_(static_cast<uint64_t>(ctx.params.integer("watchdog"))),
      instructions_(stats().counter("instructions", "RISC-V instructions executed")),
      cycles_(stats().counter("cycles", "CP cycles spent executing (instructions x cpi)")),
      mmio_reads_(stats().counter("mmio_reads", "loads from the CP register window")),
      mmio_writes_(stats().counter("mmio_writes", "stores to the CP register window")),
      console_bytes_(stats().counter("console_bytes", "bytes written to the console register")) {
  if (sram_size_ % 4096 != 0 || sram_size_ > CP_MMIO_BASE)
    throw UserError(path() + ": sram_size " + hex(sram_size_) + " must be a multiple of 4 KiB and at most " +
                    hex(CP_MMIO_BASE) + " (where the register window starts)");
  const FirmwareImage image = load_firmware_image(resolve_firmware_path(ctx.params.string("firmware")), sram_size_);
  setup_engine(image);
  SC_THREAD(run_thread);
  set_stack_size(1 << 20);      // Unicorn's translator runs on this coroutine stack
}

CpCore::~CpCore() {
  if (uc_) uc_close(uc_);
}

void CpCore::setup_engine(const FirmwareImage& image) {
  check_uc(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), path(), "open (RV32)");
  check_uc(uc_mem_map(uc_, 0, sram_size_, UC_PROT_ALL), path(), "SRAM map");
  check_uc(uc_mmio_map(uc_, CP_MMIO_BASE, CP_MMIO_SIZE, &CpCore::mmio_read, this, &CpCore::mmio_write, this), path(),
           "MMIO map");
  for (const FirmwareSegment& seg : image.segments)
    check_uc(uc_mem_write(uc_, seg.address, seg.bytes.data(), seg.bytes.size()), path(), "firmware load");
  uc_hook hook;
  check_uc(uc_hook_add(uc_, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&CpCore::on_code), this, 1, 0), path(),
           "code hook");
  check_uc(uc_hook_add(uc_, &hook, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&CpCore::on_invalid), this, 1, 0),
           path(), "invalid-access hook");
  check_uc(uc_hook_add(uc_, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&CpCore::on_interrupt), this, 1, 0), path(),
           "trap hook");
  entry_ = image.entry;
  uint64_t pc = entry_;
  check_uc(uc_reg_write(uc_, UC_RISCV_REG_PC, &pc), path(), "PC write");
}

uint64_t CpCore::current_cycle() const { return quantum_start_cycle_ + quantum_insns_ * cpi_; }

void CpCore::run_thread() {
  while (!finished_) {
    quantum_start_cycle_ = static_cast<uint64_t>(sc_core::sc_time_stamp() / clock_period());
    quantum_insns_ = 0;
    uint64_t pc = 0;
    uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
    const uc_err err = uc_emu_start(uc_, pc, ~uint64_t{0}, 0, quantum_);
    instructions_ += quantum_insns_;
    cycles_ += quantum_insns_ * cpi_;
    if (!pending_fault_.empty()) {
      fault(pending_fault_, fault_address_, fault_has_address_);
    } else if (err != UC_ERR_OK) {
      fault(std::string("execution stopped: ") + uc_strerror(err), 0, false);
    }
    if (quantum_insns_) wait(cycles(quantum_insns_ * cpi_));
    if (stop_requested_ && !finished_) finished_ = true;
  }
  finish_run();
}

void CpCore::fault(const std::string& what, uint64_t address, bool has_address) {
  faulted_ = finished_ = true;
  // Unicorn's PC register may already point past the faulting instruction; the
  // code hook's last address is the instruction that faulted.
  uint64_t pc = fault_at_fetch_ ? address : last_pc_;
  if (trap_pc_approximate_) uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  std::ostringstream r;
  r << "firmware fault: " << what << "\n  pc=" << hex(pc);
  if (trap_pc_approximate_) r << " (approximate: at or just after the trapping instruction)";
  if (has_address) r << " address=" << hex(address);
  for (int i = 0; i < 32; ++i) {
    uint64_t v = 0;
    uc_reg_read(uc_, UC_RISCV_REG_X0 + i, &v);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%s  x%-2d %-4s=0x%08llx", i % 4 == 0 ? "\n" : "", i, kRegNames[i],
                  static_cast<unsigned long long>(v & 0xffffffffu));
    r << buf;
  }
  fault_report_ = r.str();
  error(fault_report_);
}

void CpCore::finish_run() {
  if (!console_line_.empty()) {
    std::cout << "[cp] " << console_line_ << std::endl;
    console_line_.clear();
  }
  info(summary().substr(path().size() + 2));  // the log line already names the block
}

std::string CpCore::summary() const {
  std::ostringstream s;
  s << path() << ": " << (faulted_ ? "faulted" : finished_ ? "halted" : "still running") << ", exit code "
    << (faulted_ ? std::string("none") : std::to_string(exit_code_)) << ", " << instructions_.value
    << " instructions, " << cycles_.value << " cycles, " << mmio_reads_.value << " MMIO reads, "
    << mmio_writes_.value << " MMIO writes";
  return s.str();
}

void CpCore::console_byte(uint8_t byte) {
  ++console_bytes_;
  if (byte == '\n') {
    std::cout << "[cp] " << console_line_ << std::endl;
    console_line_.clear();
  } else {
    console_line_.push_back(static_cast<char>(byte));
  }
}

// ---- Unicorn callbacks ------------------------------------------------------

uint64_t CpCore::mmio_read(uc_engine* uc, uint64_t offset, unsigned size, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->mmio_reads_;
  cp->insns_since_mmio_ = 0;
  switch (offset) {
    case CP_REG_ID: return CP_ID_VALUE;
    case CP_REG_TIMER_LO: {
      const uint64_t now = cp->current_cycle();
      cp->timer_hi_latch_ = static_cast<uint32_t>(now >> 32);
      return static_cast<uint32_t>(now);
    }
    case CP_REG_TIMER_HI: return cp->timer_hi_latch_;
    case CP_REG_SCRATCH: return cp->scratch_;
    default: break;
  }
  cp->pending_fault_ = "read of " + std::to_string(size) + " bytes at CP register offset " + hex(offset) +
                       ", which is no readable register (see cp_regs.h)";
  cp->fault_address_ = CP_MMIO_BASE + offset;
  cp->fault_has_address_ = true;
  uc_emu_stop(uc);
  return 0;
}

void CpCore::mmio_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->mmio_writes_;
  cp->insns_since_mmio_ = 0;
  switch (offset) {
    case CP_REG_CONSOLE: cp->console_byte(static_cast<uint8_t>(value)); return;
    case CP_REG_SCRATCH: cp->scratch_ = static_cast<uint32_t>(value); return;
    case CP_REG_HALT:
      cp->exit_code_ = static_cast<uint32_t>(value);
      cp->stop_requested_ = true;
      uc_emu_stop(uc);
      return;
    default: break;
  }
  cp->pending_fault_ = "write of " + std::to_string(size) + " bytes at CP register offset " + hex(offset) +
                       ", which is no writable register (see cp_regs.h)";
  cp->fault_address_ = CP_MMIO_BASE + offset;
  cp->fault_has_address_ = true;
  uc_emu_stop(uc);
}

void CpCore::on_code(uc_engine* uc, uint64_t address, uint32_t, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  cp->last_pc_ = address;
  ++cp->quantum_insns_;
  if (++cp->insns_since_mmio_ > cp->watchdog_ && cp->pending_fault_.empty()) {
    cp->pending_fault_ = "watchdog: " + std::to_string(cp->watchdog_) + " instructions without an MMIO access";
    uc_emu_stop(uc);
  }
}

bool CpCore::on_invalid(uc_engine* uc, uc_mem_type type, uint64_t address, int size, int64_t, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  const char* kind = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT ? "instruction fetch"
                     : type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT ? "write"
                                                                                   : "read";
  cp->pending_fault_ = std::string("unmapped ") + kind + " of " + std::to_string(size) + " bytes at " + hex(address) +
                       " (mapped: SRAM [0, " + hex(cp->sram_size_) + "), registers at " + hex(CP_MMIO_BASE) + ")";
  cp->fault_address_ = address;
  cp->fault_has_address_ = true;
  cp->fault_at_fetch_ = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT;
  uc_emu_stop(uc);
  return false;
}

void CpCore::on_interrupt(uc_engine* uc, uint32_t cause, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  // The code hook does not see an instruction that fails to translate, and
  // Unicorn's PC may already be past it: the report marks that PC approximate.
  cp->trap_pc_approximate_ = true;
  if (cp->pending_fault_.empty()) {
    cp->pending_fault_ = "trap (RISC-V exception cause " + std::to_string(cause) +
                         (cause == 2 ? ": illegal instruction" : cause == 3 ? ": breakpoint" : cause >= 8 && cause <= 11 ? ": ecall" : "") +
                         "); the CP has no trap handler";
  }
  uc_emu_stop(uc);
}

// ---- registration -------------------------------------------------------------

BlockType cp_core_block_type() {
  BlockType t;
  t.name = "cp_core";
  t.doc = "Command processor core: RV32IMAC firmware (ELF from sw/firmware) executed by Unicorn, with private SRAM "
          "at 0 and the registers of sw/firmware/include/tessera/cp_regs.h; time = instructions x cpi cycles";
  t.params = {
      string_param("firmware", "", "path of the firmware ELF; a relative path is looked up in $TESSERA_FIRMWARE_DIR "
                                   "when set, else in the working directory"),
      size_param("sram_size", "64 KiB", "private SRAM at address 0 (multiple of 4 KiB)", 4096.0,
                 static_cast<double>(CP_MMIO_BASE)),
      int_param("cpi", 1, "CP clock cycles per instruction", 1.0, 1000.0, "cycles"),
      int_param("quantum", 1000, "instructions run before the core yields to the rest of the platform", 1.0, 1e9,
                "instructions"),
      int_param("watchdog", 10000000, "instructions without an MMIO access before the firmware is declared hung", 1.0,
                1e15, "instructions"),
  };
  t.params.front().default_value = nullptr;  // the firmware path is required
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<CpCore>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(cp_core_block_type);

}  // namespace tessera
