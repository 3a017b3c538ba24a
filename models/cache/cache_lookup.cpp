// What a request does to the cache: the tag lookup at acceptance, MSHR
// allocation and merging, and the completion of a fill.
#include <cstring>

#include "models/cache/cache.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

Cache::Op Cache::classify(const tlm_generic_payload& t, const GpuAccess* ext) const {
  if (t.get_command() == tlm::TLM_IGNORE_COMMAND) return Op::Ignore;
  if (t.is_read()) return Op::Read;
  return ext && ext->kind == AccessKind::Atomic ? Op::Atomic : Op::Write;
}

// glc reads must see the level that owns the data: a write-through cache
// (an L1) neither answers nor allocates them.
bool Cache::bypasses(const tlm_generic_payload& t, const GpuAccess* ext) const {
  return !cfg_.write_back && t.is_read() && ext && ext->glc;
}

// A non-inclusive cache does not allocate on a read miss: the read goes
// below as it is. Not when a fill or writeback of the line is under way: the
// read joins the fill (it may carry writes waiting to be merged) or waits
// behind the writeback, like any miss.
bool Cache::passes_miss(uint64_t line) {
  return !cfg_.inclusive && !mshr_of(line) && !wb_in_flight_.count(line);
}

tlm::tlm_response_status Cache::check(const tlm_generic_payload& t, Op op, const GpuAccess* ext) const {
  const uint64_t addr = t.get_address(), len = t.get_data_length();
  const uint64_t offset = addr - array_.line_of(addr);
  if (op == Op::Ignore) return tlm::TLM_OK_RESPONSE;
  // A zero-mask query may span lines: one query covers a partition's chunk (its mask bits lie in one mask line).
  const bool query = ext && ext->kind == AccessKind::ZeroMask && t.is_read();
  if (len == 0 || (offset + len > cfg_.line_size && !query)) return tlm::TLM_BURST_ERROR_RESPONSE;  // crosses a line
  if (!t.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (t.get_streaming_width() != 0 && t.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (t.get_byte_enable_ptr() && t.get_byte_enable_length() == 0) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (cfg_.read_only && op != Op::Read) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (op == Op::Atomic && cfg_.write_back) {
    const unsigned size = isa::mem::elem_bytes(ext->elem);
    for (const AtomicLane& lane : ext->lanes)
      if (offset + lane.offset + size > cfg_.line_size) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  return tlm::TLM_OK_RESPONSE;
}

void Cache::warn_refused(const tlm_generic_payload& t, tlm::tlm_response_status status) {
  warn("error response (" + std::string(t.get_response_string()) + ") to " + describe(t) + ": " +
       why_refused(status) + " (further errors are only counted)");
  error_logged_ = true;
}

// What check() found wrong, for the first error's warning.
std::string Cache::why_refused(tlm::tlm_response_status status) const {
  const std::string line = std::to_string(cfg_.line_size) + "-byte line";
  switch (status) {
    case tlm::TLM_BURST_ERROR_RESPONSE:
      return "a request must lie within one " + line + ", with a streaming width of 0 or at least its length "
             "(the requester's line or request size is larger than this cache's line_size?)";
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: return "an atomic lane lies outside the request's " + line;
    case tlm::TLM_COMMAND_ERROR_RESPONSE: return "this cache is read-only";
    case tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE: return "byte enables given with a length of 0";
    default: return "the request carries no data pointer";
  }
}

void Cache::count_request(const tlm_generic_payload& t, const GpuAccess* ext) {
  if (!ext) {
    ++(t.is_read() ? req_load_ : req_store_);
    return;
  }
  switch (ext->kind) {
    case AccessKind::Load: ++req_load_; break;
    case AccessKind::Store: ++req_store_; break;
    case AccessKind::Atomic: ++req_atomic_; break;
    case AccessKind::ScalarLoad: ++req_scalar_; break;
    case AccessKind::InstFetch: ++req_ifetch_; break;
    case AccessKind::Writeback: ++req_writeback_; break;
    case AccessKind::Fill: ++req_fill_; break;
    case AccessKind::ZeroMask: break;  // counted by the zero cache
  }
}

bool Cache::lookup(Upstream& u, const sc_time& now) {
  tlm_generic_payload& t = *u.trans;
  const GpuAccess* ext = u.ext;
  const Op op = classify(t, ext);
  const sc_time hit_time = now + hit_delay_;
  const tlm::tlm_response_status status = check(t, op, ext);
  if (status != tlm::TLM_OK_RESPONSE) {
    t.set_response_status(status);
    if (!error_logged_) warn_refused(t, status);
    respond(u, hit_time);
    return true;
  }
  if (ext && ext->kind == AccessKind::ZeroMask && op != Op::Ignore) {  // never touches the data array
    const bool done = lookup_zero_mask(u, now);
    if (done) count_request(t, ext);
    return done;
  }
  const uint64_t line = array_.line_of(t.get_address());
  const int idx = array_.find(line);
  bool done = true;
  if (op == Op::Ignore) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    respond(u, hit_time);
  } else if (op == Op::Read && bypasses(t, ext)) {
    ++bypasses_;
    forward(u, now + miss_delay_);
  } else if (op == Op::Read && idx >= 0) {
    ++hits_;
    read_from_line(t, array_.data(idx));
    array_.touch(idx);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    respond(u, hit_time);
  } else if (op == Op::Read && passes_miss(line)) {
    ++misses_;
    forward(u, now + miss_delay_);
  } else if (op == Op::Read) {
    done = miss_target(u, line, now);
  } else if (op == Op::Write && zero_only_store(t, ext)) {
    done = lookup_zero_store(u, line, idx, now);
  } else if (op == Op::Write) {
    done = lookup_write(u, line, idx, now);
    if (done && zero_) store_updates_mask(t, op);
  } else {
    done = lookup_atomic(u, line, idx, now);
    if (done && zero_) store_updates_mask(t, op);
  }
  if (done) count_request(t, ext);
  return done;
}

bool Cache::lookup_write(Upstream& u, uint64_t line, int idx, const sc_time& now) {
  tlm_generic_payload& t = *u.trans;
  const sc_time send_time = now + miss_delay_;
  Mshr* pending = mshr_of(line);
  if (!cfg_.write_back || (idx < 0 && !cfg_.write_allocate)) {
    // Write-through (or a no-allocate miss): update our copy, forward the write.
    const bool allocate = cfg_.write_allocate && idx < 0 && !pending;
    const int fresh = allocate ? free_mshr() : -1;
    if (allocate && fresh < 0) {
      if (!u.stalled) ++mshr_full_stalls_;
      u.stalled = true;
      return false;
    }
    if (idx >= 0) {
      ++hits_;
      write_into_line(t, array_.data(idx));
      array_.touch(idx);
    } else {
      ++misses_;
    }
    if (pending || allocate) {
      // The fill was (or is) requested before this write reaches below; the
      // write's bytes are applied to the line when it arrives.
      Mshr& m = pending ? *pending : mshrs_[fresh];
      if (allocate) open_mshr(fresh, line);
      m.entries.push_back(patch_entry(t, line));
      if (allocate) send_fill(fresh, send_time);
    }
    bytes_written_ += t.get_data_length();
    if (hmg_) {  // a later fill of the line must not overtake the write on its way to memory
      ++wb_in_flight_[line];
      hmg_wrote_through(t.get_data_length());
    }
    forward(u, send_time);
    return true;
  }
  if (idx >= 0) {
    ++hits_;
    write_into_line(t, array_.data(idx));
    mark_written(idx, t);
    array_.touch(idx);
  } else if (!pending && full_line(t)) {
    // Every byte is overwritten: allocate without fetching.
    ++misses_;
    Victim wb;
    const int fresh = install_line(line, wb);
    if (!wb.empty()) send_writeback(wb, send_time);
    write_into_line(t, array_.data(fresh));
    mark_written(fresh, t);
  } else {
    if (!miss_target(u, line, now)) return false;
    bytes_written_ += t.get_data_length();
    return true;
  }
  bytes_written_ += t.get_data_length();
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  respond(u, now + hit_delay_);
  return true;
}

bool Cache::lookup_atomic(Upstream& u, uint64_t line, int idx, const sc_time& now) {
  tlm_generic_payload& t = *u.trans;
  if (!cfg_.write_back || cfg_.atomics_below) {
    // Not the owner: drop our copy (and any copy a pending fill would bring,
    // which may predate the atomic) and let the level below apply it, after
    // the bytes written here (the writeback leaves first, on the same path).
    if (idx >= 0 && array_.dirty(idx)) {
      Victim wb = take_dirty(idx);
      send_writeback(wb, now);
    }
    if (idx >= 0) array_.invalidate(idx);
    if (Mshr* m = mshr_of(line)) m->install = false;
    if (hmg_) ++wb_in_flight_[line];  // as for a write (lookup_write)
    forward(u, now + miss_delay_);
    return true;
  }
  if (idx < 0) return miss_target(u, line, now);
  ++hits_;
  atomic_on_line(t, array_.data(idx));
  mark_written(idx, t);
  array_.touch(idx);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  respond(u, now + hit_delay_);
  return true;
}

Cache::MshrEntry Cache::patch_entry(const tlm_generic_payload& t, uint64_t line) {
  MshrEntry e;
  e.patch = true;
  e.offset = static_cast<unsigned>(t.get_address() - line);
  e.bytes.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
  for (uint64_t i = 0; i < t.get_data_length(); ++i)
    e.enables.push_back(byte_enabled(t, i) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED);
  return e;
}

Cache::Mshr* Cache::mshr_of(uint64_t line) {
  auto it = mshr_by_line_.find(line);
  return it == mshr_by_line_.end() ? nullptr : &mshrs_[it->second];
}

int Cache::free_mshr() const {
  for (size_t w = 0; w < mshr_free_bits_.size(); ++w)
    if (mshr_free_bits_[w]) return static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(mshr_free_bits_[w])));
  return -1;
}

