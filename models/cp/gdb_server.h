// GdbServer: the GDB remote serial protocol over a loopback TCP socket, for
// debugging the command processor's firmware with gdb-multiarch.
//
// The server knows nothing of SystemC or Unicorn: it reads and writes
// registers and memory through a Target, keeps the breakpoints, and tells its
// caller how to resume. Its caller (cp_core) runs the firmware and calls
// stopped() whenever execution stops (before the first instruction, at a
// breakpoint, after a step, on Ctrl-C, on a fault); while GDB is being
// served, the simulation waits, so simulated time stands still.
//
// Supported: qSupported, qXfer:features:read (an RV32 target description),
// ?, g, G, p, P, m, M, X, c, s, Z0/z0 and Z1/z1 (breakpoints kept here, not
// written into memory), D, k, qAttached, qC, H, QStartNoAckMode, vCont?,
// vMustReplyEmpty; anything else gets the empty reply ("not supported").
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

namespace tessera {

class GdbServer {
 public:
  // What the server reads and writes. Registers: 0-31 are x0-x31, 32 the pc.
  class Target {
   public:
    virtual ~Target() = default;
    virtual uint32_t read_register(int n) = 0;
    virtual void write_register(int n, uint32_t value) = 0;
    virtual bool read_memory(uint32_t address, uint8_t* out, size_t length) = 0;
    virtual bool write_memory(uint32_t address, const uint8_t* in, size_t length) = 0;
  };
  enum class Resume { Continue, Step, Detach, Kill };

  // Listens on 127.0.0.1:port (0: a port the system picks); `who` names the
  // core in errors. Throws UserError when the port cannot be had.
  GdbServer(uint16_t port, Target& target, std::string who);
  ~GdbServer();
  GdbServer(const GdbServer&) = delete;
  GdbServer& operator=(const GdbServer&) = delete;

  uint16_t port() const { return port_; }
  void accept_client();  // blocks until GDB connects
  bool connected() const { return client_ >= 0; }

  // Sends `stop_reply` (e.g. "S05") and serves GDB until it resumes. The stop
  // on attaching is not announced: GDB asks for it ('?'). A client that
  // disconnects counts as a detach.
  Resume stopped(const std::string& stop_reply, bool announce = true);
  // The firmware is gone: sends `reply` (W<code> or X<signal>) and closes.
  void exited(const std::string& reply);
  // Whether GDB sent an interrupt (Ctrl-C) since execution resumed; never blocks.
  bool interrupt_pending();
  bool breakpoint_at(uint32_t pc) const { return !breakpoints_.empty() && breakpoints_.count(pc); }

 private:
  bool read_packet(std::string& packet);  // false: the client went away
  void send_packet(const std::string& data);
  bool read_byte(char& c);
  void close_client();
  // One command; true with `resume` set when it resumes execution.
  bool handle(const std::string& packet, Resume& resume);
  std::string read_registers();
  std::string write_registers(const std::string& hex);
  std::string read_memory(const std::string& args);
  std::string write_memory(const std::string& args, bool binary);
  std::string breakpoint(const std::string& packet);
  std::string features(const std::string& args) const;

  Target& target_;
  std::string who_;
  int listener_ = -1, client_ = -1;
  uint16_t port_ = 0;
  bool ack_ = true;  // until QStartNoAckMode
  bool interrupted_ = false;
  std::string last_stop_ = "S05";  // the answer to '?'
  std::set<uint32_t> breakpoints_;
};

}  // namespace tessera
