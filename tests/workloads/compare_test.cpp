// The comparison rules, the seeded generator and the f16 conversion that the
// whole differential suite relies on.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sw/workloads/compare.h"
#include "sw/workloads/half.h"
#include "sw/workloads/rng.h"

using namespace tessera::workloads;

TEST_CASE("ulp distance counts representable floats between two values", "[compare]") {
  CHECK(ulp_distance(1.0f, 1.0f) == 0);
  CHECK(ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  CHECK(ulp_distance(0.0f, -0.0f) == 0);
  float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(ulp_distance(tiny, -tiny) == 2);
  CHECK(ulp_distance(1.0f, 2.0f) == (1u << 23));
}

TEST_CASE("integer outputs must match exactly and mismatches are reported", "[compare]") {
  Output want = make_output("bins", std::vector<uint32_t>{1, 2, 3, 4});
  CHECK(compare_outputs(make_output("bins", std::vector<uint32_t>{1, 2, 3, 4}), want).empty());
  std::string m = compare_outputs(make_output("bins", std::vector<uint32_t>{1, 2, 7, 4}), want);
  CHECK(m.find("1 of 4 elements differ") != std::string::npos);
  CHECK(m.find("[2] 7 vs 3") != std::string::npos);
  CHECK(!compare_outputs(make_output("bins", std::vector<uint32_t>{1, 2, 3}), want).empty());
  CHECK(!compare_outputs(make_output("bins", std::vector<int32_t>{1, 2, 3, 4}), want).empty());
}

TEST_CASE("float outputs match within ulps or within the absolute bound", "[compare]") {
  float one_up = std::nextafter(1.0f, 2.0f);
  Output exact = make_output("x", std::vector<float>{1.0f});
  CHECK(!compare_outputs(make_output("x", std::vector<float>{one_up}), exact).empty());
  Output two_ulps = make_output("x", std::vector<float>{1.0f}, Tolerance{2, {}, "2 ulps"});
  CHECK(compare_outputs(make_output("x", std::vector<float>{one_up}), two_ulps).empty());
  Output bounded = make_output("x", std::vector<float>{0.0f, 5.0f}, Tolerance{0, {1e-3, 0.0}, "abs"});
  CHECK(compare_outputs(make_output("x", std::vector<float>{5e-4f, 5.0f}), bounded).empty());
  CHECK(!compare_outputs(make_output("x", std::vector<float>{2e-3f, 5.0f}), bounded).empty());
  float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(!compare_outputs(make_output("x", std::vector<float>{nan, 5.0f}), bounded).empty());
}

TEST_CASE("conclude keeps device outputs with the reference rule and names failures", "[compare]") {
  Result r;
  conclude(r, {make_output("y", std::vector<float>{1.5f})},
           {make_output("y", std::vector<float>{1.5f}, Tolerance{1, {}, "1 ulp"})});
  CHECK(r.passed);
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].max_ulps == 1);
  Result bad;
  conclude(bad, {make_output("y", std::vector<float>{1.75f})}, {make_output("y", std::vector<float>{1.5f})});
  CHECK(!bad.passed);
  CHECK(bad.message.find("y: 1 of 1") != std::string::npos);
  CHECK(bad.message.find("[0] 1.75 vs 1.5 (") != std::string::npos);
}

TEST_CASE("the error bound of a sum grows with terms and magnitude", "[compare]") {
  CHECK(sum_error_bound(10, 1.0) > sum_error_bound(1, 1.0));
  CHECK(sum_error_bound(10, 2.0) > sum_error_bound(10, 1.0));
  CHECK(sum_error_bound(1000, 1.0) == Approx(2.0 * 1001 * 0x1p-24).epsilon(1e-3));
}

TEST_CASE("the generator is a fixed function of its seed", "[rng]") {
  Rng a(42), b(42), c(43);
  uint64_t first = a.next_u64();
  CHECK(first == b.next_u64());
  CHECK(first != c.next_u64());
  // SplitMix64's published first output for seed 0.
  CHECK(Rng(0).next_u64() == 0xe220a8397b1dcdafull);
  Rng r(7);
  for (int i = 0; i < 1000; ++i) {
    float u = r.uniform(-1.0f, 1.0f);
    REQUIRE(u >= -1.0f);
    REQUIRE(u < 1.0f);
    REQUIRE(r.below(10) < 10u);
    float d = r.dyadic(128, 64);
    REQUIRE(d * 64.0f == std::round(d * 64.0f));
  }
}

TEST_CASE("f16 conversion rounds to nearest even and round-trips", "[half]") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(1e6f) == 0x7c00);
  CHECK(float_to_half(0x1p-24f) == 0x0001);  // smallest subnormal
  CHECK(float_to_half(1.0f + 0x1p-11f) == 0x3c00);  // halfway, even stays
  CHECK(float_to_half(1.0f + 3 * 0x1p-11f) == 0x3c02);  // halfway, odd rounds up
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    REQUIRE(float_to_half(half_to_float(uint16_t(h))) == h);
    REQUIRE(float_to_half(half_to_float(uint16_t(h | 0x8000))) == (h | 0x8000));
  }
  CHECK(half_to_float(0x0001) == 0x1p-24f);
  CHECK(std::isnan(half_to_float(float_to_half(std::numeric_limits<float>::quiet_NaN()))));
}
