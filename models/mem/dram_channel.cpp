#include "models/mem/dram_channel.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;

DramChannel::DramChannel(const DramTiming& timing, unsigned banks, Policy policy)
    : t_(timing), policy_(policy), never_(sc_core::sc_max_time()), banks_(banks), opening_ready_(never_) {
  if (t_.bank_groups == 0) t_.bank_groups = 1;
  group_column_.assign(t_.bank_groups, sc_time());
  group_used_.assign(t_.bank_groups, 0);
  next_refresh_ = refresh_interval();
}

sc_time DramChannel::refresh_interval() const {
  return t_.tRFCsb != sc_core::SC_ZERO_TIME ? t_.tREFI / double(banks_.size()) : t_.tREFI;
}

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
  if (busy_.empty()) return false;
  const int starving = starving_bank();
  if (starving >= 0) {
    // Only the channel's oldest request may go, once its row is open.
    const Bank& b = banks_[starving];
    pick = Pick{static_cast<unsigned>(starving), 0};
    return hits_front(b) && b.ready <= now;
  }
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

int DramChannel::starving_bank() const {
  if (policy_ != Policy::FrFcfs || t_.starvation_cap == 0 || bypassed_ < t_.starvation_cap) return -1;
  int oldest = -1;
  for (unsigned bi : busy_)
    if (oldest < 0 || banks_[bi].queue.front().seq < banks_[oldest].queue.front().seq) oldest = static_cast<int>(bi);
  return oldest;
}

sc_time DramChannel::column_time(const Pick& pick, const sc_time& now) const {
  const DramRequest& r = banks_[pick.bank].queue[pick.index];
  sc_time at = now;
  // The data of a column issued at `at` starts at at + tCL: the bus must be free by then.
  if (bus_free_ > at + t_.tCL) at = bus_free_ - t_.tCL;
  if (r.write && any_read_ && last_read_end_ + t_.tRTW > at + t_.tCL) at = last_read_end_ + t_.tRTW - t_.tCL;
  if (!r.write && any_write_ && t_.tWTR != sc_core::SC_ZERO_TIME) at = std::max(at, last_write_end_ + t_.tWTR);
  if (any_column_) at = std::max(at, last_column_ + t_.tCCD_S);
  const unsigned g = group_of(pick.bank);
  if (group_used_[g]) at = std::max(at, group_column_[g] + t_.tCCD_L);
  return at;
}

void DramChannel::issue_column(const Pick& pick, const sc_time& now, std::vector<DramIssued>& issued) {
  Bank& b = banks_[pick.bank];
  DramIssued d;
  d.req = b.queue[pick.index];
  if (policy_ == Policy::FrFcfs && t_.starvation_cap) {
    // Count the columns that pass the channel's oldest request; at the cap its bank decides again.
    bool was_oldest = true;
    for (unsigned bi : busy_)
      if (banks_[bi].queue.front().seq < d.req.seq) was_oldest = false;
    bypassed_ = was_oldest ? 0 : bypassed_ + 1;
    const int starving = starving_bank();
    if (starving >= 0) mark_dirty(static_cast<unsigned>(starving));
  }
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
  last_column_ = now;
  any_column_ = true;
  const unsigned g = group_of(pick.bank);
  group_column_[g] = now;
  group_used_[g] = 1;
  if (d.req.write) {
    last_write_end_ = std::max(last_write_end_, d.data_end);
    any_write_ = true;
    // With tWR zero the PRE need not wait for the write's data (the model before tWR existed).
    if (t_.tWR != sc_core::SC_ZERO_TIME) b.write_recovered = std::max(b.write_recovered, d.data_end + t_.tWR);
  } else {
    last_read_end_ = std::max(last_read_end_, d.data_end);
    any_read_ = true;
  }
  issued.push_back(d);
}

sc_time DramChannel::activate_in_gap(sc_time t, const sc_time& now) {
  // ACTs this far before now constrain none at or after now.
  const sc_time reach = std::max(t_.tRRD, t_.tFAW);
  size_t old = 0;
  while (old < act_times_.size() && act_times_[old] + reach <= now) ++old;
  act_times_.erase(act_times_.begin(), act_times_.begin() + long(old));
  const std::vector<sc_time>& v = act_times_;
  for (bool moved = true; moved;) {
    moved = false;
    const size_t p = size_t(std::upper_bound(v.begin(), v.end(), t) - v.begin());  // t goes before v[p]
    if (p > 0 && t < v[p - 1] + t_.tRRD) t = v[p - 1] + t_.tRRD, moved = true;
    else if (p < v.size() && v[p] < t + t_.tRRD) t = v[p] + t_.tRRD, moved = true;
    if (moved || t_.tFAW == sc_core::SC_ZERO_TIME) continue;
    // Every five consecutive ACTs with t among them span at least tFAW. In
    // the list with t at index p, group s holds indices s..s+4.
    auto at = [&](size_t i) { return i < p ? v[i] : i == p ? t : v[i - 1]; };
    for (size_t s = p >= 4 ? p - 4 : 0; s <= p && s + 4 <= v.size(); ++s) {
      if (at(s + 4) - at(s) >= t_.tFAW) continue;
      // Later than the group's first by tFAW, or, t being the first, past the next ACT.
      t = s < p ? at(s) + t_.tFAW : v[p] + t_.tRRD;
      moved = true;
      break;
    }
  }
  act_times_.insert(std::upper_bound(act_times_.begin(), act_times_.end(), t), t);
  return t;
}

