// The functional path of a cache: b_transport with the same data semantics
// as the timed path (hits served from the line, misses filled from below,
// write-through or write-back, atomics at the owner) and the latencies of an
// uncontended cache; and debug access, which sees cached and dirty bytes.
// The two paths share the array but not in-flight state: a platform uses one
// or the other at a time.
#include <algorithm>
#include <cstring>

#include "models/cache/cache.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

void Cache::writeback_lt(Victim& wb, sc_time& d) {
  DownTxn* w = new_down(DownKind::Writeback);
  w->data.swap(wb.data);
  w->enables.swap(wb.enables);
  w->set_command(tlm::TLM_WRITE_COMMAND);
  w->set_address(writeback_address(wb.line));
  w->set_data_ptr(w->data.data());
  w->set_data_length(cfg_.line_size);
  w->set_streaming_width(cfg_.line_size);
  w->set_byte_enable_ptr(w->enables.empty() ? nullptr : w->enables.data());
  w->set_byte_enable_length(static_cast<unsigned>(w->enables.size()));
  w->ext->kind = writeback_kind(wb.line);
  out->b_transport(*w, d);
  if (w->get_response_status() != tlm::TLM_OK_RESPONSE)
    warn("writeback of line " + hex(wb.line) + " failed (" + w->get_response_string() + "); its data is lost");
  count_writeback(wb.line);
  free_down(w);
}

// Fetches `line` and installs it; the index, or -1 with `status` set.
int Cache::fill_lt(uint64_t line, sc_time& d, tlm::tlm_response_status& status) {
  DownTxn* f = new_down(DownKind::Fill);
  f->data.assign(cfg_.line_size, 0);
  f->set_command(tlm::TLM_READ_COMMAND);
  f->set_address(line);
  f->set_data_ptr(f->data.data());
  f->set_data_length(cfg_.line_size);
  f->set_streaming_width(cfg_.line_size);
  f->ext->kind = AccessKind::Fill;
  out->b_transport(*f, d);
  status = f->get_response_status();
  int idx = -1;
  if (status == tlm::TLM_OK_RESPONSE) {
    ++fills_;
    bytes_from_below_ += cfg_.line_size;
    Victim wb;
    idx = install_line(line, wb);
    std::memcpy(array_.data(idx), f->data.data(), cfg_.line_size);
    if (!wb.empty()) writeback_lt(wb, d);
  }
  free_down(f);
  return idx;
}

