// What a platform still has in hand when a run stops unfinished (the
// platform went idle with work outstanding, or a time limit was reached):
// each block's describe_pending() lines, for the error the user sees.
#pragma once
#include <cstddef>
#include <string>

namespace tessera {

class Platform;

// "\nstill in hand:\n  line\n  ..." with at most `per_block` lines of each
// block and `max_lines` in all (saying how many more there were); empty when
// no block has anything in hand.
std::string pending_report(const Platform& platform, size_t per_block = 6, size_t max_lines = 40);

}  // namespace tessera
