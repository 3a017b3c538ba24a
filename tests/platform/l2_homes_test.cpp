// Which L2 organisation a netlist builds (platform/l2_homes.h): found from its
// bindings, so that the command processor's policy cannot be told wrong.
#include <catch2/catch.hpp>

#include "platform/l2_homes.h"
#include "platform/netlist.h"

using namespace tessera;

namespace {

bool homes(const std::string& name) {
  return l2s_serve_other_chiplets(
      load_netlist_file(std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + name + ".json"));
}

}  // namespace

TEST_CASE("l2 homes: a chiplet network that feeds L2 slices makes them home L2s", "[netlist][l2_homes]") {
  // The network delivers to home_xbar, which feeds the slices' second port.
  CHECK(homes("cpelide_4chiplet_home_l2"));
  CHECK(homes("cpelide_4chiplet"));  // the same, pages placed by first touch
}

TEST_CASE("l2 homes: L2 misses that cross the network to memory make requester L2s", "[netlist][l2_homes]") {
  // The L2s' misses reach the network; the network's requests reach L3s and
  // memory only (the HMG invalidations travel other sockets).
  for (const char* name : {"cpelide_4chiplet_requester_l2", "chiplet2_small", "chiplet4_small", "chiplet8_small",
                           "mi200_2chiplet", "small_gpu", "r9_nano"}) {
    INFO(name);
    CHECK_FALSE(homes(name));
  }
}
