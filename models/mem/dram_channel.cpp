#include "models/mem/dram_channel.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;

DramChannel::DramChannel(const DramTiming& timing, unsigned banks, Policy policy)
    : t_(timing), policy_(policy), banks_(banks), claimed_(banks, 0) {}

bool DramChannel::has_hit(unsigned bank) const {
  for (const DramRequest& r : queue_)
    if (r.bank == bank && hits(r)) return true;
  return false;
}

int DramChannel::pick_column(const sc_time& now) const {
  // The data of a column issued now starts at now + tCL: only issue if the bus is free by then.
  if (now + t_.tCL < bus_free_) return -1;
  if (policy_ == Policy::Fcfs) {
    if (queue_.empty()) return -1;
    const DramRequest& r = queue_.front();
    return hits(r) && banks_[r.bank].ready <= now ? 0 : -1;
  }
  for (size_t i = 0; i < queue_.size(); ++i) {
    const DramRequest& r = queue_[i];
    if (hits(r) && banks_[r.bank].ready <= now) return static_cast<int>(i);
  }
  return -1;
}

void DramChannel::issue_column(size_t index, const sc_time& now, std::vector<DramIssued>& issued) {
  DramIssued d;
  d.req = queue_[index];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
  const sc_time transfer = t_.burst_time * static_cast<double>(d.req.bursts);
  d.data_start = std::max(now + t_.tCL, bus_free_);
  d.data_end = d.data_start + transfer;
  bus_free_ = d.data_end;
  bus_busy_ += transfer;
  issued.push_back(d);
}

void DramChannel::open_row(Bank& bank, DramRequest& r, const sc_time& now) {
  sc_time act = now;
  if (bank.open) {
    const sc_time pre = std::max(now, bank.act_at + t_.tRAS);
    act = pre + t_.tRP;
    r.outcome = RowOutcome::Conflict;
  } else {
    r.outcome = RowOutcome::Miss;
  }
  bank.open = true;
  bank.row = r.row;
  bank.act_at = act;
  bank.ready = act + t_.tRCD;
}

void DramChannel::prepare_banks(const sc_time& now) {
  std::fill(claimed_.begin(), claimed_.end(), 0);
  // Walk in age order: the first request seen for a bank is its oldest.
  for (DramRequest& r : queue_) {
    if (claimed_[r.bank]) continue;
    claimed_[r.bank] = 1;
    Bank& b = banks_[r.bank];
    if (hits(r) || b.ready > now) continue;  // already open for it, or busy opening
    // FR-FCFS keeps a row open while any queued request still hits it.
    if (policy_ == Policy::FrFcfs && b.open && has_hit(r.bank)) continue;
    open_row(b, r, now);
  }
}

sc_time DramChannel::schedule(const sc_time& now, std::vector<DramIssued>& issued) {
  if (queue_.empty()) return sc_core::sc_max_time();
  prepare_banks(now);
  const int pick = pick_column(now);
  if (pick >= 0) {
    issue_column(static_cast<size_t>(pick), now, issued);
    // A row the column just finished with may now be closed for another request.
    prepare_banks(now);
  }
  if (queue_.empty()) return sc_core::sc_max_time();
  // Next chance: the bus can take another column, or a bank finishes opening.
  sc_time next = sc_core::sc_max_time();
  if (bus_free_ > now + t_.tCL) next = bus_free_ - t_.tCL;
  for (const DramRequest& r : queue_) {
    const Bank& b = banks_[r.bank];
    if (b.ready > now) next = std::min(next, b.ready);
  }
  if (next == sc_core::sc_max_time() || next <= now) {
    // Every bank is ready and the bus is free, yet nothing went: cannot happen
    // (the oldest request either hits an open row or gets its bank opened).
    next = now + t_.burst_time;
  }
  return next;
}

}  // namespace tessera
