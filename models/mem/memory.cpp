#include "models/mem/memory.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

namespace {
// Copies `len` bytes honouring a byte-enable mask (repeated over the data).
void masked_copy(uint8_t* dst, const uint8_t* src, uint64_t len, const uint8_t* be, unsigned be_len) {
  for (uint64_t i = 0; i < len; ++i)
    if (be[i % be_len] == TLM_BYTE_ENABLED) dst[i] = src[i];
}

// In-order responses, at most `depth` requests accepted and not retired.
AtTargetPort::Options port_options(unsigned depth) {
  AtTargetPort::Options o;
  o.depth = depth;
  return o;
}
}  // namespace

Memory::Memory(const BlockContext& ctx, const MemoryConfig& c)
    : Block(ctx),
      in("in"),
      store_(shared().get<BackingStore>(c.store, c.page_size)),
      base_(c.base),
      size_(c.size),
      latency_(c.latency),
      bandwidth_(c.bandwidth),
      port_(path(), in, *this, port_options(c.queue_depth)),
      reads_(stats().counter("reads", "read transactions completed")),
      writes_(stats().counter("writes", "write transactions completed")),
      bytes_read_(stats().counter("bytes_read", "bytes returned by reads")),
      bytes_written_(stats().counter("bytes_written", "bytes stored by writes")),
      errors_(stats().counter("errors", "transactions answered with an error status")),
      busy_ps_(stats().counter("busy_ps", "time the data channel was transferring, in ps")),
      bandwidth_achieved_(stats().scalar("bandwidth", "bytes moved / time from first request to last response, B/s")),
      latency_ns_(stats().histogram("latency_ns", "request arrival to response, ns", 10, 100)),
      occupancy_hist_(stats().histogram("queue_occupancy", "accepted requests in the queue, weighted by time in ps",
                                        1, port_.depth() + 1)) {
  if (store_.page_size() != c.page_size)
    throw UserError(path() + ": backing store '" + c.store + "' already has page size " +
                    std::to_string(store_.page_size()) + "; every memory sharing it must use the same page_size");
  if (base_ + (size_ - 1) < base_)
    throw UserError(path() + ": base " + hex(base_) + " + size " + hex(size_) + " wraps around the address space");

  in.register_b_transport(this, &Memory::b_transport);
  in.register_nb_transport_fw(this, &Memory::nb_transport_fw);
  in.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
  in.register_transport_dbg(this, &Memory::transport_dbg);
  targets_.add("in", in);
}

tlm::tlm_target_socket<>* Memory::target_socket(const std::string& name, int index) {
  return targets_.find(name, index);
}

std::string Memory::summary() const {
  if (!active_) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: %llu reads, %llu writes, %llu errors, %.2f GB/s", path().c_str(),
                static_cast<unsigned long long>(reads_.value), static_cast<unsigned long long>(writes_.value),
                static_cast<unsigned long long>(errors_.value), bandwidth_achieved_.value / 1e9);
  return buf;
}

