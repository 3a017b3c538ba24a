// What every pin-level protocol checker shares: the record of rules broken
// (time, signal, rule, detail; each also logged as a warning), and the watch of
// one valid/ready channel (VALID held until READY with a stable payload, and a
// timeout on the wait).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace tessera {

struct Violation {
  sc_core::sc_time time;
  std::string signal;  // e.g. "AWVALID", "REQ_ADDR"
  std::string rule;    // e.g. "valid_held"
  std::string detail;
};

class ViolationLog {
 public:
  // `who` and `protocol` start each warning: "[W 2 ns] mem.checker: AXI rule ...".
  ViolationLog(std::string who, std::string protocol) : who_(std::move(who)), protocol_(std::move(protocol)) {}
  void report(const std::string& signal, const std::string& rule, const std::string& detail);
  const std::vector<Violation>& all() const { return violations_; }
  size_t count(const std::string& rule) const;

 private:
  std::string who_, protocol_;
  std::vector<Violation> violations_;
};

// One valid/ready channel, sampled once per rising edge.
class HandshakeWatch {
 public:
  // `channel` names the signals: "AW" -> "AWVALID", "AWREADY"; `fields` the
  // payload signals, in the order `sample` is given their values.
  HandshakeWatch(std::string channel, std::vector<const char*> fields);
  // Reports valid_held, payload_stable and (after `timeout_cycles`, if not 0)
  // handshake_timeout.
  void sample(uint64_t cycle, bool valid, bool ready, const std::vector<uint64_t>& payload,
              uint64_t timeout_cycles, ViolationLog& log);

 private:
  std::string channel_;
  std::vector<const char*> fields_;
  bool waiting_ = false;
  std::vector<uint64_t> payload_;
  uint64_t since_ = 0;
  bool timed_out_ = false;
};


}  // namespace tessera