// Entries keep their capacity from one use of the MSHR to the next.
Cache::Mshr& Cache::open_mshr(int i, uint64_t line) {
  Mshr& m = mshrs_[i];
  set_mshr_free(static_cast<size_t>(i), false);
  m.line = line;
  m.targets = 0;
  m.install = true;
  m.waiting_wb = false;
  m.entries.clear();
  mshr_by_line_[line] = i;
  return m;
}

// The entry is built in place in the MSHR's vector (its two byte vectors make
// a temporary's move and destruction cost more than the rest).
bool Cache::miss_target(Upstream& u, uint64_t line, const sc_time& now) {
  if (Mshr* m = mshr_of(line)) {
    if (m->targets >= cfg_.mshr_targets) {
      if (!u.stalled) ++mshr_full_stalls_;
      u.stalled = true;
      return false;
    }
    m->entries.emplace_back().up = u;
    ++m->targets;
    ++mshr_merges_;
    ++(ZeroCache::is_key(line) ? zero_->misses : misses_);
    return true;
  }
  const int i = free_mshr();
  if (i < 0) {
    if (!u.stalled) ++mshr_full_stalls_;
    u.stalled = true;
    return false;
  }
  Mshr& m = open_mshr(i, line);
  m.targets = 1;
  m.entries.emplace_back().up = u;
  ++(ZeroCache::is_key(line) ? zero_->misses : misses_);
  if (hmg_) hmg_fetch(line);
  send_fill(i, now + miss_delay_);
  return true;
}

