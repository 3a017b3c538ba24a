#include "models/cp/cp_core.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <unicorn/riscv.h>

#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/l2_homes.h"
#include "platform/limits.h"
#include "platform/trace.h"
#include "sw/firmware/include/tessera/cp_regs.h"

namespace tessera {

namespace {

// A 32-bit address as the firmware sees it: "0x00001000".
std::string hex_word(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
  return buf;
}

// A relative firmware path is looked up in $TESSERA_FIRMWARE_DIR when that is
// set, else in the working directory, else in this build's firmware directory.
std::string resolve_firmware_path(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  const char* dir = std::getenv("TESSERA_FIRMWARE_DIR");
  if (dir && *dir) return std::string(dir) + "/" + path;
  if (std::filesystem::exists(path)) return path;
  const std::string built = std::string(TESSERA_DEFAULT_FIRMWARE_DIR) + "/" + path;
  return std::filesystem::exists(built) ? built : path;
}

const char* const kRegNames[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                   "a1",   "a2", "a3",  "a4",  "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                   "s6",   "s7", "s8",  "s9",  "s10", "s11", "t3", "t4", "t5", "t6"};

void check_uc(uc_err err, const std::string& who, const char* what) {
  if (err != UC_ERR_OK) throw UserError(who + ": Unicorn " + what + " failed: " + uc_strerror(err));
}

std::string two_hex(unsigned v) {
  char buf[4];
  std::snprintf(buf, sizeof buf, "%02x", v & 0xff);
  return buf;
}

}  // namespace

// The core's registers and SRAM for GDB. The register and device-memory
// windows are refused: reading a register has side effects (an interrupt
// acknowledged, a timer latched) that a debugger must not cause.
class CpCore::GdbTarget : public GdbServer::Target {
 public:
  explicit GdbTarget(CpCore& cp) : cp_(cp) {}
  uint32_t read_register(int n) override {
    uint64_t v = 0;
    uc_reg_read(cp_.uc_, n < 32 ? UC_RISCV_REG_X0 + n : UC_RISCV_REG_PC, &v);
    return static_cast<uint32_t>(v);
  }
  void write_register(int n, uint32_t value) override {
    uint64_t v = value;
    if (n > 0) uc_reg_write(cp_.uc_, n < 32 ? UC_RISCV_REG_X0 + n : UC_RISCV_REG_PC, &v);
  }
  bool read_memory(uint32_t address, uint8_t* out, size_t length) override {
    return in_sram(address, length) && uc_mem_read(cp_.uc_, address, out, length) == UC_ERR_OK;
  }
  bool write_memory(uint32_t address, const uint8_t* in, size_t length) override {
    return in_sram(address, length) && uc_mem_write(cp_.uc_, address, in, length) == UC_ERR_OK;
  }

