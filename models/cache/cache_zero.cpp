// The cache's side of its zero cache (models/cache/zero_cache.h): ZeroMask
// queries and mask-line writebacks from above, mask fills from below, stores
// that keep masks coherent, and zero-only stores. docs/CACHES.md, "Zero
// cache", has the rules and their reasons.
#include <cstring>

#include "models/cache/cache.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

// The caches sharing a zero cache (zero_shared) are one array of blocks:
// "sa[3].l1v[2]" is one of "sa[3].l1v".
std::string Cache::zero_group(const std::string& path) {
  const size_t bracket = path.rfind('[');
  const bool indexed = !path.empty() && path.back() == ']' && bracket != std::string::npos &&
                       path.find('.', bracket) == std::string::npos;
  return "zero cache of " + (indexed ? path.substr(0, bracket) : path);
}

// A query (READ) is answered from the mask array; a mask line written back
// from above (WRITE, no data byte enabled) dirties ours. Without a zero
// cache, both go below unchanged. The data array is never touched.
bool Cache::lookup_zero_mask(Upstream& u, const sc_time& now) {
  tlm_generic_payload& t = *u.trans;
  if (!zero_) {
    forward(u, now + miss_delay_);
    return true;
  }
  const uint64_t key = zero_->key_of(t.get_address());
  const int idx = zero_->find(key);
  if (idx >= 0) {
    ++zero_->hits;
    zero_->touch(idx);
    if (t.is_write()) zero_->mark_dirty(idx);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    respond(u, now + zero_hit_delay_);
    return true;
  }
  if (t.is_write()) {  // a mask writeback that misses is not allocated: it goes on below
    ++zero_->misses;
    forward(u, now + miss_delay_);
    return true;
  }
  return zero_miss(u, key, now);
}

// A query that missed: it joins this cache's fill of the mask line, or
// another cache's of a shared zero cache, or starts one.
bool Cache::zero_miss(Upstream& u, uint64_t key, const sc_time& now) {
  if (!mshr_of(key) && zero_->fetching(key)) {
    ++zero_->misses;
    zero_->wait_for(key, [this, u](const sc_time& when, tlm::tlm_response_status status) {
      u.trans->set_response_status(status);
      respond(u, when);
    });
    return true;
  }
  const bool opened = !mshr_of(key);
  if (!miss_target(u, key, now)) return false;
  if (opened) zero_->fetch_started(key);
  return true;
}

// Whole aligned words, every byte enabled and zero. Only a write-back,
// write-allocate cache absorbs such a store in its zero cache: a write-through
// cache (an L1) writes around itself, masks included (LazyGPU 4.2).
bool Cache::zero_only_store(const tlm_generic_payload& t, const GpuAccess* ext) const {
  if (!zero_ || !cfg_.write_back || !cfg_.write_allocate || (ext && ext->kind == AccessKind::Atomic)) return false;
  const uint64_t len = t.get_data_length();
  if (t.get_address() % 4 != 0 || len % 4 != 0) return false;
  const uint8_t* data = t.get_data_ptr();
  for (uint64_t i = 0; i < len; ++i)
    if (!byte_enabled(t, i) || data[i] != 0) return false;
  return true;
}

bool Cache::lookup_zero_store(Upstream& u, uint64_t line, int idx, const sc_time& now) {
  tlm_generic_payload& t = *u.trans;
  const uint64_t key = zero_->key_of(t.get_address());
  const int midx = zero_->find(key);
  if (midx < 0 && !miss_target(u, key, now)) return false;  // write-allocate: the mask line is fetched
  write_zeros_functionally(t, line, idx);
  ++zero_->zero_stores;
  zero_->bytes_saved += t.get_data_length();
  bytes_written_ += t.get_data_length();
  if (midx < 0) return true;  // answered when the mask line arrives (install_mask_line)
  ++zero_->hits;
  zero_->touch(midx);
  zero_->mark_dirty(midx);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  respond(u, now + hit_delay_);
  return true;
}

// The store's bytes take no time and no traffic, but every copy of them must
// agree: a later read, here or below, and a writeback or fill already on its
// way must all see the zeros.
void Cache::write_zeros_functionally(const tlm_generic_payload& t, uint64_t line, int idx) {
  if (idx >= 0) write_into_line(t, array_.data(idx));  // not dirty: the level below gets the same bytes
  if (Mshr* m = mshr_of(line)) m->entries.push_back(patch_entry(t, line));
  if (wb_in_flight_.count(line)) {
    const uint64_t offset = t.get_address() - line;
    for (const auto& d : down_pool_) {
      if (!d->busy || d->kind != DownKind::Writeback || d->line != line) continue;
      for (uint64_t i = 0; i < t.get_data_length(); ++i)
        if (byte_enabled(t, i) && (d->enables.empty() || d->enables[offset + i] == TLM_BYTE_ENABLED))
          d->data[offset + i] = t.get_data_ptr()[i];
    }
  }
  tlm_generic_payload w;
  w.set_command(tlm::TLM_WRITE_COMMAND);
  w.set_address(t.get_address());
  w.set_data_ptr(t.get_data_ptr());
  w.set_data_length(t.get_data_length());
  w.set_streaming_width(t.get_data_length());
  w.set_byte_enable_ptr(t.get_byte_enable_ptr());
  w.set_byte_enable_length(t.get_byte_enable_length());
  out->transport_dbg(w);
}

