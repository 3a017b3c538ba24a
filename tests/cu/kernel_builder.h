// Test helper: compiles OpenCL C source to a gfx90a code object at test time,
// with the same clang/libclc command line as sw/kernels, so the executor tests
// carry their kernels next to their assertions.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera::test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Returns the path of `<name>.hsaco` built from `source` (optimised with
// `opt`, e.g. "-O0"); rebuilt only when the source or the option changed.
// Files are written under a unique name and renamed into place so that test
// processes running in parallel never see a half-written file.
inline std::string build_kernel(const std::string& name, const std::string& text, const std::string& opt = "-O2") {
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/tests/cu_kernels";
  const std::string cl = dir + "/" + name + ".cl";
  const std::string hsaco = dir + "/" + name + ".hsaco";
  const std::string source = opt == "-O2" ? text : "// built with " + opt + "\n" + text;
  if (read_text(cl) == source && std::ifstream(hsaco).good()) return hsaco;
  const std::string tmp = dir + "/" + name + "." + std::to_string(getpid());
  std::string cmd = "mkdir -p '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  std::ofstream(tmp + ".cl") << source;
  cmd = "clang-14 -cl-std=CL1.2 -target amdgcn-unknown-amdhsa -mcpu=gfx90a -nogpulib "
        "-include /usr/include/clc/clc.h -Xclang -mlink-builtin-bitcode -Xclang /usr/lib/clc/amdgcn--amdhsa.bc "
        + opt + " -c '" + tmp + ".cl' -o '" + tmp + ".o' && ld.lld-14 -shared '" + tmp + ".o' -o '" + tmp + ".hsaco'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("kernel " + name + " failed to compile");
  std::rename((tmp + ".hsaco").c_str(), hsaco.c_str());
  std::rename((tmp + ".cl").c_str(), cl.c_str());
  std::remove((tmp + ".o").c_str());
  return hsaco;
}

}  // namespace tessera::test
