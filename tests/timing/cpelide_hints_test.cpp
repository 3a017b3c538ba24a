// The hint checker (cp.check_hints, models/cp/hint_checker.h) and launches
// submitted ahead (cp.async_launches) through the timing device: square's
// kernel (c = a*a + c) launched with right and with deliberately wrong access
// modes on chiplet4_small under the CPElide firmware. A right hint is not
// reported; a wrong one is, naming the kernel, the buffer and an address.
// One platform per test case (one process each).
#include <catch2/catch.hpp>
#include <functional>

#include "platform/timing_device.h"

using namespace tessera;

namespace cpelide_hints {

constexpr uint32_t kN = 4096, kGroup = 256;

TimingDeviceOptions options(bool async) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/chiplet4_small.json";
  o.kernel_dir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
  for (const char* s : {"cp.firmware=aql_cp_cpelide.elf", "cp.elision=true", "cp.check_hints=true"})
    o.overrides.push_back(parse_override(s));
  o.overrides.push_back(parse_override(std::string("cp.async_launches=") + (async ? "true" : "false")));
  return o;
}

struct Buffers {
  runtime::DevicePtr a = 0, c = 0;
};
using Hints = std::function<std::vector<runtime::BufferAccess>(const Buffers&)>;

struct Outcome {
  Buffers buffers;
  std::vector<HintViolation> violations;
  bool bytes_right = false;
  size_t logged = 0;
  uint64_t cycles = 0, logged_cycles = 0, sync_cycles = 0;
};

// Three launches of square with the hints `hints` gives, then the result read back.
Outcome run(bool async, const Hints& hints) {
  TimingDevice dev(options(async));
  std::vector<float> a(kN), c(kN);
  for (uint32_t i = 0; i < kN; ++i) a[i] = float(i % 7), c[i] = float(i % 5);
  Outcome out;
  out.buffers = {dev.upload(a), dev.upload(c)};
  for (int step = 0; step < 3; ++step) {
    dev.set_access_modes(hints(out.buffers));
    dev.launch("square", "square", runtime::Dim3{kN}, runtime::Dim3{kGroup},
               runtime::KernelArgs().pointer(out.buffers.a).pointer(out.buffers.c).value(kN));
  }
  const std::vector<float> got = dev.download<float>(out.buffers.c, kN);
  out.bytes_right = true;
  for (uint32_t i = 0; i < kN; ++i) out.bytes_right &= got[i] == 3 * a[i] * a[i] + c[i];
  out.violations = dev.hint_violations();
  out.logged = dev.launch_log().size();
  for (const json& row : dev.launch_log()) out.logged_cycles += row["cycles"].get<uint64_t>();
  out.cycles = dev.totals().cycles;
  out.sync_cycles = dev.totals().sync_cycles;
  return out;
}

std::vector<runtime::BufferAccess> right(const Buffers& b) {
  return {{b.a, kN * 4, runtime::AccessMode::ReadOnly, 0, true}, {b.c, kN * 4, runtime::AccessMode::ReadWrite, 0, true}};
}

bool inside(uint64_t address, runtime::DevicePtr base) { return address >= base && address < base + kN * 4; }


TEST_CASE("cpelide hints: right hints are not reported", "[cpelide]") {
  const Outcome o = run(false, right);
  CHECK(o.bytes_right);
  CHECK(o.violations.empty());
}

TEST_CASE("cpelide hints: a write to a buffer declared read-only is reported naming kernel and buffer and address",
          "[cpelide]") {
  const Outcome o = run(false, [](const Buffers& b) {
    return std::vector<runtime::BufferAccess>{{b.a, kN * 4, runtime::AccessMode::ReadOnly, 0, true},
                                              {b.c, kN * 4, runtime::AccessMode::ReadOnly, 0, true}};
  });
  REQUIRE(o.violations.size() == 3);  // once per launch
  for (const HintViolation& v : o.violations) {
    CHECK(v.kernel == "square");
    CHECK(v.buffer_base == o.buffers.c);
    CHECK(v.buffer_bytes == kN * 4);
    CHECK(inside(v.address, o.buffers.c));
    CHECK(v.what == "a write to a buffer declared read-only");
    CHECK(v.count == kN / 64);  // every store instruction of the launch (one per wave)
  }
}

TEST_CASE("cpelide hints: an access to an undeclared buffer or outside a chiplet's share is reported", "[cpelide]") {
  // a is not declared; c is declared partitioned over chiplet 0 only.
  const Outcome o = run(false, [](const Buffers& b) {
    return std::vector<runtime::BufferAccess>{{b.c, kN * 4, runtime::AccessMode::ReadWrite, 1u, true}};
  });
  bool outside = false, mask = false;
  for (const HintViolation& v : o.violations) {
    CHECK(v.kernel == "square");
    if (v.what == "an access outside every declared buffer") {
      outside = true;
      CHECK(v.buffer_bytes == 0);
      CHECK(inside(v.address, o.buffers.a));
    }
    if (v.what == "an access by a chiplet outside the declared mask") {
      mask = true;
      CHECK(v.buffer_base == o.buffers.c);
      CHECK(v.chiplet != 0);
      CHECK(inside(v.address, o.buffers.c));
    }
  }
  CHECK(outside);
  CHECK(mask);
}

TEST_CASE("cpelide async: launches submitted ahead give the right bytes and a log that adds up", "[cpelide]") {
  const Outcome o = run(true, right);
  CHECK(o.bytes_right);
  CHECK(o.violations.empty());
  CHECK(o.logged == 3);
  CHECK(o.logged_cycles > 0);
  CHECK(o.logged_cycles + o.sync_cycles == o.cycles);
}

}  // namespace cpelide_hints
