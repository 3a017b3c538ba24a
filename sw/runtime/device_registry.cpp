#include "sw/runtime/device_registry.h"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace tessera::runtime {
namespace {

// Function-local so that registrars in other translation units can run in any
// static-initialisation order. Filled once at start-up, read-only afterwards.
std::map<std::string, DeviceInfo>& table() {
  static std::map<std::string, DeviceInfo> devices;
  return devices;
}

}  // namespace

void register_device(const std::string& name, const std::string& doc, DeviceFactory factory) {
  if (name.empty() || !factory) {
    std::fprintf(stderr, "tessera: device registration needs a name and a factory\n");
    std::abort();
  }
  if (!table().emplace(name, DeviceInfo{name, doc, std::move(factory)}).second) {
    std::fprintf(stderr, "tessera: device '%s' registered twice\n", name.c_str());
    std::abort();
  }
}

std::vector<DeviceInfo> registered_devices() {
  std::vector<DeviceInfo> out;
  for (const auto& [name, info] : table()) out.push_back(info);
  return out;
}

std::vector<std::string> device_names() {
  std::vector<std::string> out;
  for (const auto& [name, info] : table()) out.push_back(name);
  return out;
}

bool has_device(const std::string& name) { return table().count(name) != 0; }

std::unique_ptr<Device> create_device(const std::string& name) {
  auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    for (const auto& n : device_names()) known += (known.empty() ? "" : ", ") + n;
    throw DeviceError("unknown device '" + name + "'; registered devices: " + (known.empty() ? "none" : known));
  }
  return it->second.create();
}

}  // namespace tessera::runtime
