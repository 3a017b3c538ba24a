// Coherence hmg (docs/CPELIDE.md, "HMG"): the L2 writes through to memory,
// the directory of each line's home chiplet records which chiplets fetched
// it, and a write invalidates the copies of the other chiplets. Directory
// evictions invalidate the lines of the evicted entry at its sharers. Each
// invalidation and its acknowledgement is a message over the platform's
// chiplet network (home -> sharer, sharer -> home), timed by its links.
#include "models/cache/cache.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tessera {

using sc_core::sc_time;

Cache::HmgStats::HmgStats(StatGroup& g)
    : directory_hits(g.counter("hmg_directory_hits", "directory lookups of this slice's fills and writes that found "
                                                     "their region's entry (at the line's home chiplet)")),
      directory_misses(g.counter("hmg_directory_misses", "directory lookups that found no entry")),
      directory_evictions(g.counter("hmg_directory_evictions",
                                    "directory entries this slice's fills replaced (their lines invalidated at their "
                                    "sharers)")),
      invalidations_sent(g.counter("hmg_invalidations_sent",
                                   "invalidation messages this slice's writes and directory evictions caused, one "
                                   "per sharer chiplet")),
      invalidations_received(g.counter("hmg_invalidations_received",
                                       "invalidations that dropped a line here (present, or being fetched)")),
      write_through_bytes(g.counter("hmg_write_through_bytes", "bytes of writes sent through to memory")),
      invalidation_wait_cycles(g.counter("hmg_invalidation_wait_cycles",
                                         "cycles this slice's write answers waited for their invalidations' "
                                         "acknowledgements (summed over writes)")) {}

namespace {
// The chiplet of an L2 slice: the index of its path's first instance,
// "chiplet[2].l2[0]" -> 2.
unsigned chiplet_of(const std::string& path) {
  const size_t open = path.find('['), dot = path.find('.');
  if (open == std::string::npos || (dot != std::string::npos && dot < open) || open + 1 >= path.size() ||
      !std::isdigit(static_cast<unsigned char>(path[open + 1])))
    throw UserError(path + ": coherence \"hmg\" needs the L2 inside an indexed chiplet instance (chiplet[c].l2...), "
                           "whose index is its chiplet");
  return static_cast<unsigned>(std::stoul(path.substr(open + 1)));
}
}  // namespace

void Cache::setup_hmg() {
  if (!cfg_.hmg) return;
  hmg_chiplet_ = chiplet_of(path());
  hmg_stats_ = std::make_unique<HmgStats>(stats());
  HmgDirectoryShape shape;
  shape.entries = cfg_.hmg_directory_entries;
  shape.ways = cfg_.hmg_directory_ways;
  shape.lines_per_entry = cfg_.hmg_lines_per_entry;
  shape.line_size = cfg_.line_size;
  hmg_ = &shared().get<HmgHomes>("hmg_homes");
  hmg_->join(this, hmg_chiplet_, shape, cfg_.hmg_home_interleave, path());
}

// The chiplet network is looked up once every block exists.
void Cache::connect_hmg() {
  if (!hmg_) return;
  const ChipletFabricRef& ref = shared().get<ChipletFabricRef>("chiplet_network");
  if (ref.networks != 1)
    throw UserError(path() + ": coherence \"hmg\" sends its invalidations over the platform's chiplet network (a "
                    "block of type chiplet_network), and the platform has " +
                    (ref.networks ? std::to_string(ref.networks) : std::string("none")));
  if (ref.fabric->chiplets() != hmg_->chiplets())
    throw UserError(path() + ": chiplet network '" + ref.owner + "' links " + std::to_string(ref.fabric->chiplets()) +
                    " chiplets, but the L2 slices with coherence \"hmg\" are in " + std::to_string(hmg_->chiplets()));
  hmg_network_ = ref.fabric;
}

void Cache::hmg_fetch(uint64_t line) {
  const unsigned home = hmg_->home_of(line);
  HmgDirectory& dir = hmg_->directory(home);
  const uint64_t hits = dir.hits;
  const HmgDirectory::Eviction ev = dir.add_sharer(hmg_->local_of(line), hmg_chiplet_);
  ++(dir.hits > hits ? hmg_stats_->directory_hits : hmg_stats_->directory_misses);
  if (!ev.happened) return;
  ++hmg_stats_->directory_evictions;
  hmg_send_invalidations(home, ev.sharers, hmg_->global_of(ev.region, home), dir.lines_per_entry());
}

void Cache::hmg_wrote_through(uint64_t bytes) { hmg_stats_->write_through_bytes += bytes; }

sc_time Cache::hmg_written(uint64_t line) {
  if (auto it = wb_in_flight_.find(line); it != wb_in_flight_.end() && --it->second == 0) {
    wb_in_flight_.erase(it);
    below_done(line);
  }
  const unsigned home = hmg_->home_of(line);
  HmgDirectory& dir = hmg_->directory(home);
  const uint64_t hits = dir.hits;
  const uint64_t others = dir.sharers_of(hmg_->local_of(line)) & ~(uint64_t{1} << hmg_chiplet_);
  ++(dir.hits > hits ? hmg_stats_->directory_hits : hmg_stats_->directory_misses);
  if (!others) return sc_core::SC_ZERO_TIME;
  const sc_time now = sim_now(), acked = hmg_send_invalidations(home, others, line, 1);
  const sc_time wait = acked > now ? acked - now : sc_core::SC_ZERO_TIME;
  hmg_stats_->invalidation_wait_cycles += static_cast<uint64_t>(std::ceil(wait / clock_period()));
  return wait;
}

// Every slice of a sharer chiplet is told: the one whose interleave holds the
// line drops it, the others find nothing. The home sends one message per
// sharer chiplet, which answers with one acknowledgement; both cross the
// chiplet network's links now, taking their bandwidth and waiting for them
// (the copies are dropped at once, which is never later than the message).
sc_time Cache::hmg_send_invalidations(unsigned home, uint64_t sharers, uint64_t first, unsigned lines) {
  const sc_time now = sim_now();
  sc_time acked = now;
  for (unsigned c = 0; c < hmg_->chiplets(); ++c) {
    if (!(sharers >> c & 1)) continue;
    ++hmg_stats_->invalidations_sent;
    const sc_time arrived = hmg_network_->traverse(home, c, cfg_.hmg_message_size, now);
    acked = std::max(acked, hmg_network_->traverse(c, home, cfg_.hmg_message_size, arrived));
    for (Cache* slice : hmg_->slices(c))
      for (unsigned k = 0; k < lines; ++k) slice->hmg_invalidate(first + uint64_t{k} * cfg_.line_size);
  }
  return acked;
}

void Cache::hmg_invalidate(uint64_t line) {
  if (cfg_.hmg_skip_invalidations) return;
  bool dropped = false;
  if (const int idx = array_.find(line); idx >= 0) {
    array_.invalidate(idx);
    dropped = true;
  }
  if (Mshr* m = mshr_of(line)) {
    m->install = false;
    dropped = true;
  }
  if (dropped) ++hmg_stats_->invalidations_received;
}

}  // namespace tessera