void Cache::in_b_transport(int, tlm_generic_payload& t, sc_time& d) {
  const GpuAccess* ext = t.get_extension<GpuAccess>();
  const Op op = classify(t, ext);
  const tlm::tlm_response_status status = check(t, op, ext);
  d += cycles(cfg_.hit_latency);
  if (status != tlm::TLM_OK_RESPONSE) {
    ++errors_;
    t.set_response_status(status);
    return;
  }
  count_request(t, ext);
  if (op == Op::Ignore) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (ext && ext->kind == AccessKind::ZeroMask) {
    zero_mask_lt(t, d);
    return;
  }
  if (zero_ && op != Op::Read) store_updates_mask(t, op);
  const uint64_t line = array_.line_of(t.get_address());
  int idx = array_.find(line);
  sc_time miss_d = d - cycles(cfg_.hit_latency) + cycles(cfg_.miss_latency);  // a miss's own delay so far
  const bool forwards = (op == Op::Read && (bypasses(t, ext) || (idx < 0 && !cfg_.inclusive))) ||
                        (op != Op::Read && !cfg_.write_back) ||
                        (op == Op::Write && idx < 0 && !cfg_.write_allocate) ||
                        (op == Op::Atomic && cfg_.atomics_below);
  if (forwards) {
    // Write-through, bypass, or an atomic the level below owns: update or
    // drop our copy, pass the request itself below.
    if (op == Op::Read) ++(bypasses(t, ext) ? bypasses_ : misses_);
    if (op == Op::Write && idx >= 0) {
      ++hits_;
      write_into_line(t, array_.data(idx));
      array_.touch(idx);
    } else if (op == Op::Write) {
      ++misses_;
    }
    if (op == Op::Atomic && idx >= 0) {
      if (array_.dirty(idx)) {
        Victim wb = take_dirty(idx);
        writeback_lt(wb, miss_d);
      }
      array_.invalidate(idx);
    }
    ++forwarded_;
    if (t.is_write()) bytes_to_below_ += t.get_data_length();
    out->b_transport(t, miss_d);
    d = miss_d;
    if (op == Op::Write && idx < 0 && cfg_.write_allocate && t.get_response_status() == tlm::TLM_OK_RESPONSE) {
      tlm::tlm_response_status fill_status;
      fill_lt(line, d, fill_status);  // after the write: the fill brings it
    }
    return;
  }
  if (idx >= 0) {
    ++hits_;
  } else {
    ++misses_;
    tlm::tlm_response_status fill_status = tlm::TLM_OK_RESPONSE;
    if (op == Op::Write && full_line(t)) {
      Victim wb;
      idx = install_line(line, wb);
      if (!wb.empty()) writeback_lt(wb, miss_d);
    } else {
      idx = fill_lt(line, miss_d, fill_status);
    }
    d = miss_d;
    if (idx < 0) {
      t.set_response_status(fill_status);
      return;
    }
  }
  array_.touch(idx);
  if (op == Op::Read) {
    read_from_line(t, array_.data(idx));
  } else if (op == Op::Write) {
    bytes_written_ += t.get_data_length();
    write_into_line(t, array_.data(idx));
    mark_written(idx, t);
  } else {
    atomic_on_line(t, array_.data(idx));
    mark_written(idx, t);
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Cache::full_line(const tlm_generic_payload& t) const {
  if (t.get_address() % cfg_.line_size != 0 || t.get_data_length() != cfg_.line_size) return false;
  const uint8_t* be = t.get_byte_enable_ptr();
  for (uint64_t i = 0; be && i < cfg_.line_size; ++i)
    if (be[i % t.get_byte_enable_length()] != TLM_BYTE_ENABLED) return false;
  return true;
}

// Reads come from below, then the bytes of every cached line in the range
// overwrite them (a dirty line is newer than memory). Writes update cached
// copies and memory alike.
unsigned int Cache::in_dbg(int, tlm_generic_payload& t) {
  const uint64_t addr = t.get_address(), len = t.get_data_length();
  uint8_t* data = t.get_data_ptr();
  if (!data || (!t.is_read() && !t.is_write())) return 0;
  unsigned int n = out->transport_dbg(t);
  const bool cached = t.is_read() ? read_cached(addr, data, len) : write_cached(addr, data, len);
  return cached ? static_cast<unsigned int>(len) : n;
}

template <class F>
bool Cache::for_cached(uint64_t addr, uint64_t len, F f) const {
  bool cached = false;
  for (uint64_t line = array_.line_of(addr); line < addr + len; line += cfg_.line_size) {
    const int idx = array_.find(line);
    if (idx >= 0) {
      cached = true;
      const uint64_t from = std::max(addr, line), to = std::min(addr + len, line + cfg_.line_size);
      f(idx, from - line, from - addr, to - from);
    }
    if (line + cfg_.line_size < line) break;  // the last line of the address space
  }
  return cached;
}

// Write-backs on their way below are found through wb_in_flight_ (a line
// with none costs one lookup), then in the pool of transactions.
template <class F>
bool Cache::for_writebacks_in_flight(uint64_t addr, uint64_t len, F f) const {
  if (wb_in_flight_.empty()) return false;
  std::vector<DownTxn*> found;  // (the pool's transactions are not const: write_cached updates them)
  for (uint64_t line = array_.line_of(addr); line < addr + len; line += cfg_.line_size) {
    if (wb_in_flight_.count(line))
      for (const auto& d : down_pool_)
        if (d->busy && d->kind == DownKind::Writeback && d->line == line) found.push_back(d.get());
    if (line + cfg_.line_size < line) break;  // the last line of the address space
  }
  std::sort(found.begin(), found.end(), [](const DownTxn* a, const DownTxn* b) { return a->seq < b->seq; });
  for (DownTxn* d : found) {
    const uint64_t from = std::max(addr, d->line), to = std::min(addr + len, d->line + cfg_.line_size);
    f(*d, from - d->line, from - addr, to - from);
  }
  return !found.empty();
}

bool Cache::read_cached(uint64_t addr, uint8_t* dst, uint64_t len) const {
  // Oldest first, then the lines held: a line held again is newer than its write-back.
  const bool sent = for_writebacks_in_flight(addr, len, [&](const DownTxn& d, uint64_t in_line, uint64_t in_range,
                                                            uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
      if (d.enables.empty() || d.enables[in_line + i] == TLM_BYTE_ENABLED) dst[in_range + i] = d.data[in_line + i];
  });
  const bool held = for_cached(addr, len, [&](int idx, uint64_t in_line, uint64_t in_range, uint64_t n) {
    std::memcpy(dst + in_range, array_.data(idx) + in_line, n);
  });
  return sent || held;
}

bool Cache::write_cached(uint64_t addr, const uint8_t* src, uint64_t len) {
  // A write-back that has not reached memory yet would otherwise land after
  // this write with the older bytes.
  const bool sent = for_writebacks_in_flight(addr, len, [&](DownTxn& d, uint64_t in_line, uint64_t in_range,
                                                            uint64_t n) {
    std::memcpy(d.data.data() + in_line, src + in_range, n);
  });
  const bool held = for_cached(addr, len, [&](int idx, uint64_t in_line, uint64_t in_range, uint64_t n) {
    std::memcpy(array_.data(idx) + in_line, src + in_range, n);
  });
  return sent || held;
}

}  // namespace tessera