// The mask bits of the words a store or an owner atomic writes change with
// them: a mask line present is updated (dirty in a write-back cache, whose
// masks are written back like its data). One absent is not fetched: the
// store's data goes its own way and the masks below stay the data's.
void Cache::store_updates_mask(const tlm_generic_payload& t, Op op) {
  if (op == Op::Atomic && (!cfg_.write_back || cfg_.atomics_below)) return;  // applied below, masks too
  const int idx = zero_->find(zero_->key_of(t.get_address()));
  if (idx < 0) return;
  zero_->touch(idx);
  if (cfg_.write_back) zero_->mark_dirty(idx);
}

void Cache::install_mask_line(Mshr& m, const sc_time& now) {
  uint64_t victim = 0;
  const int idx = zero_->install(m.line, victim);
  if (victim) {
    Victim wb = mask_victim(victim);
    send_writeback(wb, now);
  }
  for (MshrEntry& e : m.entries) {
    if (e.patch) continue;  // data patches never join a mask line's MSHR
    if (e.up.trans->is_write()) zero_->mark_dirty(idx);
    e.up.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    respond(e.up, now);
  }
  zero_->fetch_done(m.line, now, tlm::TLM_OK_RESPONSE);
}

// A mask fill is a ZeroMask query for the mask line: addressed at the first
// data word it covers (so it goes where that data is homed), as long as the
// mask line (the bytes that move).
void Cache::send_mask_fill(DownTxn& d, uint64_t key) {
  d.data.assign(cfg_.line_size, 0);
  d.set_command(tlm::TLM_READ_COMMAND);
  d.set_address(zero_->first_address(key));
  d.set_data_ptr(d.data.data());
  d.set_data_length(cfg_.line_size);
  d.set_streaming_width(cfg_.line_size);
  d.ext->kind = AccessKind::ZeroMask;
}

Cache::Victim Cache::mask_victim(uint64_t key) const {
  Victim wb;
  wb.line = key;
  wb.data.assign(cfg_.line_size, 0);
  wb.enables.assign(cfg_.line_size, TLM_BYTE_DISABLED);  // no data byte is written below
  return wb;
}

uint64_t Cache::writeback_address(uint64_t line) const {
  return ZeroCache::is_key(line) ? zero_->first_address(line) : line;
}

AccessKind Cache::writeback_kind(uint64_t line) const {
  return ZeroCache::is_key(line) ? AccessKind::ZeroMask : AccessKind::Writeback;
}

void Cache::count_writeback(uint64_t line) {
  ++(ZeroCache::is_key(line) ? zero_->writebacks : writebacks_);
  bytes_to_below_ += cfg_.line_size;
}

// The functional path: a query costs the zero cache's hit latency, or a mask
// fill by b_transport below; without a zero cache it is passed below.
void Cache::zero_mask_lt(tlm_generic_payload& t, sc_time& d) {
  sc_time miss_d = d - cycles(cfg_.hit_latency) + cycles(cfg_.miss_latency);
  if (zero_) d = d - hit_delay_ + zero_hit_delay_;  // in place of the hit_latency in_b_transport added
  const int idx = zero_ ? zero_->find(zero_->key_of(t.get_address())) : -1;
  if (idx >= 0) {
    ++zero_->hits;
    zero_->touch(idx);
    if (t.is_write()) zero_->mark_dirty(idx);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!zero_ || t.is_write()) {
    if (zero_) ++zero_->misses;
    ++forwarded_;
    out->b_transport(t, miss_d);
    d = miss_d;
    return;
  }
  ++zero_->misses;
  const uint64_t key = zero_->key_of(t.get_address());
  DownTxn* f = new_down(DownKind::Fill);
  send_mask_fill(*f, key);
  out->b_transport(*f, miss_d);
  d = miss_d;
  const tlm::tlm_response_status status = f->get_response_status();
  free_down(f);
  if (status == tlm::TLM_OK_RESPONSE) {
    bytes_from_below_ += cfg_.line_size;
    uint64_t victim = 0;
    zero_->install(key, victim);
    if (victim) {
      Victim wb = mask_victim(victim);
      writeback_lt(wb, d);
    }
  }
  t.set_response_status(status);
}

}  // namespace tessera
