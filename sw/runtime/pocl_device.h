// A Device on PoCL, the CPU OpenCL implementation, used as the oracle that
// Tessera's devices are compared against.
//
// Device addresses are synthetic: each allocation gets a distinct, aligned range
// in a private address space and maps to one cl_mem. Reads and writes may start
// anywhere inside an allocation; a kernel pointer argument must be an
// allocation's base address (OpenCL 1.2 cannot bind a buffer at an offset
// without sub-buffers). Programs are built from sw/kernels/<program>.cl.
#pragma once
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <map>
#include <string>

#include "sw/runtime/device.h"

namespace tessera::runtime {

class PoclDevice : public Device {
 public:
  // Picks the PoCL platform among the installed OpenCL platforms; throws
  // DeviceError if there is none. `kernel_dir` holds the .cl sources.
  explicit PoclDevice(std::string kernel_dir = TESSERA_KERNEL_SOURCE_DIR);
  ~PoclDevice() override;
  PoclDevice(const PoclDevice&) = delete;
  PoclDevice& operator=(const PoclDevice&) = delete;

  std::string name() const override { return "pocl"; }
  DevicePtr alloc(size_t bytes) override;
  void free(DevicePtr p) override;
  void write(DevicePtr dst, const void* src, size_t bytes) override;
  void read(void* dst, DevicePtr src, size_t bytes) override;
  LaunchStats launch(const std::string& program, const std::string& kernel, Dim3 global, Dim3 local,
                     const KernelArgs& args) override;

 private:
  struct Allocation {
    cl_mem mem = nullptr;
    size_t bytes = 0;
  };
  // The allocation holding [addr, addr + bytes) (its base and record), or a
  // DeviceError naming the range.
  std::map<DevicePtr, Allocation>::const_iterator find(DevicePtr addr, size_t bytes, const char* what) const;
  cl_program program(const std::string& name);
  cl_kernel kernel(const std::string& program_name, const std::string& kernel_name);
  void set_args(cl_kernel k, const std::string& kernel_name, const KernelArgs& args);

  std::string kernel_dir_;
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::map<DevicePtr, Allocation> allocations_;
  DevicePtr next_address_ = 0x100000000ull;  // well away from 0, which is never valid
  std::map<std::string, cl_program> programs_;
  std::map<std::string, cl_kernel> kernels_;  // key: program + "/" + kernel
};

}  // namespace tessera::runtime
