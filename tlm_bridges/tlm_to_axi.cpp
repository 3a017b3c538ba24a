#include "tlm_bridges/tlm_to_axi.h"

#include <algorithm>

namespace tessera::axi {

namespace {

constexpr unsigned kMaxIncrBeats = 256;
constexpr unsigned kMaxFixedBeats = 16;

tlm::tlm_response_status to_tlm(uint32_t resp) {
  switch (resp) {
    case kOkay: case kExOkay: return tlm::TLM_OK_RESPONSE;
    case kDecErr: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    default: return tlm::TLM_GENERIC_ERROR_RESPONSE;
  }
}

// The transaction byte that byte lane `lane` of beat `n` carries, or -1.
// `first` is the transaction offset of the burst's first byte at `r.addr`.
int64_t byte_of_lane(uint64_t addr, uint32_t burst, uint64_t chunk, uint64_t first, unsigned n, unsigned lane) {
  if (burst == kFixed) return static_cast<int64_t>(first + uint64_t{n} * kBusBytes + lane);
  const uint64_t x = (addr & ~uint64_t{kBusBytes - 1}) + uint64_t{n} * kBusBytes + lane;
  if (x < addr || x >= addr + chunk) return -1;
  return static_cast<int64_t>(first + (x - addr));
}

bool enabled(const tlm::tlm_generic_payload& trans, uint64_t offset) {
  const unsigned char* be = trans.get_byte_enable_ptr();
  return !be || be[offset % trans.get_byte_enable_length()] == TLM_BYTE_ENABLED;
}

}  // namespace

TlmToAxi::TlmToAxi(sc_core::sc_module_name name, Pins& pins, Config config)
    : sc_module(name), clk("clk"), in("in"), pins_(pins), config_(config),
      write_ids_(std::max(1u, config.ids), false), read_ids_(std::max(1u, config.ids), false) {
  if (config_.ready_every == 0) config_.ready_every = 1;
  in.register_b_transport(this, &TlmToAxi::b_transport);
  SC_METHOD(clock_method);
  sensitive << clk.pos();
  dont_initialize();
}

unsigned TlmToAxi::take_id(std::vector<bool>& busy, sc_core::sc_event& freed) {
  for (;;) {
    auto it = std::find(busy.begin(), busy.end(), false);
    if (it != busy.end()) {
      *it = true;
      return static_cast<unsigned>(it - busy.begin());
    }
    wait(freed);
  }
}

void TlmToAxi::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  ++active_;
  arrived_.notify(sc_core::SC_ZERO_TIME);
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  transport(trans);
  --active_;
}

void TlmToAxi::transport(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address(), len = trans.get_data_length();
  const bool fixed = trans.get_streaming_width() < len;
  if (len == 0 || (fixed && (trans.get_streaming_width() != kBusBytes || addr % kBusBytes || len % kBusBytes))) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const bool write = trans.is_write();
  std::vector<bool>& busy = write ? write_ids_ : read_ids_;
  const unsigned id = take_id(busy, write ? write_id_freed_ : read_id_freed_);
  uint32_t worst = kOkay;
  for (uint64_t offset = 0; offset < len;) {
    const uint64_t a = fixed ? addr : addr + offset;
    uint64_t chunk;
    if (fixed) {
      chunk = std::min<uint64_t>(len - offset, kMaxFixedBeats * kBusBytes);
    } else {
      chunk = std::min<uint64_t>({len - offset, 4096 - a % 4096, kMaxIncrBeats * kBusBytes - a % kBusBytes});
    }
    const uint32_t beats = static_cast<uint32_t>((a % kBusBytes + chunk + kBusBytes - 1) / kBusBytes);
    const Request r{id, beats - 1, fixed ? uint32_t{kFixed} : uint32_t{kIncr}, a};
    const uint32_t resp = write ? write_burst(id, r, trans, offset) : read_burst(id, r, trans, offset);
    worst = std::max(worst, resp == kExOkay ? uint32_t{kOkay} : resp);
    offset += chunk;
  }
  busy[id] = false;
  (write ? write_id_freed_ : read_id_freed_).notify(sc_core::SC_ZERO_TIME);
  trans.set_response_status(to_tlm(worst));
}

