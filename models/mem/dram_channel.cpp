#include "models/mem/dram_channel.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;

DramChannel::DramChannel(const DramTiming& timing, unsigned banks, Policy policy)
    : t_(timing), policy_(policy), never_(sc_core::sc_max_time()), banks_(banks), opening_ready_(never_) {}

void DramChannel::push(const DramRequest& r) {
  Bank& b = banks_[r.bank];
  const bool was_idle = b.queue.empty();
  b.queue.push_back(r);
  if (policy_ == Policy::Fcfs) order_.push_back(r.bank);
  if (was_idle) {
    busy_.push_back(r.bank);
    note_front(b);
    mark_dirty(r.bank);  // a new oldest request
  }
  // The youngest request: the bank's oldest for its open row only if it has none yet.
  if (policy_ == Policy::FrFcfs && b.hit_seq == kNone && b.open && r.row == b.row) {
    b.hit_seq = r.seq;
    b.hit = b.queue.size() - 1;
  }
  ++queued_;
}

void DramChannel::find_hit(Bank& b, size_t from) {
  for (size_t i = from; i < b.queue.size(); ++i)
    if (b.queue[i].row == b.row) {
      b.hit_seq = b.queue[i].seq;
      b.hit = i;
      return;
    }
  b.hit_seq = kNone;
}

bool DramChannel::pick_column(const sc_time& now, Pick& pick) const {
  // The data of a column issued now starts at now + tCL: only issue if the bus is free by then.
  if (now + t_.tCL < bus_free_ || busy_.empty()) return false;
  if (policy_ == Policy::Fcfs) {
    // The channel's oldest request, if its row is open and ready.
    const unsigned oldest = order_.front();
    const Bank& b = banks_[oldest];
    pick = Pick{oldest, 0};
    return hits_front(b) && b.ready <= now;
  }
  // The oldest request over all banks whose row is open and ready: the oldest of the banks' candidates.
  uint64_t seq = kNone;
  for (unsigned bi : busy_) {
    const Bank& b = banks_[bi];
    if (b.hit_seq < seq && b.ready <= now) {
      seq = b.hit_seq;
      pick = Pick{bi, b.hit};
    }
  }
  return seq != kNone;
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
    b.queue.erase(pick.index);
  }
  --queued_;
  if (policy_ == Policy::Fcfs) order_.pop_front();  // the oldest request went
  if (b.queue.empty()) {
    auto it = std::find(busy_.begin(), busy_.end(), pick.bank);
    *it = busy_.back();
    busy_.pop_back();
    b.hit_seq = kNone;
  } else {
    // FR-FCFS issued the bank's oldest request for the open row: the next one is further on.
    if (policy_ == Policy::FrFcfs) find_hit(b, pick.index);
    mark_dirty(pick.bank);
  }
  const sc_time transfer = t_.burst_time * static_cast<double>(d.req.bursts);
  d.data_start = std::max(now + t_.tCL, bus_free_);
  d.data_end = d.data_start + transfer;
  bus_free_ = d.data_end;
  bus_busy_ += transfer;
  issued.push_back(d);
}

void DramChannel::open_row(Bank& bank, const sc_time& now) {
  DramRequest& r = bank.queue.front();
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
  if (policy_ == Policy::FrFcfs) {
    bank.hit_seq = r.seq;
    bank.hit = 0;
  }
}

sc_time DramChannel::prepare_banks(const sc_time& now) {
  // opening_ready_ is the earliest ready time of the opening rows: while it is
  // later than now, none has finished opening and opening_ stays as it is.
  if (opening_ready_ <= now) {
    // A row that has finished opening: its bank decides again.
    opening_ready_ = never_;
    for (size_t k = 0; k < opening_.size();) {
      const unsigned bi = opening_[k];
      if (banks_[bi].ready > now) {
        opening_ready_ = std::min(opening_ready_, banks_[bi].ready);
        ++k;
        continue;
      }
      banks_[bi].opening = false;
      opening_[k] = opening_.back();
      opening_.pop_back();
      mark_dirty(bi);
    }
  }
  // Each bank's decision depends on its own state and requests only, so the
  // banks may be visited in any order.
  for (unsigned bi : dirty_) {
    Bank& b = banks_[bi];
    b.dirty = false;
    if (b.queue.empty()) continue;
    // Open the bank for its oldest request unless it is open for it already or
    // busy opening; FR-FCFS keeps a row open while any queued request still hits it.
    if (!hits_front(b) && b.ready <= now && !(policy_ == Policy::FrFcfs && b.open && b.hit_seq != kNone))
      open_row(b, now);
    // A bank already opening keeps its ready time (a row is opened only once ready).
    if (b.ready > now && !b.opening) {
      b.opening = true;
      opening_.push_back(bi);
      opening_ready_ = std::min(opening_ready_, b.ready);
    }
  }
  dirty_.clear();
  // Only a bank that is opening a row has it ready later than now (and it has
  // requests: none of them can have gone while the row was not ready).
  return opening_ready_;
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
