// Devices that host programs can run on, by name. Each implementation registers
// itself from its own file with a static registrar ("pocl" from pocl_device.cpp,
// "tessera-functional" from the functional executor), so a tool or test asks for
// a device by name and never includes an implementation's header.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/runtime/device.h"

namespace tessera::runtime {

using DeviceFactory = std::function<std::unique_ptr<Device>()>;

struct DeviceInfo {
  std::string name;
  std::string doc;  // one line for listings
  DeviceFactory create;
};

// Registering the same name twice is a bug and aborts with a message.
void register_device(const std::string& name, const std::string& doc, DeviceFactory factory);

// Registered devices in name order.
std::vector<DeviceInfo> registered_devices();
std::vector<std::string> device_names();
bool has_device(const std::string& name);

// Builds a device; throws DeviceError naming the registered devices if `name` is unknown.
std::unique_ptr<Device> create_device(const std::string& name);

struct DeviceRegistrar {
  DeviceRegistrar(const std::string& name, const std::string& doc, DeviceFactory factory) {
    register_device(name, doc, std::move(factory));
  }
};

}  // namespace tessera::runtime
