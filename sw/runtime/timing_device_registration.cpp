// Makes the timing Tessera device available to host programs and tools by
// name: the netlist from TimingDevice::default_netlist_file() ($TESSERA_NETLIST,
// else json/platforms/small_gpu.json of this source tree), code objects from
// the kernels this build compiled.
#include "platform/timing_device.h"
#include "sw/runtime/device_registry.h"

namespace tessera::runtime {
namespace {

const DeviceRegistrar timing_registrar{
    "tessera-timing", "Tessera cycle-level platform from a netlist ($TESSERA_NETLIST, default small_gpu.json)",
    [] {
      TimingDeviceOptions o;
      o.netlist_file = TimingDevice::default_netlist_file(TESSERA_KERNEL_SOURCE_DIR);
      o.kernel_dir = TESSERA_KERNEL_BINARY_DIR;
      return std::make_unique<TimingDevice>(std::move(o));
    }};

}  // namespace
}  // namespace tessera::runtime