uint64_t Memory::execute(tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  if (!range_contains(base_, size_, addr, len)) {
    status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    status = tlm::TLM_OK_RESPONSE;
  } else if (len > 0 && trans.get_data_ptr() == nullptr) {
    status = tlm::TLM_GENERIC_ERROR_RESPONSE;
  } else if (trans.get_streaming_width() != 0 && trans.get_streaming_width() < len) {
    status = tlm::TLM_BURST_ERROR_RESPONSE;  // streaming (FIFO-style) bursts are not memory accesses
  } else if (trans.get_byte_enable_ptr() && trans.get_byte_enable_length() == 0) {
    status = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  }
  if (status != tlm::TLM_OK_RESPONSE || trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    if (status != tlm::TLM_OK_RESPONSE) {
      ++errors_;
      if (!error_logged_) {
        warn("error response to " + describe(trans) + "; memory answers [" + hex(base_) + ", " +
             hex(base_ + size_ - 1) + "] (further errors are only counted)");
        error_logged_ = true;
      }
    }
    trans.set_response_status(status);
    return 0;
  }
  uint8_t* data = trans.get_data_ptr();
  const uint8_t* be = trans.get_byte_enable_ptr();
  if (trans.is_read()) {
    if (be) {
      std::vector<uint8_t> tmp(len);
      store_.read(addr, tmp.data(), len);
      masked_copy(data, tmp.data(), len, be, trans.get_byte_enable_length());
    } else {
      store_.read(addr, data, len);
    }
    ++reads_;
    bytes_read_ += len;
  } else {
    if (be) {
      std::vector<uint8_t> tmp(len);
      store_.read(addr, tmp.data(), len);
      masked_copy(tmp.data(), data, len, be, trans.get_byte_enable_length());
      store_.write(addr, tmp.data(), len);
    } else {
      store_.write(addr, data, len);
    }
    ++writes_;
    bytes_written_ += len;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return len;
}

void Memory::record_done(const sc_time& start, const sc_time& end) {
  latency_ns_.sample(nanoseconds(end - start));
  if (!active_) first_activity_ = start;
  active_ = true;
  last_activity_ = std::max(last_activity_, end);
  const double span = (last_activity_ - first_activity_).to_seconds();
  if (span > 0) bandwidth_achieved_.value = static_cast<double>(bytes_read_.value + bytes_written_.value) / span;
}

// ---- LT ------------------------------------------------------------------

void Memory::b_transport(tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t bytes = execute(trans);
  const sc_time transfer = transfer_time(bytes, bandwidth_);
  busy_ps_ += picoseconds(transfer);
  const sc_time start = sim_now() + delay;
  delay += latency_ + transfer;
  record_done(start, sim_now() + delay);
}

bool Memory::get_direct_mem_ptr(tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const uint64_t last = base_ + (size_ - 1);
  if (addr < base_ || addr > last) {
    // Deny, and say how far the denial reaches so the initiator does not ask again.
    dmi.set_start_address(addr < base_ ? 0 : last + 1);
    dmi.set_end_address(addr < base_ ? base_ - 1 : ~uint64_t{0});
    dmi.allow_none();
    return false;
  }
  BackingStore::PageSpan page = store_.page(addr);
  const uint64_t start = std::max(page.start, base_);
  const uint64_t end = std::min(page.end, last);
  dmi.set_dmi_ptr(page.data + (start - page.start));
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

unsigned int Memory::transport_dbg(tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr < base_ || addr - base_ >= size_ || trans.get_data_ptr() == nullptr) return 0;
  const uint64_t len = std::min<uint64_t>(trans.get_data_length(), size_ - (addr - base_));
  if (trans.is_read())
    store_.read(addr, trans.get_data_ptr(), len);
  else if (trans.is_write())
    store_.write(addr, trans.get_data_ptr(), len);
  else
    return 0;
  return static_cast<unsigned int>(len);
}

// ---- AT ------------------------------------------------------------------

tlm::tlm_sync_enum Memory::nb_transport_fw(tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  return port_.nb_transport_fw(trans, phase, delay);
}

void Memory::serve(tlm_generic_payload& trans, const sc_time& arrived) {
  const uint64_t bytes = execute(trans);
  const sc_time transfer = transfer_time(bytes, bandwidth_);
  const sc_time start = std::max(sim_now(), channel_free_);
  channel_free_ = start + transfer;
  busy_ps_ += picoseconds(transfer);
  if (!active_) {
    first_activity_ = arrived;
    active_ = true;
  }
  port_.respond_at(trans, arrived, channel_free_ + latency_);
}

void Memory::responding(tlm_generic_payload&, const sc_time& arrived) { record_done(arrived, sim_now()); }

void Memory::occupancy_changing(unsigned from, unsigned) {
  const sc_time now = sim_now();
  occupancy_hist_.sample(from, picoseconds(now - occupancy_since_));
  occupancy_since_ = now;
}

// ---- registration ----------------------------------------------------------

const ParamTable<MemoryConfig>& memory_param_table() {
  using C = MemoryConfig;
  static const ParamTable<C> table = ParamTable<C>()
      .add(&C::base, size_param("base", "0x0", "first address the memory answers (addresses are global)"))
      .add(&C::size, size_param("size", "1 GiB",
                                "bytes answered from base; accesses outside get TLM_ADDRESS_ERROR_RESPONSE", 1.0))
      .add(&C::latency, time_param("latency", "40 ns", "time from a request's data leaving the channel to its response"))
      .add(&C::bandwidth, bandwidth_param("bandwidth", "25.6 GB/s",
                                          "data channel bandwidth; a request occupies it for length/bandwidth"))
      .add(&C::queue_depth, int_param("queue_depth", 16,
                                      "requests accepted (END_REQ sent) and not yet completed before back-pressure",
                                      1.0, 1048576.0, "requests"))
      .add(&C::store, string_param("store", "dram", "name of the shared backing store holding the data"))
      .add(&C::page_size, size_param("page_size", "64 KiB",
                                     "page size of the backing store (power of two); memories sharing a store must "
                                     "agree",
                                     64.0, static_cast<double>(uint64_t{1} << 30)));
  return table;
}

BlockType memory_block_type() {
  BlockType t;
  t.name = "memory";
  t.doc = "Memory target with fixed latency, a finite-bandwidth data channel and a finite request queue; "
          "data lives in a shared sparse backing store. Supports LT, AT (4-phase), DMI and debug access.";
  t.params = memory_param_table().specs();
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.doc = "memory requests (LT, AT, DMI, debug)";
  t.sockets = {in};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<Memory>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(memory_block_type);

}  // namespace tessera