void Cache::read_from_line(tlm_generic_payload& t, const uint8_t* line_data) {
  const uint64_t off = t.get_address() - array_.line_of(t.get_address());
  const uint64_t len = t.get_data_length();
  uint8_t* dst = t.get_data_ptr();
  if (!t.get_byte_enable_ptr()) {
    std::memcpy(dst, line_data + off, len);
  } else {
    for (uint64_t i = 0; i < len; ++i)
      if (byte_enabled(t, i)) dst[i] = line_data[off + i];
  }
  bytes_read_ += len;
}

void Cache::write_into_line(const tlm_generic_payload& t, uint8_t* line_data) {
  const uint64_t off = t.get_address() - array_.line_of(t.get_address());
  const uint64_t len = t.get_data_length();
  const uint8_t* src = t.get_data_ptr();
  if (!t.get_byte_enable_ptr()) {  // every byte written (most writes)
    std::memcpy(line_data + off, src, len);
    return;
  }
  for (uint64_t i = 0; i < len; ++i)
    if (byte_enabled(t, i)) line_data[off + i] = src[i];
}

void Cache::atomic_on_line(tlm_generic_payload& t, uint8_t* line_data) {
  GpuAccess* ext = t.get_extension<GpuAccess>();
  if (atomic_homes_) take_atomic_home(t, *ext);
  uint8_t* base = line_data + (t.get_address() - array_.line_of(t.get_address()));
  for (AtomicLane& lane : ext->lanes) {  // in lane order: two lanes on one address see each other
    lane.old = isa::mem::rmw(base + lane.offset, ext->elem, ext->op, lane.src, lane.cmp);
    ++atomic_lanes_;
  }
}

