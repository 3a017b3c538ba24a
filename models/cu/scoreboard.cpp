#include "models/cu/scoreboard.h"

#include <algorithm>

namespace tessera {

void Scoreboard::reset(unsigned slots, unsigned vgprs) {
  ready_.assign(slots, 0);
  busy_.assign(slots, 0);
  writers_.assign(slots, 0);
  vgprs_ = vgprs;
  size_ = slots;
}

uint64_t Scoreboard::operands_ready(const InstInfo& info) const {
  uint64_t r = 0;
  for (unsigned k = 0; k < info.reads; ++k) {
    unsigned first, end;
    bounds(info.read_runs[k], first, end);
    for (unsigned s = first; s < end; ++s) r = std::max(r, ready_[s]);
  }
  return r;
}

uint64_t Scoreboard::results_ready(const InstInfo& info) const {
  uint64_t r = 0;
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    bounds(info.write_runs[k], first, end);
    for (unsigned s = first; s < end; ++s) r = std::max(r, ready_[s]);
  }
  return r;
}

void Scoreboard::mark_results(const InstInfo& info, uint64_t when) {
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    bounds(info.write_runs[k], first, end);
    for (unsigned s = first; s < end; ++s) ready_[s] = when;
  }
}

void Scoreboard::memory_issued(const InstInfo& info, uint64_t lanes) {
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    bounds(info.write_runs[k], first, end);
    for (unsigned s = first; s < end; ++s) {
      busy_[s] |= lanes;
      if (writers_[s] < UINT8_MAX) ++writers_[s];
    }
  }
}

void Scoreboard::memory_completed(const InstInfo& info) {
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    bounds(info.write_runs[k], first, end);
    for (unsigned s = first; s < end; ++s)
      if (writers_[s] && --writers_[s] == 0) busy_[s] = 0;
  }
}

uint64_t Scoreboard::busy_operand_lanes(const InstInfo& info) const {
  uint64_t lanes = 0;
  for (unsigned k = 0; k < info.reads; ++k) {
    unsigned first, end;
    bounds(info.read_runs[k], first, end);
    for (unsigned s = first; s < end; ++s) lanes |= busy_[s];
  }
  return lanes;
}

}  // namespace tessera
