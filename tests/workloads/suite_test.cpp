// The differential suite: every workload at each of its test sizes must match
// its CPU reference on PoCL; on every other registered device it must match
// both its CPU reference and PoCL's outputs. One test case per workload and
// check, so that CTest lists them separately.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "sw/runtime/device_registry.h"
#include "sw/workloads/compare.h"
#include "tests/workload_list.h"

using namespace tessera::workloads;
using tessera::runtime::create_device;
using tessera::runtime::device_names;

namespace {


uint64_t seed_for(size_t size) { return 0x7e55e7a0ull ^ (uint64_t(size) * 0x9e3779b97f4a7c15ull); }

const Workload& workload(const std::string& name) {
  const Workload* w = find_workload(name);
  if (!w) FAIL("workload '" << name << "' is not registered");
  return *w;
}

void check_on_pocl(const std::string& name) {
  const Workload& w = workload(name);
  auto pocl = create_device("pocl");
  auto start = std::chrono::steady_clock::now();
  for (size_t size : w.test_sizes) {
    Result r = w.run(*pocl, size, seed_for(size));
    INFO(name << " " << r.shape << " on pocl: " << r.message);
    CHECK(r.passed);
    CHECK(r.launches > 0);
    CHECK(!r.outputs.empty());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN(name << ": " << w.test_sizes.size() << " sizes on pocl in " << seconds << " s");
}

void check_other_devices(const std::string& name) {
  const Workload& w = workload(name);
  std::string found;
  std::vector<std::string> others;
  for (const auto& d : device_names()) {
    found += (found.empty() ? "" : ", ") + d;
    if (d != "pocl") others.push_back(d);
  }
  if (others.empty()) {
    WARN("devices found: " << found << "; no device besides pocl, nothing to compare for " << name);
    return;
  }
  auto pocl = create_device("pocl");
  for (const auto& device_name : others) {
    auto device = create_device(device_name);
    for (size_t size : w.test_sizes) {
      Result oracle = w.run(*pocl, size, seed_for(size));
      REQUIRE(oracle.passed);
      Result r;
      // A device fault fails this size with its report; the other sizes still run.
      try {
        r = w.run(*device, size, seed_for(size));
      } catch (const std::exception& e) {
        FAIL_CHECK(name << " size " << size << " on " << device_name << ": " << e.what());
        continue;
      }
      INFO(name << " " << r.shape << " on " << device_name << ": " << r.message);
      CHECK(r.passed);
      REQUIRE(r.outputs.size() == oracle.outputs.size());
      for (size_t i = 0; i < r.outputs.size(); ++i) {
        std::string diff = compare_outputs(r.outputs[i], oracle.outputs[i]);
        INFO(device_name << " vs pocl: " << diff);
        CHECK(diff.empty());
      }
    }
  }
}

}  // namespace

#define TESSERA_WORKLOAD_CASES(name)                                                          \
  TEST_CASE("pocl matches the CPU reference: " #name, "[workload][pocl]") { check_on_pocl(#name); } \
  TEST_CASE("devices match the CPU reference and pocl: " #name, "[workload][devices]") {     \
    check_other_devices(#name);                                                               \
  }
TESSERA_WORKLOAD_LIST(TESSERA_WORKLOAD_CASES)

TEST_CASE("every registered workload has differential test cases", "[workload]") {
  std::set<std::string> listed;
#define TESSERA_WORKLOAD_NAME(name) listed.insert(#name);
  TESSERA_WORKLOAD_LIST(TESSERA_WORKLOAD_NAME)
  std::set<std::string> registered;
  for (const auto& w : workloads()) registered.insert(w.name);
  CHECK(listed == registered);
}

TEST_CASE("every workload has a doc line and test sizes with a partial workgroup", "[workload]") {
  for (const auto& w : workloads()) {
    INFO(w.name);
    CHECK(!w.doc.empty());
    CHECK(w.test_sizes.size() >= 2);
    bool partial = false;
    for (size_t s : w.test_sizes) partial |= (s % 16 != 0);
    CHECK(partial);
  }
}
