#include "tlm_bridges/axi_to_tlm.h"

#include <sysc/kernel/sc_dynamic_processes.h>  // sc_spawn, for the worker threads

#include <algorithm>

namespace tessera::axi {

namespace {

constexpr size_t kMaxBurstBeats = 256;

uint32_t to_axi(tlm::tlm_response_status s) {
  if (s == tlm::TLM_OK_RESPONSE) return kOkay;
  return s == tlm::TLM_ADDRESS_ERROR_RESPONSE ? kDecErr : kSlvErr;
}

bool full_width_incr(uint32_t burst, uint32_t size) { return burst == kIncr && size == kBusSize; }

// The bus words a burst touches, as [first, last] word addresses.
std::pair<uint64_t, uint64_t> word_span(uint64_t addr, uint32_t len, uint32_t size, uint32_t burst) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t n = 0; n <= len; ++n) {
    const uint64_t w = beat_address(addr, len, size, burst, n) & ~uint64_t{kBusBytes - 1};
    lo = std::min(lo, w), hi = std::max(hi, w);
  }
  return {lo, hi};
}

}  // namespace

AxiToTlm::AxiToTlm(sc_core::sc_module_name name, Pins& pins, Config config)
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

void AxiToTlm::clock_method() {
  ++cycle_;
  sample_handshakes();
  gather_write_data();
  drive();
}

void AxiToTlm::sample_handshakes() {
  if (pins_.awvalid.read() && pins_.awready.read()) {
    Burst b;
    b.write = true;
    b.id = pins_.awid.read(), b.len = pins_.awlen.read(), b.size = pins_.awsize.read();
    b.burst = pins_.awburst.read(), b.addr = pins_.awaddr.read();
    aw_waiting_.push_back(b);
    ++outstanding_;
  }
  if (pins_.wvalid.read() && pins_.wready.read()) w_beats_.push_back({pins_.wdata.read(), pins_.wstrb.read()});
  if (pins_.arvalid.read() && pins_.arready.read()) {
    Burst b;
    b.id = pins_.arid.read(), b.len = pins_.arlen.read(), b.size = pins_.arsize.read();
    b.burst = pins_.arburst.read(), b.addr = pins_.araddr.read();
    to_execute_.push_back(b);
    ++outstanding_;
    work_.notify(sc_core::SC_ZERO_TIME);
  }
  if (pins_.bvalid.read() && pins_.bready.read()) {
    b_.pop_front();
    --outstanding_;
  }
  if (pins_.rvalid.read() && pins_.rready.read()) {
    if (r_.front().last) --outstanding_;
    r_.pop_front();
  }
}

// A write is ready to carry out once its AW and all its W beats are in.
void AxiToTlm::gather_write_data() {
  while (!aw_waiting_.empty() && w_beats_.size() >= aw_waiting_.front().len + 1u) {
    Burst b = aw_waiting_.front();
    aw_waiting_.pop_front();
    for (unsigned n = 0; n <= b.len; ++n) {
      b.data.push_back(w_beats_.front().data);
      b.strb.push_back(w_beats_.front().strb);
      w_beats_.pop_front();
    }
    to_execute_.push_back(std::move(b));
    work_.notify(sc_core::SC_ZERO_TIME);
  }
}

void AxiToTlm::drive() {
  const bool ready = cycle_ % config_.ready_every == 0;
  const size_t free = config_.max_outstanding > outstanding_ ? config_.max_outstanding - outstanding_ : 0;
  // With room for one burst only, AW and AR take turns, so neither starves
  // and both handshakes at one edge cannot overfill.
  const bool aw_turn = free >= 2 || (free == 1 && cycle_ % 2 == 0);
  const bool ar_turn = free >= 2 || (free == 1 && cycle_ % 2 == 1);
  pins_.awready.write(ready && aw_turn);
  pins_.arready.write(ready && ar_turn);
  size_t expected = kMaxBurstBeats;  // W beats buffered: up to what the AWs taken need, or one burst ahead
  for (const Burst& b : aw_waiting_) expected += b.len + 1;
  pins_.wready.write(ready && w_beats_.size() < expected);
  pins_.bvalid.write(!b_.empty());
  if (!b_.empty()) {
    pins_.bid.write(b_.front().id);
    pins_.bresp.write(b_.front().resp);
  }
  pins_.rvalid.write(!r_.empty());
  if (!r_.empty()) {
    pins_.rid.write(r_.front().id);
    pins_.rdata.write(r_.front().data);
    pins_.rresp.write(r_.front().resp);
    pins_.rlast.write(r_.front().last);
  }
}