 private:
  bool in_sram(uint64_t address, size_t length) const { return address + length <= cp_.sram_size_; }
  CpCore& cp_;
};

CpCore::CpCore(const BlockContext& ctx, const CpCoreConfig& c)
    : Block(ctx),
      sram_size_(c.sram_size),
      cpi_(c.cpi),
      quantum_(c.quantum),
      watchdog_(c.watchdog),
      devmem_latency_(c.devmem_latency),
      debug_flags_(c.debug_flags),
      l2_homes_(shared().get<L2Homes>(kL2HomesName).serve_other_chiplets),
      trace_mmio_(c.trace_mmio),
      elision_(c.elision),
      access_modes_(c.access_modes),
      async_launches_(c.async_launches),
      hint_checker_(c.check_hints ? std::make_unique<HintChecker>() : nullptr),
      memory_(shared().get<isa::DeviceMemory>("device")),
      instructions_(stats().counter("instructions", "RISC-V instructions executed")),
      cycles_(stats().counter("cycles", "CP cycles spent executing (instructions x cpi)")),
      stall_cycles_stat_(stats().counter("stall_cycles", "CP cycles stalled on register and device-memory accesses")),
      sleep_cycles_(stats().counter("sleep_cycles", "CP cycles asleep waiting for an interrupt")),
      mmio_reads_(stats().counter("mmio_reads", "loads from the CP register window")),
      mmio_writes_(stats().counter("mmio_writes", "stores to the CP register window")),
      devmem_reads_(stats().counter("devmem_reads", "loads through the device-memory window")),
      devmem_writes_(stats().counter("devmem_writes", "stores through the device-memory window")),
      devmem_copies_(stats().counter("devmem_copies", "blocks copied from device memory by the copy engine")),
      console_bytes_(stats().counter("console_bytes", "bytes written to the console register")),
      doorbells_(stats().counter("doorbells", "doorbell writes from the host")),
      interrupts_(stats().counter("interrupts", "interrupts raised by dispatchers")),
      host_notifications_(stats().counter("host_notifications", "completion notifications to the host")),
      kernel_launches_(stats().counter("kernel_launches", "kernel launches, as the firmware counts them "
                                                          "(CP_REG_LAUNCHES)")),
      longest_poll_(stats().counter("longest_poll", "most register reads and host notifications in a row with no "
                                                    "other register write, device-memory access or sleep")) {
  const int dispatchers = ctx.socket_count("dispatcher");
  if (dispatchers > static_cast<int>(CP_MAX_DISPATCHERS))
    throw UserError(path() + ": " + std::to_string(dispatchers) + " dispatchers bound; the register map has room for " +
                    std::to_string(CP_MAX_DISPATCHERS));
  for (int d = 0; d < dispatchers; ++d)
    dispatcher.push_back(std::make_unique<InitiatorSocket>(("dispatcher_" + std::to_string(d)).c_str()));
  for (int d = 0; d < ctx.socket_count("irq"); ++d) {
    irq.push_back(std::make_unique<TargetSocket>(("irq_" + std::to_string(d)).c_str()));
    irq.back()->register_b_transport(this, &CpCore::irq_b_transport, d);
  }
  if (sram_size_ % 4096 != 0 || sram_size_ > CP_MMIO_BASE)
    throw UserError(path() + ": sram_size " + hex_word(sram_size_) + " must be a multiple of 4 KiB and at most " +
                    hex_word(CP_MMIO_BASE) + " (where the register window starts)");
  const FirmwareImage image = load_firmware_image(resolve_firmware_path(c.firmware), sram_size_);
  setup_engine(image);
  if (const uint16_t port = c.gdb_port) {
    gdb_target_ = std::make_unique<GdbTarget>(*this);
    gdb_ = std::make_unique<GdbServer>(port, *gdb_target_, path());
    gdb_waiting_ = true;
  }
  SC_METHOD(step);
}

CpCore::~CpCore() {
  if (uc_) uc_close(uc_);
}

void CpCore::setup_engine(const FirmwareImage& image) {
  check_uc(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), path(), "open (RV32)");
  check_uc(uc_mem_map(uc_, 0, sram_size_, UC_PROT_ALL), path(), "SRAM map");
  check_uc(uc_mmio_map(uc_, CP_MMIO_BASE, CP_MMIO_SIZE, &CpCore::mmio_read, this, &CpCore::mmio_write, this), path(),
           "MMIO map");
  check_uc(uc_mmio_map(uc_, CP_DEVMEM_BASE, CP_DEVMEM_SIZE, &CpCore::devmem_read, this, &CpCore::devmem_write, this),
           path(), "device-memory window map");
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

tlm::tlm_initiator_socket<>* CpCore::initiator_socket(const std::string& name, int index) {
  return name == "dispatcher" && index >= 0 && index < static_cast<int>(dispatcher.size()) ? dispatcher[index].get()
                                                                                           : nullptr;
}

tlm::tlm_target_socket<>* CpCore::target_socket(const std::string& name, int index) {
  return name == "irq" && index >= 0 && index < static_cast<int>(irq.size()) ? irq[index].get() : nullptr;
}

uint64_t CpCore::current_cycle() const { return quantum_start_cycle_ + quantum_insns_ * cpi_ + stall_cycles_; }

sc_core::sc_time CpCore::local_offset() const {
  const sc_core::sc_time local = cycles(current_cycle());
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return local > now ? local - now : sc_core::SC_ZERO_TIME;
}

void CpCore::configure_queue(unsigned q, uint64_t ring, uint32_t packets, uint64_t descriptor) {
  if (q >= queues_.size()) throw UserError(path() + ": queue " + std::to_string(q) + " does not exist");
  queues_[q] = Queue{ring, descriptor, packets, 0, 0};
}

void CpCore::ring_doorbell(unsigned q, uint32_t write_index) {
  if (q >= queues_.size() || !queues_[q].size)
    throw UserError(path() + ": doorbell of queue " + std::to_string(q) + ", which is not configured");
  if (Tracer* t = tracer(TraceKind::Cp)) trace_doorbell(*t, q, write_index);
  queues_[q].doorbell = write_index;
  ++doorbells_;
  irq_pending_ |= CP_IRQ_DOORBELL;
  irq_event_.notify(sc_core::SC_ZERO_TIME);
}

// ---- trace (platform/trace.h) ----------------------------------------------------

// The firmware ran (or stalled on an access) from awake_since_ until now.
void CpCore::trace_awake(Tracer& t) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (now > awake_since_)
    t.outline(t.track(path(), "firmware"), t.text("awake"), awake_since_.value(), now.value());
  awake_since_ = now;
}

// Packets [doorbell, write_index) became visible to the firmware now; their
// type is read from the ring, where the host has written them.
void CpCore::trace_doorbell(Tracer&, unsigned q, uint32_t write_index) {
  const Queue& queue = queues_[q];
  for (uint32_t i = queue.doorbell; int32_t(write_index - i) > 0; ++i) {
    uint16_t header = AQL_TYPE_INVALID;
    try {
      memory_.read(&header, queue.ring + uint64_t(i % queue.size) * AQL_PACKET_BYTES, sizeof header);
    } catch (const UserError&) {
    }
    traced_packets_.push_back(TracedPacket{q, i, sc_core::sc_time_stamp().value(), AQL_HEADER_TYPE(header)});
  }
}

// The firmware moved queue q's read index: the packets before it are done,
// at the core's own time.
void CpCore::trace_packets_done(Tracer& t, unsigned q) {
  const uint64_t end = (sc_core::sc_time_stamp() + local_offset()).value();
  const uint32_t read = queues_[q].read;
  auto done = [&](const TracedPacket& p) { return p.queue == q && int32_t(read - p.index) > 0; };
  for (const TracedPacket& p : traced_packets_) {
    if (!done(p)) continue;
    const char* kind = p.type == AQL_TYPE_KERNEL_DISPATCH ? "kernel dispatch"
                       : p.type == AQL_TYPE_BARRIER_AND   ? "barrier-and"
                       : p.type == AQL_TYPE_VENDOR_SPECIFIC ? "vendor-specific"
                                                            : "packet";
    t.outline(t.track(path(), "queue " + std::to_string(q)), t.text(kind), p.start, end,
              {{t.text("packet"), double(p.index)}});
  }
  traced_packets_.erase(std::remove_if(traced_packets_.begin(), traced_packets_.end(), done), traced_packets_.end());
}

void CpCore::irq_b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  ++interrupts_;
  irq_pending_ |= CP_IRQ_DISPATCHER(id);
  irq_event_.notify(delay);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// The core is an SC_METHOD (no coroutine stack: Unicorn's translator and any
// exception run on the simulator's own stack). Each activation either waits out
// the time of the last quantum, or sleeps until an interrupt, or runs the next
// quantum; next_trigger() says when to come back, and a finished core has none.
void CpCore::step() {
  // A run with no scheduled block (a CP alone) stops for an interrupt here.
  if (interrupt_requested()) return stop_simulation();
  if (gdb_waiting_) {
    attach_gdb();
    if (finished_) return finish_run();  // killed before its first instruction
  }
  if (sleeping_) {
    if (!irq_pending_) return sc_core::next_trigger(irq_event_);
    sleeping_ = false;
    sleep_cycles_ += static_cast<uint64_t>((sc_core::sc_time_stamp() - sleep_start_) / clock_period());
    awake_since_ = sc_core::sc_time_stamp();
  } else if (quantum_done_) {
    quantum_done_ = false;
    if (!after_quantum()) return;
  }
  const uint64_t spent = run_quantum();
  quantum_done_ = true;
  if (spent) return sc_core::next_trigger(cycles(spent));
  step();  // nothing to wait for: what follows the quantum happens now
}

uint64_t CpCore::run_quantum() {
  quantum_start_cycle_ = static_cast<uint64_t>(sc_core::sc_time_stamp() / clock_period());
  quantum_insns_ = 0;
  stall_cycles_ = 0;
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  const uc_err err = gdb_attached() ? run_debugged() : uc_emu_start(uc_, pc, ~uint64_t{0}, 0, quantum_);
  if (mmio_stop_) resume_after_mmio_stop();
  instructions_ += quantum_insns_;
  cycles_ += quantum_insns_ * cpi_;
  if (!pending_fault_.empty()) {
    fault(pending_fault_, fault_address_, fault_has_address_);
  } else if (err != UC_ERR_OK) {
    fault(std::string("execution stopped: ") + uc_strerror(err), 0, false);
  }
  stall_cycles_stat_ += stall_cycles_;
  return quantum_insns_ * cpi_ + stall_cycles_;
}

// What the last quantum asked for, once its time has passed. False when the
// run is over or the core went to sleep (the trigger is then set).
bool CpCore::after_quantum() {
  if (stop_requested_) finished_ = true;
  if (finished_) {
    gdb_after_run();
    finish_run();
    return false;
  }
  if (notify_host_) {
    notify_host_ = false;
    ++host_notifications_;
    sc_core::sc_pause();  // the host's wait on a signal looks again
  }
  if (sleep_requested_) {
    sleep_requested_ = false;
    if (!irq_pending_) {  // an interrupt already pending: no time passes asleep
      sleeping_ = true;
      sleep_start_ = sc_core::sc_time_stamp();
      if (Tracer* t = tracer(TraceKind::Cp)) trace_awake(*t);
      sc_core::next_trigger(irq_event_);
      return false;
    }
  }
  return true;
}

void CpCore::attach_gdb() {
  gdb_waiting_ = false;
  const std::string where = "127.0.0.1:" + std::to_string(gdb_->port());
  const std::string line =
      "waiting for GDB on " + where + " (gdb-multiarch FIRMWARE.elf -ex 'target remote " + where + "')";
  info(line);
  std::cout.flush();  // the user (or a script) waits for this line before starting GDB
  // Also on stderr, which is not buffered and stays on the terminal when stdout
  // goes to a file: the simulation does nothing until GDB attaches.
  std::cerr << path() << ": " << line << std::endl;
  gdb_->accept_client();
  serve_gdb("S05", false);  // stopped before the first instruction; GDB asks why
}

// Under GDB. A continue runs the quantum at Unicorn's full speed while the
// code hook watches for breakpoints; a step runs one instruction. Ctrl-C is
// looked for once per quantum (a poll() of the socket), so the cost per
// instruction is the code hook's one extra test. A step or breakpoint that
// ends as the quantum does is reported at the start of the next quantum, after
// its time has passed, so firmware time is the same as without GDB. When GDB
// detaches, the rest of the quantum runs as it would without it.
uc_err CpCore::run_debugged() {
  if (gdb_->interrupt_pending() && !serve_gdb("S02")) return UC_ERR_OK;
  while (quantum_insns_ < quantum_ && gdb_attached()) {
    if (gdb_step_done_ || gdb_at_breakpoint_) {
      gdb_at_breakpoint_ = false;
      if (!serve_gdb("S05")) return UC_ERR_OK;
      if (!gdb_attached()) break;
    }
    const uint64_t before = quantum_insns_;
    const uc_err err = run_watched(gdb_stepping_ ? 1 : quantum_ - quantum_insns_);
    if (gdb_stepping_ && quantum_insns_ > before) {
      gdb_stepping_ = false;
      gdb_step_done_ = true;
    }
    if (err != UC_ERR_OK || mmio_stop_ || stop_requested_ || !pending_fault_.empty()) return err;
    if (quantum_insns_ == before && !gdb_at_breakpoint_) return err;  // nothing ran: let time pass
  }
  if (quantum_insns_ >= quantum_ || finished_) return UC_ERR_OK;
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  return uc_emu_start(uc_, pc, ~uint64_t{0}, 0, quantum_ - quantum_insns_);
}

// Up to `count` instructions from the PC with the code hook looking for
// breakpoints.
uc_err CpCore::run_watched(uint64_t count) {
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  gdb_watching_ = true;
  const uc_err err = uc_emu_start(uc_, pc, ~uint64_t{0}, 0, count);
  gdb_watching_ = false;
  return err;
}

// Called by the code hook before each instruction while GDB watches; true
// stops Unicorn before the instruction. The first instruction after GDB
// resumes runs even when a breakpoint is on it: GDB has just stopped there.
bool CpCore::gdb_breakpoint_before(uint64_t address) {
  if (gdb_resuming_) {
    gdb_resuming_ = false;
    return false;
  }
  gdb_at_breakpoint_ = gdb_->breakpoint_at(static_cast<uint32_t>(address));
  return gdb_at_breakpoint_;
}

bool CpCore::serve_gdb(const std::string& stop_reply, bool announce) {
  gdb_step_done_ = false;
  const GdbServer::Resume r = gdb_->stopped(stop_reply, announce);
  gdb_resuming_ = true;
  gdb_stepping_ = r == GdbServer::Resume::Step;
  if (r != GdbServer::Resume::Kill) return true;
  fault("killed from GDB", 0, false);
  return false;
}

// A fault stops GDB first, so that it can look at what the fault left; the
// session ends at whatever GDB does next.
void CpCore::gdb_after_run() {
  if (!gdb_attached()) return;
  if (faulted_) {
    gdb_->stopped("S" + two_hex(static_cast<unsigned>(fault_signal_)));
    gdb_->exited("X" + two_hex(static_cast<unsigned>(fault_signal_)));
  } else {
    gdb_->exited("W" + two_hex(exit_code_));
  }
}

// A register write that ends the quantum (SLEEP, HOST_NOTIFY) stops Unicorn
// inside the store, whose PC it leaves on the store: the store has taken
// effect, so execution resumes after it instead of repeating it.
void CpCore::resume_after_mmio_stop() {
  mmio_stop_ = false;
  uint64_t pc = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  if (pc != last_pc_) return;
  pc += last_size_;
  uc_reg_write(uc_, UC_RISCV_REG_PC, &pc);
}

void CpCore::fault(const std::string& what, uint64_t address, bool has_address) {
  faulted_ = finished_ = true;
  fault_signal_ = trap_pc_approximate_ ? 4 : has_address ? 11 : 5;  // SIGILL, SIGSEGV, SIGTRAP
  // Unicorn's PC register may already point past the faulting instruction; the
  // code hook's last address is the instruction that faulted.
  uint64_t pc = fault_at_fetch_ ? address : last_pc_;
  if (trap_pc_approximate_) uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  std::ostringstream r;
  r << "firmware fault: " << what << "\n  pc=" << hex_word(pc);
  if (trap_pc_approximate_) r << " (approximate: at or just after the trapping instruction)";
  if (has_address) r << " address=" << hex_word(address);
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
  if (Tracer* t = tracer(TraceKind::Cp)) trace_awake(*t);
  if (!console_line_.empty()) {
    std::cout << "[cp] " << console_line_ << std::endl;
    console_line_.clear();
  }
  info(summary().substr(path().size() + 2));  // the log line already names the block
}

std::string CpCore::summary() const {
  std::ostringstream s;
  s << path() << ": " << (faulted_ ? "faulted" : finished_ ? "halted" : sleeping_ ? "asleep" : "still running")
    << ", exit code "
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

void CpCore::trace_access(const char* what, uint64_t address, uint64_t value) const {
  if (trace_mmio_) info(std::string(what) + " " + hex_word(address) + " = " + hex_word(value));
}

void CpCore::register_fault(const char* kind, uint64_t offset, unsigned size, const std::string& why) {
  pending_fault_ = std::string(kind) + " of " + std::to_string(size) + " bytes at CP register offset " +
                   hex_word(offset) + ", " + why;
  fault_address_ = CP_MMIO_BASE + offset;
  fault_has_address_ = true;
  uc_emu_stop(uc_);
}

// The queue blocks: the host configures them; the firmware may only move its read index.
bool CpCore::queue_register(uint32_t offset, uint32_t* read, const uint32_t* write) {
  const uint32_t rel = offset - CP_QUEUE_BASE;
  Queue& q = queues_[rel / CP_QUEUE_STRIDE];
  switch (rel % CP_QUEUE_STRIDE) {
    case CP_QUEUE_READ:
      if (write) {
        q.read = *write;
        if (Tracer* t = tracer(TraceKind::Cp)) trace_packets_done(*t, rel / CP_QUEUE_STRIDE);
      }
      if (read) *read = q.read;
      return true;
    case CP_QUEUE_RING_LO: if (read) *read = static_cast<uint32_t>(q.ring); return read;
    case CP_QUEUE_RING_HI: if (read) *read = static_cast<uint32_t>(q.ring >> 32); return read;
    case CP_QUEUE_SIZE: if (read) *read = q.size; return read;
    case CP_QUEUE_DOORBELL: if (read) *read = q.doorbell; return read;
    case CP_QUEUE_DESC_LO: if (read) *read = static_cast<uint32_t>(q.descriptor); return read;
    case CP_QUEUE_DESC_HI: if (read) *read = static_cast<uint32_t>(q.descriptor >> 32); return read;
    default: return false;
  }
}

// A dispatcher register: a b_transport on dispatcher[d] at the core's local time.
bool CpCore::dispatcher_access(uint32_t offset, uint32_t& value, bool write) {
  const uint32_t d = (offset - CP_DISP_BASE) / CP_DISP_STRIDE;
  if (d >= dispatcher.size()) return false;
  tlm::tlm_generic_payload t;
  t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  t.set_address((offset - CP_DISP_BASE) % CP_DISP_STRIDE);
  t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  t.set_data_length(4);
  t.set_streaming_width(4);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time offset_time = local_offset();
  sc_core::sc_time delay = offset_time;
  (*dispatcher[d])->b_transport(t, delay);
  if (delay > offset_time)
    stall_cycles_ += static_cast<uint64_t>(std::ceil((delay - offset_time) / clock_period()));
  return t.is_response_ok();
}

bool CpCore::read_register(uint32_t offset, uint32_t& value) {
  switch (offset) {
    case CP_REG_ID: value = CP_ID_VALUE; return true;
    case CP_REG_TIMER_LO: {
      const uint64_t now = current_cycle();
      timer_hi_latch_ = static_cast<uint32_t>(now >> 32);
      value = static_cast<uint32_t>(now);
      return true;
    }
    case CP_REG_TIMER_HI: value = timer_hi_latch_; return true;
    case CP_REG_SCRATCH: value = scratch_; return true;
    case CP_REG_IRQ_PENDING: value = irq_pending_; return true;
    case CP_REG_DISPATCHERS: value = static_cast<uint32_t>(dispatcher.size()); return true;
    case CP_REG_QUEUES: value = static_cast<uint32_t>(queues_.size()); return true;
    case CP_REG_DEVMEM_LO: value = static_cast<uint32_t>(devmem_window_); return true;
    case CP_REG_DEVMEM_HI: value = static_cast<uint32_t>(devmem_window_ >> 32); return true;
    case CP_REG_DEBUG: value = debug_flags_; return true;
    case CP_REG_L2_HOMES: value = l2_homes_ ? 1 : 0; return true;
    case CP_REG_LAUNCHES: value = static_cast<uint32_t>(kernel_launches_.value); return true;
    case CP_REG_COPY_SRC_LO: value = static_cast<uint32_t>(copy_src_); return true;
    case CP_REG_COPY_SRC_HI: value = static_cast<uint32_t>(copy_src_ >> 32); return true;
    case CP_REG_COPY_DST: value = copy_dst_; return true;
    default: break;
  }
  if (offset >= CP_QUEUE_BASE && offset < CP_QUEUE_BASE + CP_MAX_QUEUES * CP_QUEUE_STRIDE)
    return queue_register(offset, &value, nullptr);
  if (offset >= CP_DISP_BASE) return dispatcher_access(offset, value, false);
  return false;
}

bool CpCore::write_register(uint32_t offset, uint32_t value) {
  switch (offset) {
    case CP_REG_CONSOLE: console_byte(static_cast<uint8_t>(value)); return true;
    case CP_REG_SCRATCH: scratch_ = value; return true;
    case CP_REG_HALT:
      exit_code_ = value;
      stop_requested_ = true;
      uc_emu_stop(uc_);
      return true;
    case CP_REG_IRQ_ACK: irq_pending_ &= ~value; return true;
    case CP_REG_SLEEP:
      sleep_requested_ = mmio_stop_ = true;
      uc_emu_stop(uc_);
      return true;
    case CP_REG_HOST_NOTIFY:
      notify_host_ = mmio_stop_ = true;
      uc_emu_stop(uc_);
      return true;
    case CP_REG_DEVMEM_LO:
    case CP_REG_DEVMEM_HI: {
      const uint64_t w = offset == CP_REG_DEVMEM_LO ? (devmem_window_ & ~uint64_t{0xffffffff}) | value
                                                    : (devmem_window_ & 0xffffffffu) | (uint64_t(value) << 32);
      if (w % CP_DEVMEM_SIZE) return false;
      devmem_window_ = w;
      return true;
    }
    case CP_REG_LAUNCHES: kernel_launches_.value = value; return true;
    case CP_REG_COPY_SRC_LO: copy_src_ = (copy_src_ & ~uint64_t{0xffffffff}) | value; return true;
    case CP_REG_COPY_SRC_HI: copy_src_ = (copy_src_ & 0xffffffffu) | (uint64_t(value) << 32); return true;
    case CP_REG_COPY_DST: copy_dst_ = value; return true;
    case CP_REG_COPY_BYTES: return copy_block(value);
    default: break;
  }
  if (offset >= CP_QUEUE_BASE && offset < CP_QUEUE_BASE + CP_MAX_QUEUES * CP_QUEUE_STRIDE)
    return queue_register(offset, nullptr, &value);
  if (offset >= CP_DISP_BASE) return dispatcher_access(offset, value, true);
  return false;
}

// The copy engine: one device-memory latency for the block, then a cycle per
// further line (the lines stream in behind the first). A source outside
// device memory is a firmware fault, like a bad access through the window.
bool CpCore::copy_block(uint32_t bytes) {
  if (bytes == 0 || bytes > CP_COPY_MAX_BYTES || uint64_t{copy_dst_} + bytes > sram_size_) return false;
  ++devmem_copies_;
  stall_cycles_ += devmem_latency_ + (bytes + CP_COPY_LINE_BYTES - 1) / CP_COPY_LINE_BYTES - 1;
  std::vector<uint8_t> block(bytes);
  try {
    memory_.read(block.data(), copy_src_, bytes);
  } catch (const UserError& e) {
    pending_fault_ = std::string("device-memory copy: ") + e.what();
    fault_address_ = copy_src_;
    fault_has_address_ = true;
    uc_emu_stop(uc_);
    return true;
  }
  check_uc(uc_mem_write(uc_, copy_dst_, block.data(), bytes), path(), "copy into SRAM");
  trace_access("device copy", copy_src_, bytes);
  return true;
}

// A firmware that only reads registers (or notifies the host) makes no
// progress; the watchdog, which counts instructions between MMIO accesses,
// never sees it.
void CpCore::count_poll(uint64_t offset) {
  if (++polls_in_a_row_ > longest_poll_.value) longest_poll_.value = polls_in_a_row_;
  if (polls_in_a_row_ <= limits().firmware_polls || !pending_fault_.empty()) return;
  pending_fault_ = "spinning: " + std::to_string(polls_in_a_row_ - 1) +
                   " register reads and host notifications in a row with no other register write, device-memory "
                   "access or sleep; the last at CP register offset " + hex_word(offset) + " " +
                   limit_hint("firmware_polls", limits().firmware_polls);
  uc_emu_stop(uc_);
}

uint64_t CpCore::mmio_read(uc_engine*, uint64_t offset, unsigned size, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->mmio_reads_;
  cp->insns_since_mmio_ = 0;
  cp->count_poll(offset);
  uint32_t value = 0;
  if (size != 4 || !cp->read_register(static_cast<uint32_t>(offset), value)) {
    cp->register_fault("read", offset, size, size != 4 ? "not a 32-bit access"
                                                        : "which is no readable register (see cp_regs.h)");
    return 0;
  }
  cp->trace_access("mmio read", CP_MMIO_BASE + offset, value);
  return value;
}

void CpCore::mmio_write(uc_engine*, uint64_t offset, unsigned size, uint64_t value, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->mmio_writes_;
  cp->insns_since_mmio_ = 0;
  if (offset == CP_REG_HOST_NOTIFY)
    cp->count_poll(offset);
  else
    cp->end_poll();
  const bool console_byte = offset == CP_REG_CONSOLE && size == 1;
  if (offset != CP_REG_CONSOLE) cp->trace_access("mmio write", CP_MMIO_BASE + offset, value);
  if ((size != 4 && !console_byte) || !cp->write_register(static_cast<uint32_t>(offset), static_cast<uint32_t>(value)))
    cp->register_fault("write", offset, size, size != 4 && !console_byte
                                                  ? "not a 32-bit access"
                                                  : "which is no writable register or a value it does not take "
                                                    "(see cp_regs.h)");
}

uint64_t CpCore::devmem_read(uc_engine* uc, uint64_t offset, unsigned size, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->devmem_reads_;
  cp->insns_since_mmio_ = 0;
  cp->end_poll();
  cp->stall_cycles_ += cp->devmem_latency_;
  const uint64_t addr = cp->devmem_window_ + offset;
  uint64_t value = 0;
  try {
    cp->memory_.read(&value, addr, size);
  } catch (const UserError& e) {
    cp->pending_fault_ = std::string("device-memory read through the window: ") + e.what();
    cp->fault_address_ = addr;
    cp->fault_has_address_ = true;
    uc_emu_stop(uc);
    return 0;
  }
  cp->trace_access("device read", addr, value);
  return value;
}

void CpCore::devmem_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  ++cp->devmem_writes_;
  cp->insns_since_mmio_ = 0;
  cp->end_poll();
  cp->stall_cycles_ += cp->devmem_latency_;
  const uint64_t addr = cp->devmem_window_ + offset;
  cp->trace_access("device write", addr, value);
  try {
    cp->memory_.write(addr, &value, size);
  } catch (const UserError& e) {
    cp->pending_fault_ = std::string("device-memory write through the window: ") + e.what();
    cp->fault_address_ = addr;
    cp->fault_has_address_ = true;
    uc_emu_stop(uc);
  }
}

void CpCore::on_code(uc_engine* uc, uint64_t address, uint32_t size, void* self) {
  auto* cp = static_cast<CpCore*>(self);
  if (cp->gdb_watching_ && cp->gdb_breakpoint_before(address)) {
    uc_emu_stop(uc);  // before the instruction: it is not counted and has not run
    return;
  }
  // Unicorn misses both its instruction count and uc_emu_stop() from a
  // register callback in a loop of one translation block that jumps to itself
  // around a register read ("lw; j"): the hook ends such a quantum, before an
  // instruction it would not have run.
  if (cp->quantum_insns_ >= cp->quantum_ || !cp->pending_fault_.empty()) {
    uc_emu_stop(uc);
    return;
  }
  cp->last_pc_ = address;
  cp->last_size_ = size;
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
  cp->pending_fault_ = std::string("unmapped ") + kind + " of " + std::to_string(size) + " bytes at " +
                       hex_word(address) + " (mapped: SRAM [0, " + hex_word(cp->sram_size_) + "), registers at " +
                       hex_word(CP_MMIO_BASE) + ", device-memory window at " + hex_word(CP_DEVMEM_BASE) + ")";
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

const ParamTable<CpCoreConfig>& cp_core_param_table() {
  using C = CpCoreConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::firmware, required(string_param("firmware", "",
                                                   "path of the firmware ELF; a relative path is looked up in "
                                                   "$TESSERA_FIRMWARE_DIR when set, else in the working directory")))
          .add(&C::sram_size, size_param("sram_size", "64 KiB", "private SRAM at address 0 (multiple of 4 KiB)",
                                         4096.0, static_cast<double>(CP_MMIO_BASE)))
          .add(&C::cpi, int_param("cpi", 1, "CP clock cycles per instruction", 1.0, 1000.0, "cycles"))
          .add(&C::quantum, int_param("quantum", 1000, "instructions run before the core yields to the rest of the "
                                      "platform", 1.0, 1e9, "instructions"))
          .add(&C::watchdog, int_param("watchdog", 10000000, "instructions without an MMIO access before the firmware "
                                       "is declared hung", 1.0, 1e15, "instructions"))
          .add(&C::devmem_latency, int_param("devmem_latency", 100, "CP cycles one access through the device-memory "
                                             "window takes", 0.0, 1e6, "cycles"))
          .add(&C::debug_flags, int_param("debug_flags", 0, "value of CP_REG_DEBUG (CP_DEBUG_* bits: skip release, "
                                          "skip acquire, trace)", 0.0, 4294967295.0))
          .add(&C::trace_mmio, bool_param("trace_mmio", false, "log every register and device-memory access of the "
                                          "firmware"))
          .add(&C::elision, bool_param("elision", false,
                                       "the host serves a policy that elides kernel-boundary synchronisation "
                                       "(aql_cp_cpelide.elf): it sends the workloads' access modes and dispatches "
                                       "at Agent scope, with System scope only around its own accesses to device "
                                       "memory; false: no access modes, every kernel at System scope"))
          .add(&C::access_modes, bool_param("access_modes", true,
                                            "with elision: the host sends the workloads' access modes; false: the "
                                            "Agent-scope fences without them, for a policy that does not read them "
                                            "(aql_cp_hmg.elf), which would pay for reading and skipping the packets"))
          .add(&C::async_launches,
               bool_param("async_launches", false,
                          "the timing device submits a workload's launches ahead into the queue, as a HIP "
                          "stream does, and waits for them only before the host reads, writes or frees device "
                          "memory (or the run ends); false: every launch waits for its kernel"))
          .add(&C::check_hints,
               bool_param("check_hints", false,
                          "compare every global-memory access of a kernel with the access modes the host "
                          "declared for it and report each wrong hint (kernel, buffer, address): an access "
                          "outside the declared buffers or the chiplet's share, or a write to a read-only one"))
          .add(&C::gdb_port, int_param("gdb_port", 0, "TCP port on 127.0.0.1 where the core waits for GDB before its "
                                       "first instruction (0: no GDB)", 0.0, 65535.0));
  return table;
}

BlockType cp_core_block_type() {
  BlockType t;
  t.name = "cp_core";
  t.doc = "Command processor core: RV32IMAC firmware (ELF from sw/firmware) executed by Unicorn, with private SRAM "
          "at 0 and the registers of sw/firmware/include/tessera/cp_regs.h; time = instructions x cpi cycles";
  t.params = cp_core_param_table().specs();
  // name, direction, protocol, vector, required, doc (no request sizes)
  const SocketSpec disp{"dispatcher", SocketDir::Initiator, "cp_mmio", true, false,
                        "to dispatcher d's regs socket: the register block at CP_DISP_BASE + d * CP_DISP_STRIDE",
                        {}, {}};
  const SocketSpec irq{"irq", SocketDir::Target, "irq", true, false,
                       "from dispatcher d's irq socket: interrupt line CP_IRQ_DISPATCHER(d)", {}, {}};
  t.sockets = {disp, irq};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<CpCore>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(cp_core_block_type);

}  // namespace tessera