sc_time DramChannel::activate_at(sc_time at, const sc_time& now) {
  if (t_.tRRD == sc_core::SC_ZERO_TIME && t_.tFAW == sc_core::SC_ZERO_TIME) return at;
  if (t_.act_in_time_order) return activate_in_gap(at, now);
  // ACTs are recorded in the order they are decided, each no earlier than the last.
  if (acts_count_) at = std::max(at, last_act_ + t_.tRRD);
  if (acts_count_ >= 4) at = std::max(at, acts_[acts_next_] + t_.tFAW);  // the fourth ACT back
  acts_[acts_next_] = at;
  acts_next_ = (acts_next_ + 1) % 4;
  last_act_ = at;
  ++acts_count_;
  return at;
}

void DramChannel::refresh(const sc_time& now) {
  if (t_.tREFI == sc_core::SC_ZERO_TIME || now < next_refresh_) return;
  // The latest refresh due by now; earlier ones (the channel idle meanwhile) are over.
  const sc_time interval = refresh_interval();
  const double missed = std::floor((now - next_refresh_) / interval);
  const sc_time due = next_refresh_ + interval * missed;
  refreshes_ += static_cast<uint64_t>(missed) + 1;
  next_refresh_ = due + interval;
  if (t_.tRFCsb != sc_core::SC_ZERO_TIME) {
    // The banks take turns; those whose turns passed while idle are done.
    next_refresh_bank_ = static_cast<unsigned>((next_refresh_bank_ + static_cast<uint64_t>(missed)) % banks_.size());
    refresh_bank(next_refresh_bank_, due);
    next_refresh_bank_ = (next_refresh_bank_ + 1) % banks_.size();
    return;
  }
  // Precharge all: once every open row's tRAS and write recovery allow, and the data bus is quiet.
  sc_time start = std::max(due, bus_free_);
  bool any_open = false;
  for (const Bank& b : banks_)
    if (b.open) {
      any_open = true;
      start = std::max({start, b.act_at + t_.tRAS, b.write_recovered});
    }
  const sc_time end = start + (any_open ? t_.tRP : sc_core::SC_ZERO_TIME) + t_.tRFC;
  for (unsigned bi = 0; bi < banks_.size(); ++bi) {
    Bank& b = banks_[bi];
    b.open = false;
    b.hit_seq = kNone;
    b.ready = std::max(b.ready, end);
    b.opening = false;
    if (!b.queue.empty()) mark_dirty(bi);
  }
  opening_.clear();
  opening_ready_ = never_;
}

void DramChannel::refresh_bank(unsigned bi, const sc_time& due) {
  Bank& b = banks_[bi];
  // Precharge the bank once its tRAS and write recovery allow, then refresh it for tRFCsb.
  sc_time start = due;
  if (b.open) start = std::max({start, b.act_at + t_.tRAS, b.write_recovered});
  const sc_time end = start + (b.open ? t_.tRP : sc_core::SC_ZERO_TIME) + t_.tRFCsb;
  b.open = false;
  b.hit_seq = kNone;
  b.ready = std::max(b.ready, end);
  if (b.opening) {  // a row it was opening is not opened: its ready time is the refresh's end
    b.opening = false;
    opening_.erase(std::find(opening_.begin(), opening_.end(), bi));
    opening_ready_ = never_;
    for (unsigned o : opening_) opening_ready_ = std::min(opening_ready_, banks_[o].ready);
  }
  if (!b.queue.empty()) mark_dirty(bi);
}

void DramChannel::open_row(Bank& bank, const sc_time& now) {
  DramRequest& r = bank.queue.front();
  sc_time act = now;
  if (bank.open) {
    const sc_time pre = std::max({now, bank.act_at + t_.tRAS, bank.write_recovered});
    act = pre + t_.tRP;
    r.outcome = RowOutcome::Conflict;
  } else {
    r.outcome = RowOutcome::Miss;
  }
  act = activate_at(act, now);
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
  // Each bank's decision depends on its own state and requests only (and on
  // which bank holds a starving request), so the banks may be visited in any order.
  const int starving = starving_bank();
  for (unsigned bi : dirty_) {
    Bank& b = banks_[bi];
    b.dirty = false;
    if (b.queue.empty()) continue;
    // Open the bank for its oldest request unless it is open for it already or
    // busy opening; FR-FCFS keeps a row open while any queued request still hits
    // it, unless the bank's oldest request is starving.
    const bool keep_open = policy_ == Policy::FrFcfs && b.open && b.hit_seq != kNone && starving != int(bi);
    if (!hits_front(b) && b.ready <= now && !keep_open) open_row(b, now);
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
  refresh(now);
  sc_time bank_ready = prepare_banks(now);
  Pick pick{0, 0};
  sc_time column = never_;  // when the picked column may go, if it cannot now
  if (pick_column(now, pick)) {
    const sc_time at = column_time(pick, now);
    if (at <= now) {
      issue_column(pick, now, issued);
      // A row the column just finished with may now be closed for another request.
      bank_ready = prepare_banks(now);
    } else {
      column = at;
    }
  }
  if (queued_ == 0) return never_;
  // Next chance: the bus can take another column (or the picked one may go),
  // a bank finishes opening, or a refresh is due.
  sc_time next = std::min(bank_ready, column);
  if (bus_free_ > now + t_.tCL) next = std::min(next, bus_free_ - t_.tCL);
  if (t_.tREFI != sc_core::SC_ZERO_TIME) next = std::min(next, next_refresh_);
  if (next == never_ || next <= now) {
    // Every bank is ready and the bus is free, yet nothing went: cannot happen
    // (the oldest request either hits an open row or gets its bank opened).
    next = now + t_.burst_time;
  }
  return next;
}

}  // namespace tessera
