// libm: log(x), exp(y) and pow(x, y) of libclc, whose implementations read
// tables and constants from the code object's read-only data. x in
// [2^-20, 2^20), y in [-20, 20): results stay finite and normal.
//
// The reference is the double-precision result rounded to float. OpenCL 1.2
// allows log and exp 3 ulp and pow 16 ulp; the tolerance is twice that, so
// that two conforming implementations (this device and PoCL) also agree.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;

Result run_libm(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = std::exp2(rng.uniform(-20.0f, 20.0f));
    y[i] = rng.uniform(-20.0f, 20.0f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<float> out_log, out_exp, out_pow;
  {
    Session s(device, result);
    DevicePtr dx = s.upload(x), dy = s.upload(y);
    DevicePtr dlog = s.alloc(n * sizeof(float)), dexp = s.alloc(n * sizeof(float)), dpow = s.alloc(n * sizeof(float));
    s.launch("libm", "libm", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(dx).pointer(dy).pointer(dlog).pointer(dexp).pointer(dpow).value(uint32_t(n)));
    out_log = s.download<float>(dlog, n);
    out_exp = s.download<float>(dexp, n);
    out_pow = s.download<float>(dpow, n);
  }
  std::vector<float> want_log(n), want_exp(n), want_pow(n);
  for (size_t i = 0; i < n; ++i) {
    want_log[i] = static_cast<float>(std::log(double(x[i])));
    want_exp[i] = static_cast<float>(std::exp(double(y[i])));
    want_pow[i] = static_cast<float>(std::pow(double(x[i]), double(y[i])));
  }
  conclude(result, {make_output("log", out_log), make_output("exp", out_exp), make_output("pow", out_pow)},
           {make_output("log", want_log, Tolerance{6, {}, "6 ulp (twice OpenCL's 3)"}),
            make_output("exp", want_exp, Tolerance{6, {}, "6 ulp (twice OpenCL's 3)"}),
            make_output("pow", want_pow, Tolerance{32, {}, "32 ulp (twice OpenCL's 16)"})});
  return result;
}

const WorkloadRegistrar registrar{{"libm", "log(x), exp(y), pow(x, y) of libclc (table-driven, read-only data)",
                                   1u << 20, {3, 1000, 65536 + 5}, run_libm}};

}  // namespace
}  // namespace tessera::workloads
