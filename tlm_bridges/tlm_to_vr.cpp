#include "tlm_bridges/tlm_to_vr.h"

namespace tessera::vr {

TlmToVr::TlmToVr(sc_core::sc_module_name name, Pins& pins, Config config)
    : sc_module(name), clk("clk"), in("in"), pins_(pins), config_(config) {
  if (config_.ready_every == 0) config_.ready_every = 1;
  if (config_.outstanding == 0) config_.outstanding = 1;
  in.register_b_transport(this, &TlmToVr::b_transport);
  SC_METHOD(clock_method);
  sensitive << clk.pos();
  dont_initialize();
}

void TlmToVr::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  ++active_;
  arrived_.notify(sc_core::SC_ZERO_TIME);
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  transport(trans);
  --active_;
}

void TlmToVr::transport(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address(), len = trans.get_data_length();
  if (len == 0 || trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const unsigned char* be = trans.get_byte_enable_ptr();
  const unsigned be_len = trans.get_byte_enable_length();
  Pending p;
  const uint64_t first = addr & ~uint64_t{kWordBytes - 1};
  for (uint64_t word = first; word < addr + len; word += kWordBytes) {
    Request r{trans.is_write(), word, 0, 0, &p, trans.get_data_ptr(), static_cast<int64_t>(word - addr)};
    for (unsigned lane = 0; lane < kWordBytes; ++lane) {
      const uint64_t a = word + lane;
      if (a < addr || a >= addr + len) continue;
      const uint64_t off = a - addr;
      if (be && be[off % be_len] != TLM_BYTE_ENABLED) continue;
      r.wstrb |= 1u << lane;
      if (r.write) r.wdata |= uint64_t{trans.get_data_ptr()[off]} << (8 * lane);
    }
    to_send_.push_back(r);
    ++p.left;
  }
  while (p.left) wait(p.done);
  trans.set_response_status(p.error ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

void TlmToVr::clock_method() {
  ++cycle_;
  if (pins_.req_valid.read() && pins_.req_ready.read()) {
    awaiting_.push_back(to_send_.front());
    to_send_.pop_front();
  }
  if (pins_.resp_valid.read() && pins_.resp_ready.read() && !awaiting_.empty()) {
    const Request r = awaiting_.front();  // an unrequested response is the checker's to report
    awaiting_.pop_front();
    if (pins_.resp_error.read()) r.owner->error = true;
    if (!r.write)
      for (unsigned lane = 0; lane < kWordBytes; ++lane)
        if ((r.wstrb >> lane) & 1)
          r.data[r.word_offset + lane] = static_cast<uint8_t>(pins_.resp_rdata.read() >> (8 * lane));
    if (--r.owner->left == 0) r.owner->done.notify(sc_core::SC_ZERO_TIME);
  }
  const bool send = !to_send_.empty() && awaiting_.size() < config_.outstanding;
  pins_.req_valid.write(send);
  if (send) {
    const Request& r = to_send_.front();
    pins_.req_write.write(r.write);
    pins_.req_addr.write(r.addr);
    pins_.req_wdata.write(r.wdata);
    pins_.req_wstrb.write(r.wstrb);
  }
  pins_.resp_ready.write(cycle_ % config_.ready_every == 0);
}

}  // namespace tessera::vr
