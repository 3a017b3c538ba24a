// The "address_map" lists: each entry gives a router a range of addresses and
// the output ports that serve it. They become the router instance's
// `address_map` parameter: [{"base", "size", "ports": [...], "interleave"}],
// in bytes, so that any block type with a Json parameter named address_map can
// route without parsing unit strings itself.
#include <algorithm>

#include "models/cu/isa/hex.h"
#include "platform/errors.h"
#include "platform/netlist_builder.h"
#include "platform/netlist_json.h"
#include "platform/netlist_names.h"
#include "platform/units.h"

namespace tessera {
namespace {

const std::vector<std::string> kEntryKeys = {"router", "to", "base", "size", "interleave"};

// "0x10000000", "1 GiB" or a plain non-negative integer, in bytes.
uint64_t address_value(const json& v, const std::string& path, const char* example) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_string()) {
    // A bare decimal number is a byte address; anything else needs a unit or 0x.
    const std::string text = v.get<std::string>();
    if (!text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string::npos)
      return std::stoull(text);
    try {
      return parse_size(v.get<std::string>());
    } catch (const UserError& e) {
      throw NetlistError(path, e.what());
    }
  }
  throw NetlistError(path, std::string("expected a size or address such as ") + example + ", got " + describe_json(v));
}

}  // namespace

void NetlistBuilder::resolve_address_maps() {
  std::map<std::string, json> maps;  // router path -> its address_map parameter
  for (const ScopedList& list : address_lists_)
    for (size_t n = 0; n < list.list->size(); ++n)
      resolve_address_entry((*list.list)[n], json_path(list.json_path, n), list.prefix, maps);
  for (auto& [router, map] : maps) {
    out_.instances[instance_number(router)].params.set("address_map", std::move(map));  // (checked: a block)
  }
  for (const InstanceSpec& inst : out_.instances) {
    const ParamSpec* spec = inst.type->param("address_map");
    if (spec && spec->kind == ParamKind::Json && !inst.params.count("address_map"))
      throw NetlistError(inst.error_path(), "missing required parameter \"address_map\" of type " + inst.type->name +
                                                ": give router " + inst.path + " its ranges in \"address_map\"");
  }
}

void NetlistBuilder::resolve_address_entry(const json& entry, const std::string& path, const std::string& prefix,
                                           std::map<std::string, json>& maps) {
  if (!entry.is_object())
    throw NetlistError(path, "expected an object such as {\"router\": \"xbar\", \"to\": \"out[0..3]\", \"base\": "
                             "\"0x0\", \"size\": \"1 GiB\"}, got " + describe_json(entry));
  for (const auto& [key, value] : entry.items())
    if (std::find(kEntryKeys.begin(), kEntryKeys.end(), key) == kEntryKeys.end())
      throw NetlistError(json_path(path, key),
                         "unknown key \"" + key + "\" in an address map entry; expected router, to, base, size, interleave");
  for (const char* key : {"router", "to", "base", "size"})
    if (!entry.contains(key)) throw NetlistError(path, std::string("missing \"") + key + "\" in an address map entry");

  // The router: an instance whose type takes an address_map.
  const json& router_name = entry["router"];
  if (!router_name.is_string())
    throw NetlistError(json_path(path, "router"), "expected an instance name, got " + describe_json(router_name));
  const std::string router = prefix + router_name.get<std::string>();
  const size_t number = instance_number(router);
  if (number == kNoInstance) throw NetlistError(json_path(path, "router"), "no instance named \"" + router + "\"");
  const InstanceSpec& inst = out_.instances[number];
  const ParamSpec* map_spec = inst.type->param("address_map");
  if (!map_spec || map_spec->kind != ParamKind::Json)
    throw NetlistError(json_path(path, "router"), "instance " + router + " (type " + inst.type->name +
                                                      ") is not a router: its type has no address_map parameter");
  if (explicit_address_maps_.count(router))
    throw NetlistError(json_path(path, "router"), "router " + router +
                                                      " also sets its address_map parameter directly; use one or the other");

  // The ports: a vector initiator socket of the router, indices that are bound.
  const json& to = entry["to"];
  if (!to.is_string()) throw NetlistError(json_path(path, "to"), "expected ports such as \"out[0..3]\", got " + describe_json(to));
  NameSegment ports;
  try {
    ports = parse_segment(to.get<std::string>(), SegmentSyntax{true, false, false});
  } catch (const UserError& e) {
    throw NetlistError(json_path(path, "to"), e.what());
  }
  const SocketSpec* sock = inst.type->socket(ports.base);
  if (!sock || sock->dir != SocketDir::Initiator || !sock->vector || ports.index == NameSegment::Index::None)
    throw NetlistError(json_path(path, "to"), "\"" + to.get<std::string>() + "\" names no output port of router " +
                                                  router + "; expected its vector initiator socket with indices, such as out[0..3]");
  const int bound = inst.socket_counts.count(ports.base) ? inst.socket_counts.at(ports.base) : 0;
  json port_list = json::array();
  for (int64_t p = ports.first; p <= ports.last; ++p) {
    if (p >= bound)
      throw NetlistError(json_path(path, "to"), "port " + indexed_name(ports.base, p) + " of router " + router +
                                                    " is not bound (" + std::to_string(bound) + " bound)");
    port_list.push_back(p);
  }

  // The range.
  const uint64_t base = address_value(entry["base"], json_path(path, "base"), "\"0x10000000\"");
  const uint64_t size = address_value(entry["size"], json_path(path, "size"), "\"1 GiB\"");
  uint64_t interleave = 0;
  if (size == 0) throw NetlistError(json_path(path, "size"), "an address range cannot be empty");
  if (base + size < base) throw NetlistError(json_path(path, "size"), "the range runs past the end of the 64-bit address space");
  if (entry.contains("interleave")) {
    interleave = address_value(entry["interleave"], json_path(path, "interleave"), "\"4 KiB\"");
    if (interleave == 0 || size % interleave != 0)
      throw NetlistError(json_path(path, "interleave"), "the interleave must be positive and divide the size (" +
                                                            hex(size) + ")");
  }

  json& map = maps.emplace(router, json::array()).first->second;
  std::vector<std::string>& origins = range_origins_[router];
  for (size_t k = 0; k < map.size(); ++k) {
    const uint64_t ob = map[k]["base"].get<uint64_t>(), oe = ob + map[k]["size"].get<uint64_t>();
    if (base < oe && ob < base + size)
      throw NetlistError(path, "range [" + hex(base) + ", " + hex(base + size) + ") overlaps [" +
                                   hex(ob) + ", " + hex(oe) + ") of " + origins[k] +
                                   " on router " + router);
  }
  origins.push_back(path);
  map.push_back({{"base", base}, {"size", size}, {"ports", port_list}, {"interleave", interleave}});
  ++out_.address_ranges;
}

}  // namespace tessera