uint32_t TlmToAxi::write_burst(uint32_t id, const Request& r, const tlm::tlm_generic_payload& trans,
                               uint64_t first) {
  const uint64_t chunk = r.burst == kFixed ? uint64_t{r.len + 1} * kBusBytes
                                           : std::min<uint64_t>(trans.get_data_length() - first,
                                                                uint64_t{r.len + 1} * kBusBytes - r.addr % kBusBytes);
  for (unsigned n = 0; n <= r.len; ++n) {
    Beat beat;
    beat.last = n == r.len;
    for (unsigned lane = 0; lane < kBusBytes; ++lane) {
      const int64_t off = byte_of_lane(r.addr, r.burst, chunk, first, n, lane);
      if (off < 0 || !enabled(trans, static_cast<uint64_t>(off))) continue;
      beat.data |= uint64_t{trans.get_data_ptr()[off]} << (8 * lane);
      beat.strb |= 1u << lane;
    }
    w_.push_back(beat);
  }
  InFlight f;
  writes_[id] = &f;
  aw_.push_back(r);
  while (!f.done) wait(f.finished);
  return f.resp;
}

uint32_t TlmToAxi::read_burst(uint32_t id, const Request& r, tlm::tlm_generic_payload& trans, uint64_t first) {
  const uint64_t chunk = r.burst == kFixed ? uint64_t{r.len + 1} * kBusBytes
                                           : std::min<uint64_t>(trans.get_data_length() - first,
                                                                uint64_t{r.len + 1} * kBusBytes - r.addr % kBusBytes);
  InFlight f;
  reads_[id] = &f;
  ar_.push_back(r);
  while (!f.done) wait(f.finished);
  for (unsigned n = 0; n < f.data.size() && n <= r.len; ++n)
    for (unsigned lane = 0; lane < kBusBytes; ++lane) {
      const int64_t off = byte_of_lane(r.addr, r.burst, chunk, first, n, lane);
      if (off >= 0 && enabled(trans, static_cast<uint64_t>(off)))
        trans.get_data_ptr()[off] = static_cast<unsigned char>(f.data[n] >> (8 * lane));
    }
  return f.resp;
}

void TlmToAxi::clock_method() {
  ++cycle_;
  // Handshakes completed at this edge: what was driven before it, seen with READY.
  if (pins_.awvalid.read() && pins_.awready.read()) aw_.pop_front();
  if (pins_.wvalid.read() && pins_.wready.read()) w_.pop_front();
  if (pins_.arvalid.read() && pins_.arready.read()) ar_.pop_front();
  take_responses();
  drive_address(aw_, pins_.awvalid, pins_.awid, pins_.awaddr, pins_.awlen, pins_.awsize,
                pins_.awburst);
  drive_address(ar_, pins_.arvalid, pins_.arid, pins_.araddr, pins_.arlen, pins_.arsize,
                pins_.arburst);
  drive_write_data();
  const bool ready = cycle_ % config_.ready_every == 0;
  pins_.bready.write(ready);
  pins_.rready.write(ready);
}

void TlmToAxi::drive_address(std::deque<Request>& q, sc_core::sc_signal<bool>& valid,
                             sc_core::sc_signal<uint32_t>& id, sc_core::sc_signal<uint64_t>& addr,
                             sc_core::sc_signal<uint32_t>& len, sc_core::sc_signal<uint32_t>& size,
                             sc_core::sc_signal<uint32_t>& burst) {
  valid.write(!q.empty());
  if (q.empty()) return;
  const Request& r = q.front();
  id.write(r.id);
  addr.write(r.addr);
  len.write(r.len);
  size.write(kBusSize);
  burst.write(r.burst);
}

void TlmToAxi::drive_write_data() {
  pins_.wvalid.write(!w_.empty());
  if (w_.empty()) return;
  pins_.wdata.write(w_.front().data);
  pins_.wstrb.write(w_.front().strb);
  pins_.wlast.write(w_.front().last);
}

void TlmToAxi::take_responses() {
  if (pins_.bvalid.read() && pins_.bready.read()) {
    auto it = writes_.find(pins_.bid.read());
    if (it != writes_.end()) {  // a response to nothing is the checker's to report
      it->second->resp = pins_.bresp.read();
      it->second->done = true;
      it->second->finished.notify(sc_core::SC_ZERO_TIME);
      writes_.erase(it);
    }
  }
  if (pins_.rvalid.read() && pins_.rready.read()) {
    auto it = reads_.find(pins_.rid.read());
    if (it != reads_.end()) {
      InFlight& f = *it->second;
      f.data.push_back(pins_.rdata.read());
      f.resp = std::max(f.resp, pins_.rresp.read() == kExOkay ? uint32_t{kOkay} : pins_.rresp.read());
      if (pins_.rlast.read()) {
        f.done = true;
        f.finished.notify(sc_core::SC_ZERO_TIME);
        reads_.erase(it);
      }
    }
  }
}

}  // namespace tessera::axi
