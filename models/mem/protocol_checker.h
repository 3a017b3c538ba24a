// The TLM-2.0 base-protocol rules the memory-side blocks check on their
// sockets, in one place, each violation reported the same way:
//
//   SC_REPORT_ERROR(<block path>, "protocol violation: <rule> for <transaction>")
//
// (an error report: SystemC's default action throws it out of sc_start, so a
// run stops at the first violation, naming the block, the rule and the
// transaction). Blocks keep their own state of what is in flight and ask the
// checker whether a phase they received is allowed; the checker keeps none.
// tests/mem/protocol_checker_test.cpp makes every rule fire.
#pragma once
#include <string>

#include <tlm>

namespace tessera {

class ProtocolChecker {
 public:
  // `owner` is the block path named in every report. The `socket` arguments
  // below name the socket in the "unexpected phase" rules ("in", "in[2]").
  explicit ProtocolChecker(std::string owner) : owner_(std::move(owner)) {}

  // A target's forward path carries BEGIN_REQ and END_RESP only; anything
  // else is reported. True if the phase is one of those two.
  bool forward_phase(const tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase,
                     const std::string& socket = "nb_transport_fw") const {
    if (phase == tlm::BEGIN_REQ || phase == tlm::END_RESP) return true;
    unexpected_phase(t, phase, socket);
    return false;
  }
  // An initiator's backward path carries END_REQ and BEGIN_RESP only.
  bool backward_phase(const tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase,
                      const std::string& socket = "nb_transport_bw") const {
    if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) return true;
    unexpected_phase(t, phase, socket);
    return false;
  }
  // END_RESP must answer the response in flight on that socket (nullptr:
  // none). True if it does.
  bool end_resp(const tlm::tlm_generic_payload& t, const tlm::tlm_generic_payload* in_flight) const {
    if (&t == in_flight) return true;
    violation("END_RESP for a response not in flight", t);
    return false;
  }
  // A requester that asked for early responses (GpuAccess::early_response)
  // must complete BEGIN_RESP on the call.
  void early_response_completed(const tlm::tlm_generic_payload& t, tlm::tlm_sync_enum r) const {
    if (r != tlm::TLM_COMPLETED)
      violation("a requester asking for early responses did not complete BEGIN_RESP", t);
  }

  void unexpected_phase(const tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase,
                        const std::string& socket) const;
  // Reports `rule` broken by `t`.
  void violation(const std::string& rule, const tlm::tlm_generic_payload& t) const;

 private:
  std::string owner_;
};

}  // namespace tessera
