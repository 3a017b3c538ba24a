#include "tlm_bridges/handshake_watch.h"

#include <algorithm>

#include "models/cu/isa/hex.h"
#include "platform/block.h"

namespace tessera {

void ViolationLog::report(const std::string& signal, const std::string& rule, const std::string& detail) {
  violations_.push_back({sc_core::sc_time_stamp(), signal, rule, detail});
  log_line(LogLevel::Warning, who_, protocol_ + " rule " + rule + " broken on " + signal + ": " + detail);
}

size_t ViolationLog::count(const std::string& rule) const {
  return static_cast<size_t>(
      std::count_if(violations_.begin(), violations_.end(), [&](const Violation& v) { return v.rule == rule; }));
}

HandshakeWatch::HandshakeWatch(std::string channel, std::vector<const char*> fields)
    : channel_(std::move(channel)), fields_(std::move(fields)) {}

void HandshakeWatch::sample(uint64_t cycle, bool valid, bool ready, const std::vector<uint64_t>& payload,
                            uint64_t timeout_cycles, ViolationLog& log) {
  const std::string valid_name = channel_ + "VALID";
  if (waiting_) {
    if (!valid) {
      log.report(valid_name, "valid_held", valid_name + " fell before " + channel_ + "READY");
    } else {
      for (size_t i = 0; i < payload.size(); ++i)
        if (payload[i] != payload_[i])
          log.report(fields_[i], "payload_stable",
                     std::string(fields_[i]) + " changed from " + hex(payload_[i]) + " to " + hex(payload[i]) +
                         " while " + valid_name + " waited for READY");
    }
  }
  if (valid && !ready) {
    if (!waiting_) {
      since_ = cycle;
      timed_out_ = false;
    }
    waiting_ = true;
    payload_ = payload;
    if (timeout_cycles && !timed_out_ && cycle - since_ >= timeout_cycles) {
      timed_out_ = true;
      log.report(valid_name, "handshake_timeout",
                 valid_name + " waited " + std::to_string(cycle - since_) + " cycles for READY");
    }
  } else {
    waiting_ = false;
  }
}

}  // namespace tessera