void Cache::take_atomic_home(const tlm_generic_payload& t, const GpuAccess& ext) {
  const uint64_t addr = t.get_address(), line = array_.line_of(addr);
  const Cache* other = atomic_homes_->take(line, this);
  if (!other || other == this) return;
  const unsigned size = isa::mem::elem_bytes(ext.elem);
  for (const AtomicLane& lane : ext.lanes) {
    if (!other->holds_dirty(addr + lane.offset, size)) continue;
    ++atomic_conflicts_;
    if (atomic_homes_->first_conflict())
      warn("an atomic at " + hex(addr + lane.offset) + " was applied here while " + other->path() +
           " held those bytes dirty: one of the two updates will be lost. Atomics on one address must be applied "
           "in one place: set atomics to below in the caches that are not the address's home (a CU's L1, the L2 "
           "of one chiplet)");
    return;
  }
}

bool Cache::holds_dirty(uint64_t addr, uint64_t length) const {
  const int idx = array_.find(array_.line_of(addr));
  return idx >= 0 && array_.dirty_in(idx, addr - array_.line_of(addr), length);
}

Cache::Victim Cache::take_dirty(int idx) {
  Victim wb;
  wb.line = array_.address(idx);
  wb.data.assign(array_.data(idx), array_.data(idx) + cfg_.line_size);
  wb.enables = array_.writeback_enables(idx);
  array_.clean(idx);
  return wb;
}

void Cache::mark_written(int idx, const tlm_generic_payload& t) {
  array_.mark_dirty(idx, t.get_address() - array_.line_of(t.get_address()), t.get_data_length(),
                    t.get_byte_enable_ptr(), t.get_byte_enable_length());
}

int Cache::install_line(uint64_t line, Victim& wb) {
  const int idx = array_.victim(line);
  if (array_.valid(idx)) {
    ++evictions_;
    if (array_.dirty(idx)) wb = take_dirty(idx);
  }
  array_.install(idx, line);
  ++array_epoch_;
  return idx;
}

void Cache::complete_fill(DownTxn& d, const sc_time& now) {
  Mshr& m = mshrs_[d.mshr];
  const bool mask = ZeroCache::is_key(m.line);
  if (!mask) ++fills_;
  bytes_from_below_ += cfg_.line_size;
  const tlm::tlm_response_status status = d.get_response_status();
  if (status != tlm::TLM_OK_RESPONSE) {
    fill_failed(d, m.line);
    if (mask) zero_->fetch_done(m.line, now, status);  // requests of a shared zero cache's other caches
    for (MshrEntry& e : m.entries)
      if (!e.patch) {
        e.up.trans->set_response_status(status);
        respond(e.up, now);
      }
  } else if (mask) {
    install_mask_line(m, now);
  } else {
    int idx = -1;
    uint8_t* data = d.data.data();  // a line not kept is served from the fill buffer
    if (m.install) {
      Victim wb;
      idx = install_line(m.line, wb);
      std::memcpy(array_.data(idx), d.data.data(), cfg_.line_size);
      data = array_.data(idx);
      if (!wb.empty()) send_writeback(wb, now);
    }
    if (bdi_) mark_for_cu(d, m);
    for (MshrEntry& e : m.entries) apply_entry(e, data, idx, now);
  }
  mshr_by_line_.erase(m.line);
  m.entries.clear();
  set_mshr_free(static_cast<size_t>(&m - mshrs_.data()), true);
  ++array_epoch_;
  if (!waiting_.empty()) accept_event_.notify(sc_core::SC_ZERO_TIME);  // a request may have waited for the MSHR
}

void Cache::fill_failed(const DownTxn& d, uint64_t line) const {
  warn("fill of line " + hex(line) + " failed (" + d.get_response_string() + "); its requests get the error");
}

void Cache::apply_entry(MshrEntry& e, uint8_t* data, int idx, const sc_time& now) {
  if (e.patch) {
    for (size_t i = 0; i < e.bytes.size(); ++i)
      if (e.enables[i] == TLM_BYTE_ENABLED) data[e.offset + i] = e.bytes[i];
    return;
  }
  tlm_generic_payload& t = *e.up.trans;
  const Op op = classify(t, e.up.ext);
  if (op == Op::Read) {
    read_from_line(t, data);
  } else if (op == Op::Write) {
    write_into_line(t, data);
    if (idx >= 0) mark_written(idx, t);
  } else if (op == Op::Atomic) {
    atomic_on_line(t, data);
    if (idx >= 0) mark_written(idx, t);
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  respond(e.up, now);
}

}  // namespace tessera
