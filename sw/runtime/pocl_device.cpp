#include "sw/runtime/pocl_device.h"

#include <fstream>
#include <sstream>
#include <vector>

#include "sw/runtime/device_registry.h"

namespace tessera::runtime {
namespace {

constexpr DevicePtr kAllocationAlignment = 1ull << 16;

void check(cl_int status, const std::string& what) {
  if (status != CL_SUCCESS) throw DeviceError("pocl: " + what + " failed (OpenCL error " + std::to_string(status) + ")");
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  s.resize(n - 1);  // drop the terminating NUL
  return s;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string dims(Dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

}  // namespace

PoclDevice::PoclDevice(std::string kernel_dir) : kernel_dir_(std::move(kernel_dir)) {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  if (status == CL_SUCCESS && count > 0) status = clGetPlatformIDs(count, platforms.data(), nullptr);
  std::string seen;
  for (cl_platform_id p : platforms) {
    std::string name = platform_string(p, CL_PLATFORM_NAME);
    seen += (seen.empty() ? "" : ", ") + name;
    if (name.find("Portable Computing Language") != std::string::npos || name.find("PoCL") != std::string::npos)
      platform_ = p;
  }
  if (!platform_)
    throw DeviceError("pocl: no PoCL OpenCL platform found (platforms seen: " + (seen.empty() ? "none" : seen) +
                      "); install the Debian package 'pocl-opencl-icd'");
  check(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr), "clGetDeviceIDs");
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  queue_ = clCreateCommandQueue(context_, device_, 0, &status);
  check(status, "clCreateCommandQueue");
}

PoclDevice::~PoclDevice() {
  for (auto& [key, k] : kernels_) clReleaseKernel(k);
  for (auto& [key, p] : programs_) clReleaseProgram(p);
  for (auto& [addr, a] : allocations_) clReleaseMemObject(a.mem);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

DevicePtr PoclDevice::alloc(size_t bytes) {
  if (bytes == 0) throw DeviceError("pocl: allocation of 0 bytes");
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer of " + std::to_string(bytes) + " bytes");
  DevicePtr addr = next_address_;
  next_address_ += (bytes + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
  allocations_[addr] = Allocation{mem, bytes};
  return addr;
}

void PoclDevice::free(DevicePtr p) {
  auto it = allocations_.find(p);
  if (it == allocations_.end()) {
    std::ostringstream s;
    s << "pocl: free of 0x" << std::hex << p << ", which is not the base address of an allocation";
    throw DeviceError(s.str());
  }
  clReleaseMemObject(it->second.mem);
  allocations_.erase(it);
}

std::map<DevicePtr, PoclDevice::Allocation>::const_iterator PoclDevice::find(DevicePtr addr, size_t bytes,
                                                                            const char* what) const {
  auto it = allocations_.upper_bound(addr);
  if (it != allocations_.begin()) {
    --it;
    DevicePtr offset = addr - it->first;
    if (offset <= it->second.bytes && bytes <= it->second.bytes - offset) return it;
  }
  std::ostringstream s;
  s << "pocl: " << what << " of " << bytes << " bytes at 0x" << std::hex << addr
    << " is not inside one allocation";
  throw DeviceError(s.str());
}

void PoclDevice::write(DevicePtr dst, const void* src, size_t bytes) {
  auto a = find(dst, bytes, "write");
  check(clEnqueueWriteBuffer(queue_, a->second.mem, CL_TRUE, dst - a->first, bytes, src, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void PoclDevice::read(void* dst, DevicePtr src, size_t bytes) {
  auto a = find(src, bytes, "read");
  check(clEnqueueReadBuffer(queue_, a->second.mem, CL_TRUE, src - a->first, bytes, dst, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

cl_program PoclDevice::program(const std::string& name) {
  auto it = programs_.find(name);
  if (it != programs_.end()) return it->second;
  std::string path = kernel_dir_ + "/" + name + ".cl";
  std::string source = read_text(path);
  if (source.empty()) throw DeviceError("pocl: program '" + name + "': cannot read kernel source " + path);
  const char* text = source.c_str();
  size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_, 1, &text, &length, &status);
  check(status, "clCreateProgramWithSource(" + path + ")");
  std::string options = "-cl-std=CL1.2 -I " + kernel_dir_;
  status = clBuildProgram(p, 1, &device_, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    if (n) clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    clReleaseProgram(p);
    throw DeviceError("pocl: building " + path + " failed (OpenCL error " + std::to_string(status) +
                      "); build log:\n" + log);
  }
  programs_[name] = p;
  return p;
}

cl_kernel PoclDevice::kernel(const std::string& program_name, const std::string& kernel_name) {
  std::string key = program_name + "/" + kernel_name;
  auto it = kernels_.find(key);
  if (it != kernels_.end()) return it->second;
  cl_int status = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program(program_name), kernel_name.c_str(), &status);
  if (status != CL_SUCCESS)
    throw DeviceError("pocl: program '" + program_name + "' has no kernel '" + kernel_name + "' (OpenCL error " +
                      std::to_string(status) + ")");
  kernels_[key] = k;
  return k;
}

void PoclDevice::set_args(cl_kernel k, const std::string& kernel_name, const KernelArgs& args) {
  cl_uint expected = 0;
  check(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof expected, &expected, nullptr), "clGetKernelInfo");
  if (expected != args.args().size())
    throw DeviceError("pocl: kernel '" + kernel_name + "' takes " + std::to_string(expected) + " arguments, " +
                      std::to_string(args.args().size()) + " given");
  for (cl_uint i = 0; i < expected; ++i) {
    const KernelArgs::Arg& a = args.args()[i];
    cl_int status = CL_SUCCESS;
    if (a.is_pointer) {
      auto it = allocations_.find(a.pointer);
      if (it == allocations_.end()) {
        std::ostringstream s;
        s << "pocl: kernel '" << kernel_name << "' argument " << i << ": pointer 0x" << std::hex << a.pointer
          << " is not the base address of an allocation";
        throw DeviceError(s.str());
      }
      status = clSetKernelArg(k, i, sizeof(cl_mem), &it->second.mem);
    } else {
      status = clSetKernelArg(k, i, a.bytes.size(), a.bytes.data());
    }
    check(status, "setting argument " + std::to_string(i) + " of kernel '" + kernel_name + "' (" +
                      std::to_string(a.is_pointer ? sizeof(cl_mem) : a.bytes.size()) + " bytes)");
  }
}

LaunchStats PoclDevice::launch(const std::string& program_name, const std::string& kernel_name, Dim3 global,
                               Dim3 local, const KernelArgs& args) {
  cl_kernel k = kernel(program_name, kernel_name);
  set_args(k, kernel_name, args);
  size_t g[3] = {global.x, global.y, global.z};
  size_t l[3] = {local.x, local.y, local.z};
  for (int d = 0; d < 3; ++d) {
    // The context is OpenCL 1.2: workgroups are uniform, so host programs round
    // their global size up to a multiple of the workgroup and guard in the kernel.
    if (l[d] == 0 || g[d] == 0 || g[d] % l[d] != 0)
      throw DeviceError("pocl: launch of '" + kernel_name + "' with global " + dims(global) + " and local " +
                        dims(local) + ": each global size must be a non-zero multiple of the local size");
  }
  cl_int status = clEnqueueNDRangeKernel(queue_, k, 3, nullptr, g, l, 0, nullptr, nullptr);
  check(status, "launching kernel '" + kernel_name + "' with global " + dims(global) + " and local " + dims(local));
  check(clFinish(queue_), "running kernel '" + kernel_name + "'");
  LaunchStats stats;
  stats.workgroups = uint64_t(g[0] / l[0]) * (g[1] / l[1]) * (g[2] / l[2]);
  return stats;
}

namespace {
const DeviceRegistrar pocl_registrar{"pocl", "PoCL CPU OpenCL 1.2 (the differential-test oracle)",
                                     [] { return std::make_unique<PoclDevice>(); }};
}  // namespace

}  // namespace tessera::runtime
