#include "models/lds/lds_bank_model.h"

#include <algorithm>

namespace tessera::lds {

namespace {
// The lanes [first, first + lanes) as a mask.
uint64_t lane_mask(unsigned first, unsigned lanes) { return (lanes == 64 ? ~0ull : ((1ull << lanes) - 1)) << first; }

// True when every active lane l in [lo, hi] reads dword base + stride * (l - lo).
// All lanes of the range active (the usual case) is a straight loop without
// early exits, which the compiler vectorises.
bool follows(const uint32_t* addr, uint64_t active, unsigned lo, unsigned hi, uint32_t base, uint32_t stride) {
  if (active == lane_mask(lo, hi - lo + 1)) {
    uint32_t differ = 0;
    for (unsigned l = lo; l <= hi; ++l) differ |= (addr[l] >> 2) ^ (base + stride * (l - lo));
    return differ == 0;
  }
  for (uint64_t m = active; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if ((addr[l] >> 2) != base + stride * (l - lo)) return false;
  }
  return true;
}
}  // namespace

LdsBankModel::LdsBankModel(unsigned banks)
    : banks_(banks),
      dwords_(64 * 2 * 4),  // lanes x addresses x dwords per address of the widest DS forms
      by_bank_(dwords_.size()),
      bank_count_(banks),
      bank_start_(banks + 1),
      first_dword_(banks) {}

LdsCost LdsBankModel::cost(const LdsRequest& req) {
  const unsigned dwords = std::max(1u, (req.bytes + 3) / 4) * std::max(1u, req.addresses_per_lane);
  const unsigned group = std::max(1u, banks_ / dwords);
  LdsCost c;
  c.cycles = 0;
  unsigned active_groups = 0;
  for (unsigned first = 0; first < 64; first += group) {
    const unsigned lanes = std::min(group, 64 - first);
    const uint64_t mask = lane_mask(first, lanes);
    if (!(req.exec & mask)) continue;
    ++active_groups;
    c.cycles += group_cost(req, first, lanes, dwords);
  }
  c.conflict_cycles = c.cycles - active_groups;
  c.cycles = std::max(1u, c.cycles);
  return c;
}

// The commonest layouts, checked without any bank bookkeeping: in every
// address slot the active lanes either all read the same address (a
// broadcast) or read consecutive dwords (lane l at per_address * l dwords from
// the group's first active lane). Either way one slot's dwords are distinct
// banks' as long as they fit in the banks; two slots must also not overlap
// modulo the banks, or be the very same dwords.
bool LdsBankModel::consecutive(const LdsRequest& req, unsigned first, unsigned lanes, unsigned per_address) const {
  const uint64_t active = req.exec & lane_mask(first, lanes);
  const unsigned lo = static_cast<unsigned>(__builtin_ctzll(active));
  const unsigned hi = 63 - static_cast<unsigned>(__builtin_clzll(active));
  uint32_t start[2] = {0, 0}, span[2] = {0, 0};
  for (unsigned a = 0; a < req.addresses_per_lane; ++a) {
    const uint32_t* const addr = req.addr[a];
    const uint32_t base = addr[lo] >> 2;
    const bool broadcast = (addr[hi] >> 2) == base;
    const uint32_t stride = broadcast ? 0 : per_address;
    if (!follows(addr, active, lo, hi, base, stride)) return false;
    start[a] = base;
    span[a] = broadcast ? per_address : (hi - lo + 1) * per_address;
    if (span[a] > banks_) return false;
  }
  if (req.addresses_per_lane < 2 || (start[0] == start[1] && span[0] == span[1])) return true;
  const uint32_t apart = (start[1] - start[0]) & (banks_ - 1);
  return apart >= span[0] && banks_ - apart >= span[1];
}

// The usual case, checked first because it is cheap: no bank is asked for two
// different dwords (lanes of one dword share it), so the group takes one cycle.
bool LdsBankModel::conflict_free(const LdsRequest& req, unsigned first, unsigned lanes, unsigned per_address) {
  const uint64_t group = lane_mask(first, lanes);
  const uint32_t bank_mask = banks_ - 1;
  uint32_t* const owner = first_dword_.data();
  uint64_t used = 0;  // banks holding a dword of this group; owner[] says which
  auto claim = [&](uint32_t dword) {
    const unsigned bank = dword & bank_mask;
    const uint64_t bit = uint64_t{1} << bank;
    if (!(used & bit)) {
      used |= bit;
      owner[bank] = dword;
      return true;
    }
    return owner[bank] == dword;
  };
  for (unsigned a = 0; a < req.addresses_per_lane; ++a) {
    const uint32_t* const addr = req.addr[a];
    for (uint64_t active = req.exec & group; active; active &= active - 1) {
      const uint32_t base = addr[__builtin_ctzll(active)] >> 2;
      if (per_address == 1) {  // b32: the common case, without the inner loop
        if (!claim(base)) return false;
        continue;
      }
      for (unsigned k = 0; k < per_address; ++k)
        if (!claim(base + k)) return false;
    }
  }
  return true;
}

// The largest number of distinct dwords one bank must deliver for the active
// lanes [first, first + lanes). A group holds at most `banks` dwords when it
// is conflict-free, but a bank may see up to lanes * dwords of them.
unsigned LdsBankModel::group_cost(const LdsRequest& req, unsigned first, unsigned lanes, unsigned dwords) {
  const unsigned per_address = dwords / std::max(1u, req.addresses_per_lane);
  if (banks_ <= 64 && (consecutive(req, first, lanes, per_address) || conflict_free(req, first, lanes, per_address)))
    return 1;
  // Bucket the group's dwords by bank (a counting sort), then count the
  // distinct ones of each bank that could beat the worst so far.
  const uint32_t bank_mask = banks_ - 1;
  const size_t most = size_t(lanes) * req.addresses_per_lane * per_address;
  if (most > dwords_.size()) {
    dwords_.resize(most);
    by_bank_.resize(most);
  }
  std::fill(bank_count_.begin(), bank_count_.end(), 0);
  size_t n = 0;
  for (unsigned l = first; l < first + lanes; ++l) {
    if (!((req.exec >> l) & 1)) continue;
    for (unsigned a = 0; a < req.addresses_per_lane; ++a) {
      const uint32_t base = req.addr[a][l] >> 2;
      for (unsigned k = 0; k < per_address; ++k) {
        dwords_[n++] = base + k;
        ++bank_count_[(base + k) & bank_mask];
      }
    }
  }
  bank_start_[0] = 0;
  for (unsigned b = 0; b < banks_; ++b) bank_start_[b + 1] = bank_start_[b] + bank_count_[b];
  for (size_t i = 0; i < n; ++i) by_bank_[bank_start_[dwords_[i] & bank_mask]++] = dwords_[i];
  // bank_start_[b] now ends bank b's dwords; bank b's begin at bank_start_[b] - bank_count_[b].
  unsigned worst = 0;
  for (unsigned b = 0; b < banks_; ++b) {
    const unsigned count = bank_count_[b];
    if (count <= worst) continue;  // cannot hold more distinct dwords than that
    const uint32_t* d = by_bank_.data() + (bank_start_[b] - count);
    unsigned distinct = 0;
    for (unsigned i = 0; i < count; ++i)
      distinct += std::find(d, d + i, d[i]) == d + i;
    worst = std::max(worst, distinct);
  }
  return std::max(worst, 1u);
}

}  // namespace tessera::lds