void AxiToTlm::worker_thread() {
  for (;;) {
    while (to_execute_.empty()) wait(work_);
    const Burst b = to_execute_.front();
    to_execute_.pop_front();
    const uint64_t order = taken_++;
    running_.emplace(order, &b);
    while (conflicts(order, b)) wait(retired_);
    if (b.write)
      execute_write(b);
    else
      execute_read(b);
    running_.erase(order);
    retired_.notify(sc_core::SC_ZERO_TIME);
  }
}

bool AxiToTlm::conflicts(uint64_t order, const Burst& b) const {
  const auto span = word_span(b.addr, b.len, b.size, b.burst);
  for (auto it = running_.begin(); it != running_.end() && it->first < order; ++it) {
    const Burst& e = *it->second;
    if (e.write == b.write && e.id == b.id) return true;
    const auto other = word_span(e.addr, e.len, e.size, e.burst);
    if (other.first <= span.second && span.first <= other.second) return true;
  }
  return false;
}

uint32_t AxiToTlm::transact(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, uint8_t* be) {
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(len);
  trans.set_streaming_width(len);
  if (be) {
    trans.set_byte_enable_ptr(be);
    trans.set_byte_enable_length(len);
  }
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->b_transport(trans, delay);
  wait(delay);
  return to_axi(trans.get_response_status());
}

void AxiToTlm::execute_write(const Burst& b) {
  const unsigned beats = b.len + 1;
  std::vector<uint8_t> data(beats * kBusBytes), be(beats * kBusBytes);
  bool all_enabled = true;
  for (unsigned n = 0; n < beats; ++n)
    for (unsigned lane = 0; lane < kBusBytes; ++lane) {
      data[n * kBusBytes + lane] = static_cast<uint8_t>(b.data[n] >> (8 * lane));
      const bool on = (b.strb[n] >> lane) & 1;
      be[n * kBusBytes + lane] = on ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
      all_enabled = all_enabled && on;
    }
  uint32_t resp = kOkay;
  if (full_width_incr(b.burst, b.size)) {
    const uint64_t start = b.addr & ~uint64_t{kBusBytes - 1};
    resp = transact(tlm::TLM_WRITE_COMMAND, start, data.data(), beats * kBusBytes, all_enabled ? nullptr : be.data());
  } else {
    for (unsigned n = 0; n < beats; ++n) {
      const uint64_t word = beat_address(b.addr, b.len, b.size, b.burst, n) & ~uint64_t{kBusBytes - 1};
      resp = std::max(resp, transact(tlm::TLM_WRITE_COMMAND, word, &data[n * kBusBytes], kBusBytes, &be[n * kBusBytes]));
    }
  }
  b_.push_back({b.id, resp});
}

void AxiToTlm::execute_read(const Burst& b) {
  const unsigned beats = b.len + 1;
  std::vector<uint8_t> data(beats * kBusBytes, 0);
  std::vector<uint32_t> resp(beats, kOkay);
  if (full_width_incr(b.burst, b.size)) {
    const uint64_t start = b.addr & ~uint64_t{kBusBytes - 1};
    std::fill(resp.begin(), resp.end(), transact(tlm::TLM_READ_COMMAND, start, data.data(), beats * kBusBytes, nullptr));
  } else {
    for (unsigned n = 0; n < beats; ++n) {
      const uint64_t word = beat_address(b.addr, b.len, b.size, b.burst, n) & ~uint64_t{kBusBytes - 1};
      resp[n] = transact(tlm::TLM_READ_COMMAND, word, &data[n * kBusBytes], kBusBytes, nullptr);
    }
  }
  for (unsigned n = 0; n < beats; ++n) {
    uint64_t word = 0;
    for (unsigned lane = 0; lane < kBusBytes; ++lane) word |= uint64_t{data[n * kBusBytes + lane]} << (8 * lane);
    r_.push_back({b.id, word, resp[n], n + 1 == beats});
  }
}

}  // namespace tessera::axi
