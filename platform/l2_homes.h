// Whether a chiplet's L2 serves the other chiplets' requests for the lines
// homed on its chiplet (the home-L2 organisation: a line is cached in one L2
// only, its home chiplet's) or keeps what its own compute units touch,
// wherever it is homed (the requester-L2 organisation). A command-processor
// policy that acts on L2 copies must know which: the rules that keep
// requesters' copies coherent are not sound for home copies (docs/CPELIDE.md).
#pragma once

#include "platform/netlist.h"

namespace tessera {

// The platform's answer, in its SharedObjects under kL2HomesName, read by the
// command processor (CP_REG_L2_HOMES). A context without a platform (a unit
// test's) gets the default: requester L2s.
struct L2Homes {
  bool serve_other_chiplets = false;
};
constexpr const char* kL2HomesName = "l2_homes";

// True if an l2_cache's "in" socket is reached from a chiplet_network's "out"
// sockets along request paths (each binding from an "out" socket to an "in"
// socket, through any blocks between: a crossbar in front of the slices).
bool l2s_serve_other_chiplets(const Netlist& netlist);

}  // namespace tessera
