// The CP core running real firmware built in sw/firmware: console output, halt
// with an exit code, time = instructions x cpi, fault reports, and clear errors
// for bad firmware files. Each test case runs in its own process (CTest), so
// each may elaborate and run SystemC once.
#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>

#include "models/cp/cp_core.h"
#include "tests/cp/firmware_path.h"
#include "tests/mem/mem_test_support.h"

using tessera::test::CaptureStdout;
using tessera::test::firmware;

namespace tessera {

TEST_CASE("cp_core runs the hello firmware: console text, exit code 0, time is instructions x cpi", "[cp]") {
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"cpi", 3}, {"quantum", 100}});
  CaptureStdout out;
  sc_core::sc_start();
  const std::string text = out.text();
  CHECK(text.find("[cp] hello from the command processor\n") != std::string::npos);
  CHECK(text.find("[cp] sum of squares 1..100 = 338350\n") != std::string::npos);
  CHECK(text.find("[cp] timer advanced: yes\n") != std::string::npos);
  CHECK(cp.halted());
  CHECK(cp.exit_code() == 0);
  CHECK(cp.ok());
  const uint64_t insns = pf.stat("cp", "instructions");
  CHECK(insns > 100);
  CHECK(pf.stat("cp", "cycles") == 3 * insns);
  // The clock period is 1 ns: the run ends after exactly the firmware's cycles.
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(static_cast<double>(3 * insns), sc_core::SC_NS));
  // Every byte of the three lines went through the console register.
  const std::string printed = "hello from the command processor\nsum of squares 1..100 = 338350\ntimer advanced: yes\n";
  CHECK(pf.stat("cp", "console_bytes") == printed.size());
  CHECK(pf.stat("cp", "mmio_reads") == 5);  // id (once) and two timer reads of two words
}

TEST_CASE("cp_core reports a firmware fault with PC, registers and the unmapped address", "[cp]") {
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("fault.elf")}});
  CaptureStdout out;
  sc_core::sc_start();
  CHECK(out.text().find("[cp] about to read unmapped address 0x40000000\n") != std::string::npos);
  CHECK(out.text().find("unreachable") == std::string::npos);
  CHECK(cp.faulted());
  CHECK_FALSE(cp.ok());
  const std::string& report = cp.fault_report();
  CHECK_THAT(report, Catch::Contains("unmapped read of 4 bytes at 0x40000000"));
  CHECK_THAT(report, Catch::Contains("address=0x40000000"));
  CHECK_THAT(report, Catch::Contains("pc=0x000000"));
  CHECK_THAT(report, Catch::Contains("x15 a5  =0x40000000"));  // the pointer the load used (gcc keeps it in a5)
  CHECK_THAT(cp.summary(), Catch::Contains("faulted"));
}

TEST_CASE("cp_core watchdog stops firmware that makes no MMIO progress", "[cp]") {
  test::MiniPlatform pf;
  // hello runs hundreds of instructions of start-up code before its first MMIO access.
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"watchdog", 20}});
  CaptureStdout out;
  sc_core::sc_start();
  CHECK(cp.faulted());
  CHECK_THAT(cp.fault_report(), Catch::Contains("watchdog: 20 instructions without an MMIO access"));
  CHECK(pf.stat("cp", "instructions") == 21);
}

TEST_CASE("cp_core rejects a missing firmware file with a clear error", "[cp]") {
  test::MiniPlatform pf;
  CHECK_THROWS_WITH(pf.create("cp_core", "cp", {{"firmware", firmware("no_such_firmware.elf")}}),
                    Catch::Contains("no_such_firmware.elf': cannot open") &&
                        Catch::Contains("expected the path of an RV32 ELF"));
  CHECK_THROWS_WITH(pf.create("cp_core", "cp2"), Catch::Contains("parameter 'firmware' is required"));
}

TEST_CASE("cp_core rejects a file that is not an ELF or not RV32", "[cp]") {
  test::MiniPlatform pf;
  const std::string not_elf = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/cp_hello.json";
  CHECK_THROWS_WITH(pf.create("cp_core", "cp", {{"firmware", not_elf}}), Catch::Contains("not an ELF file"));
  // The test program itself is a host (64-bit, not RISC-V) executable.
  CHECK_THROWS_WITH(pf.create("cp_core", "cp2", {{"firmware", "/proc/self/exe"}}),
                    Catch::Contains("wrong architecture") && Catch::Contains("32-bit RISC-V"));
  // A firmware linked for more SRAM than the core has.
  CHECK_THROWS_WITH(pf.create("cp_core", "cp3", {{"firmware", firmware("hello.elf")}, {"sram_size", "16 KiB"}}),
                    Catch::Contains("does not fit the CP SRAM"));
}

}  // namespace tessera

namespace tessera {

TEST_CASE("cp_core reports an illegal instruction as a trap fault", "[cp]") {
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("illegal.elf")}});
  CaptureStdout out;
  sc_core::sc_start();
  CHECK(out.text().find("[cp] about to execute an illegal instruction\n") != std::string::npos);
  CHECK(out.text().find("unreachable") == std::string::npos);
  CHECK(cp.faulted());
  CHECK_FALSE(cp.ok());
  CHECK_THAT(cp.fault_report(), Catch::Contains("exception cause 2: illegal instruction"));
  CHECK_THAT(cp.fault_report(), Catch::Contains("pc=0x") && Catch::Contains("approximate"));
}

}  // namespace tessera
