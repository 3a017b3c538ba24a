#include "models/mem/dram_channel.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;

DramChannel::DramChannel(const DramTiming& timing, unsigned banks, Policy policy)
    : t_(timing), policy_(policy), never_(sc_core::sc_max_time()), banks_(banks) {}

void DramChannel::push(const DramRequest& r) {
  Bank& b = banks_[r.bank];
  const bool was_idle = b.queue.empty();
  b.queue.push_back(r);
  if (was_idle) {
    busy_.push_back(r.bank);
    note_front(b);
  }
  ++queued_;
}

bool DramChannel::has_hit(const Bank& b) const {
  for (const DramRequest& r : b.queue)
    if (hits(b, r)) return true;
  return false;
}

bool DramChannel::pick_column(const sc_time& now, Pick& pick) const {
  // The data of a column issued now starts at now + tCL: only issue if the bus is free by then.
  if (now + t_.tCL < bus_free_ || busy_.empty()) return false;
  if (policy_ == Policy::Fcfs) {
    // The channel's oldest request (arrival order is `seq`), if its row is open and ready.
    unsigned oldest = busy_.front();
    for (unsigned bi : busy_)
      if (banks_[bi].front_seq < banks_[oldest].front_seq) oldest = bi;
    const Bank& b = banks_[oldest];
    pick = Pick{oldest, 0};
    return hits_front(b) && b.ready <= now;
  }
  // The oldest request over all banks whose row is open and ready.
  bool found = false;
  uint64_t seq = 0;
  for (unsigned bi : busy_) {
    const Bank& b = banks_[bi];
    if (!b.open || b.ready > now) continue;
    for (size_t i = 0; i < b.queue.size(); ++i) {
      const DramRequest& r = b.queue[i];
      if (found && r.seq > seq) break;  // younger than the pick from another bank
      if (r.row == b.row) {
        found = true;
        seq = r.seq;
        pick = Pick{bi, i};
        break;
      }
    }
  }
  return found;
}

void DramChannel::issue_column(const Pick& pick, const sc_time& now, std::vector<DramIssued>& issued) {
  Bank& b = banks_[pick.bank];
  DramIssued d;
  d.req = b.queue[pick.index];
  // Mostly the bank's oldest: pop_front() skips erase()'s general shuffle.
  if (pick.index == 0) {
    b.queue.pop_front();
    note_front(b);
  } else {
    b.queue.erase(b.queue.begin() + static_cast<std::ptrdiff_t>(pick.index));
  }
  --queued_;
  if (b.queue.empty()) {
    auto it = std::find(busy_.begin(), busy_.end(), pick.bank);
    *it = busy_.back();
    busy_.pop_back();
  }
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

sc_time DramChannel::prepare_banks(const sc_time& now) {
  // Each bank's decision depends on its own state and requests only, so the
  // banks may be visited in any order.
  sc_time next = never_;
  for (unsigned bi : busy_) {
    Bank& b = banks_[bi];
    // Open the bank for its oldest request unless it is open for it already or
    // busy opening; FR-FCFS keeps a row open while any queued request still hits it.
    if (!hits_front(b) && b.ready <= now && !(policy_ == Policy::FrFcfs && b.open && has_hit(b)))
      open_row(b, b.queue.front(), now);
    if (b.ready > now) next = std::min(next, b.ready);
  }
  return next;
}

sc_time DramChannel::schedule(const sc_time& now, std::vector<DramIssued>& issued) {
  if (queued_ == 0) return never_;
  sc_time bank_ready = prepare_banks(now);
  Pick pick{0, 0};
  if (pick_column(now, pick)) {
    issue_column(pick, now, issued);
    // A row the column just finished with may now be closed for another request.
    bank_ready = prepare_banks(now);
  }
  if (queued_ == 0) return never_;
  // Next chance: the bus can take another column, or a bank finishes opening.
  sc_time next = bank_ready;
  if (bus_free_ > now + t_.tCL) next = std::min(next, bus_free_ - t_.tCL);
  if (next == never_ || next <= now) {
    // Every bank is ready and the bus is free, yet nothing went: cannot happen
    // (the oldest request either hits an open row or gets its bank opened).
    next = now + t_.burst_time;
  }
  return next;
}

}  // namespace tessera
