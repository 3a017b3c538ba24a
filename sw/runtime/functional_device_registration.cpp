// Makes the functional Tessera device available to host programs and tools by
// name, reading code objects from the kernels this build compiled.
#include "platform/functional_device.h"
#include "sw/runtime/device_registry.h"

namespace tessera::runtime {
namespace {

const DeviceRegistrar functional_registrar{
    "tessera-functional", "Tessera ISA-level functional executor (gfx90a, no timing)",
    [] { return std::make_unique<FunctionalDevice>(TESSERA_KERNEL_BINARY_DIR); }};

}  // namespace
}  // namespace tessera::runtime
