#include "tlm_bridges/vr_to_tlm.h"

#include <sysc/kernel/sc_dynamic_processes.h>  // sc_spawn, for the worker threads

namespace tessera::vr {

VrToTlm::VrToTlm(sc_core::sc_module_name name, Pins& pins, Config config)
    : sc_module(name), clk("clk"), out("out"), pins_(pins), config_(config) {
  if (config_.ready_every == 0) config_.ready_every = 1;
  if (config_.max_outstanding == 0) config_.max_outstanding = 1;
  SC_METHOD(clock_method);
  sensitive << clk.pos();
  dont_initialize();
  if (config_.workers == 0) config_.workers = 1;
  for (unsigned n = 0; n < config_.workers; ++n)
    sc_core::sc_spawn([this] { worker_thread(); }, sc_core::sc_gen_unique_name("worker"));
}

void VrToTlm::clock_method() {
  ++cycle_;
  if (pins_.req_valid.read() && pins_.req_ready.read()) {
    requests_.push_back({pins_.req_write.read(), pins_.req_addr.read(), pins_.req_wdata.read(), pins_.req_wstrb.read()});
    responses_.emplace_back();
    ++accepted_;
    work_.notify(sc_core::SC_ZERO_TIME);
  }
  if (pins_.resp_valid.read() && pins_.resp_ready.read()) {
    responses_.pop_front();
    --accepted_;
  }
  pins_.req_ready.write(cycle_ % config_.ready_every == 0 && accepted_ < config_.max_outstanding);
  const bool respond = !responses_.empty() && responses_.front().ready;
  pins_.resp_valid.write(respond);
  if (respond) {
    pins_.resp_rdata.write(responses_.front().rdata);
    pins_.resp_error.write(responses_.front().error);
  }
}

// Takes requests in order; one waits while a request taken before it to the
// same word is still being carried out, so the word sees them in order.
void VrToTlm::worker_thread() {
  for (;;) {
    while (requests_.empty()) wait(work_);
    const Request r = requests_.front();
    requests_.pop_front();
    const uint64_t order = taken_++;
    Response& resp = responses_[responses_.size() - requests_.size() - 1];
    const uint64_t word = r.addr & ~uint64_t{kWordBytes - 1};
    running_.emplace(order, word);
    auto earlier_same_word = [&] {
      for (auto it = running_.begin(); it != running_.end() && it->first < order; ++it)
        if (it->second == word) return true;
      return false;
    };
    while (earlier_same_word()) wait(retired_);
    carry_out(r, resp);
    running_.erase(order);
    retired_.notify(sc_core::SC_ZERO_TIME);
  }
}

void VrToTlm::carry_out(const Request& r, Response& resp) {
  uint8_t data[kWordBytes], be[kWordBytes];
  for (unsigned lane = 0; lane < kWordBytes; ++lane) {
    data[lane] = static_cast<uint8_t>(r.wdata >> (8 * lane));
    be[lane] = (r.wstrb >> lane) & 1 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  }
  tlm::tlm_generic_payload trans;
  trans.set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  trans.set_address(r.addr & ~uint64_t{kWordBytes - 1});
  trans.set_data_ptr(data);
  trans.set_data_length(kWordBytes);
  trans.set_streaming_width(kWordBytes);
  if (r.write && r.wstrb != 0xff) {
    trans.set_byte_enable_ptr(be);
    trans.set_byte_enable_length(kWordBytes);
  }
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->b_transport(trans, delay);
  wait(delay);
  if (!r.write)
    for (unsigned lane = 0; lane < kWordBytes; ++lane) resp.rdata |= uint64_t{data[lane]} << (8 * lane);
  resp.error = !trans.is_response_ok();
  resp.ready = true;
}

}  // namespace tessera::vr
