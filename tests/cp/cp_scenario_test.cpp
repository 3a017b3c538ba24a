// Scenarios through the `tessera` program: the reference netlist
// json/platforms/cp_hello.json with the firmware found through
// $TESSERA_FIRMWARE_DIR, swapped with --set, and a bad firmware path.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

RunResult run_tessera(const std::string& extra_args) {
  const std::string cmd = std::string("TESSERA_FIRMWARE_DIR='") + TESSERA_BINARY_DIR + "/sw/firmware' '" +
                          TESSERA_BINARY_DIR + "/tessera' run '" + TESSERA_SOURCE_DIR +
                          "/json/platforms/cp_hello.json' " + extra_args + " 2>&1";
  RunResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

TEST_CASE("scenario cp_hello.json prints the firmware's text and exits 0", "[cp][scenario]") {
  const RunResult r = run_tessera("");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("[cp] hello from the command processor\n"));
  CHECK_THAT(r.output, Catch::Contains("halted, exit code 0"));
  CHECK_THAT(r.output, Catch::Contains("result: ok"));
}

TEST_CASE("scenario cp_hello.json with the fault firmware reports PC and address and fails", "[cp][scenario]") {
  const RunResult r = run_tessera("--set cp.firmware=fault.elf");
  INFO(r.output);
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.output, Catch::Contains("firmware fault: unmapped read of 4 bytes at 0x40000000"));
  CHECK_THAT(r.output, Catch::Contains("pc=0x") && Catch::Contains("address=0x40000000"));
  CHECK_THAT(r.output, Catch::Contains("cp: faulted"));
}

TEST_CASE("scenario cp_hello.json with a missing firmware file is a clear error", "[cp][scenario]") {
  const RunResult r = run_tessera("--set cp.firmware=missing_firmware.elf");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("/components/cp: firmware '") &&
                           Catch::Contains("missing_firmware.elf': cannot open (No such file or directory)"));
}
