#include "models/noc/address_map.h"

#include <algorithm>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

using json = nlohmann::ordered_json;

int AddressRegion::port_of(uint64_t addr) const {
  if (interleave == 0) return ports.front();
  return ports[((addr - base) / interleave) % ports.size()];
}

uint64_t AddressRegion::chunk_first(uint64_t addr) const {
  if (interleave == 0 || ports.size() == 1) return base;
  return base + ((addr - base) / interleave) * interleave;
}

uint64_t AddressRegion::chunk_last(uint64_t addr) const {
  if (interleave == 0 || ports.size() == 1) return last();
  const uint64_t first = chunk_first(addr);
  // min() in this order cannot overflow: the chunk may run past the region's end.
  return first + std::min(interleave - 1, last() - first);
}

namespace {

uint64_t address_value(const json& v, const std::string& where) {
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)) return v.get<uint64_t>();
  if (v.is_string()) {
    try {
      return parse_size(v.get<std::string>());
    } catch (const UserError& e) {
      throw UserError(where + ": " + e.what());
    }
  }
  throw UserError(where + ": expected a non-negative integer or a size string such as \"0x1000\", got " + v.dump());
}

AddressRegion parse_region(const json& e, int port_count, const std::string& where) {
  if (!e.is_object())
    throw UserError(where + ": expected an object {\"base\", \"size\", \"ports\", \"interleave\"}, got " + e.dump());
  for (const auto& item : e.items()) {
    const std::string& k = item.key();
    if (k != "base" && k != "size" && k != "ports" && k != "interleave")
      throw UserError(where + ": unknown key \"" + k + "\"; expected base, size, ports, interleave");
  }
  for (const char* k : {"base", "size", "ports"})
    if (!e.contains(k)) throw UserError(where + ": missing \"" + k + "\"");
  AddressRegion r;
  r.base = address_value(e["base"], where + ".base");
  r.size = address_value(e["size"], where + ".size");
  r.interleave = e.contains("interleave") ? address_value(e["interleave"], where + ".interleave") : 0;
  if (r.size == 0) throw UserError(where + ".size: must be at least 1 byte");
  if (r.base + (r.size - 1) < r.base)
    throw UserError(where + ": base " + hex(r.base) + " + size " + hex(r.size) + " wraps around the address space");
  const json& ports = e["ports"];
  if (!ports.is_array() || ports.empty())
    throw UserError(where + ".ports: expected a non-empty array of output port numbers, got " + ports.dump());
  for (size_t i = 0; i < ports.size(); ++i) {
    const json& p = ports[i];
    if (!p.is_number_integer() || p.get<int64_t>() < 0 || p.get<int64_t>() >= port_count)
      throw UserError(where + ".ports[" + std::to_string(i) + "]: " + p.dump() + " is not an output port; expected 0.." +
                      std::to_string(port_count - 1) + " (" + std::to_string(port_count) + " out sockets bound)");
    r.ports.push_back(p.get<int>());
  }
  if (r.ports.size() > 1 && r.interleave == 0)
    throw UserError(where + ": " + std::to_string(r.ports.size()) +
                    " ports need an \"interleave\" granule (bytes per chunk); without it give exactly one port");
  return r;
}

}  // namespace

AddressMap AddressMap::from_json(const json& j, int port_count, const std::string& who) {
  if (!j.is_array()) throw UserError(who + ": address_map: expected an array of ranges, got " + j.dump());
  if (port_count <= 0) throw UserError(who + ": no out sockets are bound, so address_map cannot name any port");
  AddressMap map;
  for (size_t i = 0; i < j.size(); ++i)
    map.regions_.push_back(parse_region(j[i], port_count, who + ": address_map[" + std::to_string(i) + "]"));
  std::vector<size_t> order(map.regions_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return map.regions_[a].base < map.regions_[b].base; });
  std::vector<AddressRegion> sorted;
  for (size_t k = 0; k < order.size(); ++k) {
    const AddressRegion& r = map.regions_[order[k]];
    if (k > 0) {
      const AddressRegion& prev = map.regions_[order[k - 1]];
      if (r.base <= prev.last())
        throw UserError(who + ": address_map[" + std::to_string(order[k]) + "] [" + hex(r.base) + ", " + hex(r.last()) +
                        "] overlaps address_map[" + std::to_string(order[k - 1]) + "] [" + hex(prev.base) + ", " +
                        hex(prev.last()) + "]");
    }
    sorted.push_back(r);
  }
  map.regions_ = std::move(sorted);
  return map;
}

const AddressRegion* AddressMap::find(uint64_t addr) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const AddressRegion& r) { return a < r.base; });
  if (it == regions_.begin()) return nullptr;
  --it;
  return addr <= it->last() ? &*it : nullptr;
}

int AddressMap::decode(uint64_t addr, uint64_t len) const {
  const AddressRegion* r = find(addr);
  if (!r) return -1;
  const uint64_t last = len == 0 ? addr : addr + (len - 1);
  if (last < addr || last > r->chunk_last(addr)) return -1;
  return r->port_of(addr);
}

ParamSpec address_map_param() {
  return json_param("address_map", nullptr,
                    "array of {\"base\", \"size\", \"ports\": [out port...], \"interleave\": bytes (0 = "
                    "none)}; with interleave, consecutive chunks go round-robin over ports, without it ports has "
                    "one entry");
}

}  // namespace tessera
