// "chiplet_network": the network between chiplets, a crossbar whose switch
// stage is a ChipletFabric (models/noc/chiplet_fabric.h): each chiplet's L2
// slices on in[], each chiplet's memory controllers on out[], both grouped by
// chiplet in order. Requests and responses between chiplets cross the
// topology's links; those within a chiplet take `latency`. The address map
// places memory: interleaved over the chiplets' outputs at its granularity
// ("interleave"), or, with placement first_touch, each page at the chiplet
// that touched it first.
#include <algorithm>

#include "models/noc/crossbar.h"
#include "platform/errors.h"

namespace tessera {

BlockType crossbar_block_type();

namespace {

// A crossbar's parameters and the chiplets' links.
struct ChipletNetworkConfig : CrossbarConfig {
  unsigned chiplets = 2;
  std::string topology, placement;
  unsigned mesh_columns = 0;
  double link_bandwidth = 0;
  unsigned link_latency = 0;
  unsigned flit_size = 16;
  uint64_t page_size = 0;
};

const ParamTable<ChipletNetworkConfig>& chiplet_network_param_table() {
  using C = ChipletNetworkConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .include(crossbar_param_table())
          .add(&C::chiplets, int_param("chiplets", 2, "chiplets; in[] and out[] are split evenly among them, in order",
                                       1.0, 64.0))
          .add(&C::topology, enum_param("topology", "ring", {"ring", "mesh", "switch", "full"}, "how the chiplets are linked"))
          .add(&C::mesh_columns, int_param("mesh_columns", 0, "chiplets per mesh row (0: the smallest square that holds them)",
                                           0.0, 64.0))
          .add(&C::link_bandwidth, bandwidth_param("link_bandwidth", "256 GB/s", "bandwidth of each link, each direction"))
          .add(&C::link_latency, int_param("link_latency", 20, "cycles a flit takes along one link", 0.0, 1e6, "cycles"))
          .add(&C::flit_size, size_param("flit_size", "16 B",
                                         "bytes per flit; a message takes ceil(bytes / flit_size) flits, at least one",
                                         1.0, 4096.0))
          .add(&C::placement, enum_param("placement", "interleave", {"interleave", "first_touch"},
                                         "interleave: the address map's chunks round-robin over the outputs; "
                                         "first_touch: a page lives on the chiplet whose request touched it first"))
          .add(&C::page_size, size_param("page_size", "4 KiB", "placement granularity for first_touch", 64.0,
                                         1099511627776.0));
  return table;
}

}  // namespace

BlockType chiplet_network_block_type() {
  BlockType t = crossbar_block_type();
  t.name = "chiplet_network";
  t.doc = "Network between chiplets: a crossbar (per-port links, finite buffers) whose switch stage is the links "
          "of a ring, 2D mesh, central switch or fully connected topology, each with bandwidth, latency and flit "
          "size; memory interleaved over chiplets by the address map or placed by first touch";
  t.params = chiplet_network_param_table().specs();
  for (ParamSpec& p : t.params)
    if (p.name == "latency") p.doc = "cycles a request or response takes within one chiplet (no link crossed)";
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    const std::string who = "chiplet_network '" + ctx.path + "'";
    AddressMap map = AddressMap::from_json(ctx.params.raw("address_map"), ctx.socket_count("out"), who);
    if (ctx.socket_count("in") <= 0) throw UserError(who + ": no in sockets are bound");
    const ChipletNetworkConfig n = chiplet_network_param_table().read(ctx.params);
    ChipletFabric::Config c;
    c.chiplets = n.chiplets;
    c.topology = ChipletFabric::topology_of(n.topology);
    c.mesh_columns = n.mesh_columns;
    c.link_bytes_per_second = n.link_bandwidth;
    c.link_latency = ctx.clock_period * static_cast<double>(n.link_latency);
    c.local_latency = ctx.clock_period * static_cast<double>(n.latency);
    c.flit_bytes = n.flit_size;
    auto fabric = std::make_unique<ChipletFabric>(c, *ctx.stats, ctx.path, ctx.clock_period);
    if (ctx.shared) {  // for coherence hmg's invalidation messages
      ChipletFabricRef& ref = ctx.shared->get<ChipletFabricRef>("chiplet_network");
      ref.fabric = fabric.get();
      ref.owner = ctx.path;
      ++ref.networks;
    }
    const uint64_t page = n.placement == "first_touch" ? n.page_size : 0;
    return std::make_unique<Crossbar>(ctx, std::move(map), std::move(fabric), page);
  };
  return t;
}

TESSERA_REGISTER_BLOCK(chiplet_network_block_type);

}  // namespace tessera
