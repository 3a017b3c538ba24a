// The CP core under GDB: a client speaking the remote serial protocol, in a
// thread of its own, drives real firmware while SystemC runs in the test's
// thread. Every reply the client gets is kept and checked once the simulation
// has ended (Catch's assertions stay in one thread). Sockets time out after a
// few seconds, so a test fails rather than hangs. Each test case runs in its
// own process (CTest).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "models/cp/cp_core.h"
#include "models/cp/firmware_image.h"
#include "sw/firmware/include/tessera/cp_regs.h"
#include "tests/cp/firmware_path.h"
#include "tests/mem/mem_test_support.h"

using tessera::test::CaptureStdout;
using tessera::test::firmware;

namespace tessera {
namespace {

// A port nobody listens on now (the system's pick for a socket bound to port 0).
uint16_t free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

std::string hex32(uint32_t v) {  // target byte order, as registers travel
  char buf[9];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
  return buf;
}

std::string framed(const std::string& data) {
  unsigned sum = 0;
  for (char c : data) sum += static_cast<unsigned char>(c);
  char tail[4];
  std::snprintf(tail, sizeof tail, "#%02x", sum & 0xff);
  return "$" + data + tail;
}

// A minimal GDB: sends packets, collects replies (acks included when asked).
class Client {
 public:
  explicit Client(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    for (int attempt = 0; attempt < 100; ++attempt) {  // the core listens from its construction on
      if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return;
      usleep(50000);
    }
  }
  ~Client() { ::close(fd_); }

  void raw(const std::string& bytes) { ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  // Sends a packet and returns the reply's data ("TIMEOUT" if none came).
  std::string ask(const std::string& data) {
    raw(framed(data));
    return reply();
  }
  // The next byte that is an ack or nack.
  char ack() {
    char c = 0;
    while (::recv(fd_, &c, 1, 0) == 1)
      if (c == '+' || c == '-') return c;
    return '?';
  }
  std::string reply() {
    char c = 0;
    do {
      if (::recv(fd_, &c, 1, 0) != 1) return "TIMEOUT";
    } while (c != '$');
    std::string data;
    while (::recv(fd_, &c, 1, 0) == 1 && c != '#') data += c;
    char cs[2];
    ::recv(fd_, cs, 2, MSG_WAITALL);
    raw("+");
    return data;
  }

 private:
  int fd_ = -1;
};

uint32_t pc_of(const std::string& p20) {  // the 'p20' reply, little-endian hex
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint32_t>(std::stoul(p20.substr(2 * i, 2), nullptr, 16));
  return v;
}

}  // namespace

TEST_CASE("cp_core under GDB: stop at entry, registers, memory, breakpoint, step, exit code", "[cp][gdb]") {
  const FirmwareImage image = load_firmware_image(firmware("hello.elf"), 64 * 1024);
  REQUIRE(image.symbols.count("main"));
  const uint32_t main_fn = image.symbols.at("main");
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"gdb_port", port}});

  std::vector<std::string> r;  // replies, checked below
  char bad_checksum_ack = 0;
  std::thread gdb([&] {
    Client c(port);
    r.push_back(c.ask("qSupported:multiprocess+;swbreak+"));  // 0
    r.push_back(c.ask("?"));                                    // 1
    r.push_back(c.ask("p20"));                                  // 2: pc
    r.push_back(c.ask("m" + std::to_string(0) + ",4"));         // 3: first word of SRAM
    char mem[40];
    std::snprintf(mem, sizeof mem, "m%x,4", CP_MMIO_BASE);
    r.push_back(c.ask(mem));             // 4: the register window is refused
    r.push_back(c.ask("vMustReplyEmpty"));  // 5: unknown
    c.raw("$g#00");                          // a wrong checksum
    bad_checksum_ack = c.ack();
    char z[32];
    std::snprintf(z, sizeof z, "Z0,%x,2", main_fn);
    r.push_back(c.ask(z));     // 6
    r.push_back(c.ask("c"));   // 7: stops at main
    r.push_back(c.ask("p20")); // 8
    r.push_back(c.ask("s"));   // 9
    r.push_back(c.ask("p20")); // 10
    z[0] = 'z';
    r.push_back(c.ask(z));     // 11
    r.push_back(c.ask("g"));   // 12
    r.push_back(c.ask("c"));   // 13: runs to the halt
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();

  REQUIRE(r.size() == 14);
  CHECK_THAT(r[0], Catch::Contains("qXfer:features:read+"));
  CHECK(r[1] == "S05");
  CHECK(pc_of(r[2]) == image.entry);  // stopped before the first instruction
  uint32_t first_word = 0;
  for (const FirmwareSegment& seg : image.segments)
    if (seg.address == 0 && seg.bytes.size() >= 4) std::memcpy(&first_word, seg.bytes.data(), 4);
  CHECK(r[3] == hex32(first_word));
  CHECK(r[4] == "E01");
  CHECK(r[5].empty());
  CHECK(bad_checksum_ack == '-');
  CHECK(r[6] == "OK");
  CHECK(r[7] == "S05");
  CHECK(pc_of(r[8]) == main_fn);
  CHECK(r[9] == "S05");
  const uint32_t after_step = pc_of(r[10]);
  CHECK((after_step == main_fn + 2 || after_step == main_fn + 4));
  CHECK(r[11] == "OK");
  CHECK(r[12].size() == 33 * 8);
  CHECK(r[12].substr(32 * 8) == r[10]);  // g ends with the pc
  CHECK(r[13] == "W00");
  CHECK(cp.halted());
  CHECK(out.text().find("[cp] sum of squares 1..100 = 338350\n") != std::string::npos);
  // Firmware time is what it is without GDB: cpi 1, a cycle per instruction.
  const uint64_t insns = pf.stat("cp", "instructions");
  CHECK(pf.stat("cp", "cycles") == insns);
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(static_cast<double>(insns), sc_core::SC_NS));
}

TEST_CASE("cp_core under GDB: a fault stops with SIGSEGV at the load, then the run ends", "[cp][gdb]") {
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("fault.elf")}, {"gdb_port", port}});
  std::vector<std::string> r;
  std::thread gdb([&] {
    Client c(port);
    r.push_back(c.ask("QStartNoAckMode"));  // 0: no acks from here on
    r.push_back(c.ask("c"));                // 1
    r.push_back(c.ask("p20"));              // 2
    r.push_back(c.ask("p0f"));              // 3: a5, the pointer the load used
    r.push_back(c.ask("c"));                // 4
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();
  REQUIRE(r.size() == 5);
  CHECK(r[0] == "OK");
  CHECK(r[1] == "S0b");
  char pc[16];
  std::snprintf(pc, sizeof pc, "pc=0x%08x", pc_of(r[2]));
  CHECK_THAT(cp.fault_report(), Catch::Contains(pc));  // GDB sees the faulting instruction
  CHECK(r[3] == hex32(0x40000000));
  CHECK(r[4] == "X0b");
  CHECK(cp.faulted());
}

TEST_CASE("cp_core under GDB: Ctrl-C stops running firmware and kill ends the run", "[cp][gdb]") {
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"gdb_port", port}});
  std::vector<std::string> r;
  std::thread gdb([&] {
    Client c(port);
    r.push_back(c.ask("?"));
    c.raw(framed("c") + "\x03");  // continue, and interrupt at once
    c.ack();
    r.push_back(c.reply());
    c.raw(framed("k"));
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();
  REQUIRE(r.size() == 2);
  CHECK(r[0] == "S05");
  CHECK(r[1] == "S02");
  CHECK(cp.faulted());
  CHECK_THAT(cp.fault_report(), Catch::Contains("killed from GDB"));
  CHECK(out.text().find("sum of squares") == std::string::npos);  // it never got that far
}

TEST_CASE("cp_core: a gdb_port that is taken is a clear error", "[cp][gdb]") {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(::listen(s, 1) == 0);
  socklen_t len = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  test::MiniPlatform pf;
  CHECK_THROWS_WITH(pf.create("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"gdb_port", ntohs(a.sin_port)}}),
                    Catch::Contains("cannot listen for GDB on 127.0.0.1:") && Catch::Contains("choose another gdb_port"));
  ::close(s);
}

namespace {

std::string hex_address(uint32_t address) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x", address);
  return buf;
}

}  // namespace

// The code hook stops Unicorn before a breakpoint; the instruction execution
// resumes at must then run, and the next time round the breakpoint must stop
// again. A quantum of 3 puts quantum boundaries between most stops.
TEST_CASE("cp_core under GDB: a breakpoint in a function called per byte stops at every call", "[cp][gdb]") {
  const FirmwareImage image = load_firmware_image(firmware("hello.elf"), 64 * 1024);
  REQUIRE(image.symbols.count("console_put"));
  const std::string put = hex_address(image.symbols.at("console_put"));
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp",
                               {{"firmware", firmware("hello.elf")}, {"gdb_port", port}, {"quantum", 3}});
  std::vector<std::string> r;
  std::thread gdb([&] {
    Client c(port);
    r.push_back(c.ask("Z1," + put + ",2"));  // 0: a hardware breakpoint, kept the same way
    for (int i = 0; i < 3; ++i) {
      r.push_back(c.ask("c"));    // 1, 4, 7
      r.push_back(c.ask("p20"));  // 2, 5, 8
      r.push_back(c.ask("p0a"));  // 3, 6, 9: a0, the byte
    }
    r.push_back(c.ask("z1," + put + ",2"));  // 10
    r.push_back(c.ask("c"));                 // 11
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();
  REQUIRE(r.size() == 12);
  CHECK(r[0] == "OK");
  const char expected[] = "hel";
  for (int i = 0; i < 3; ++i) {
    CHECK(r[1 + 3 * i] == "S05");
    CHECK(pc_of(r[2 + 3 * i]) == image.symbols.at("console_put"));
    CHECK(pc_of(r[3 + 3 * i]) == static_cast<uint32_t>(expected[i]));
  }
  CHECK(r[10] == "OK");
  CHECK(r[11] == "W00");
  CHECK(cp.halted());
  CHECK(out.text().find("[cp] hello from the command processor\n") != std::string::npos);
  const uint64_t insns = pf.stat("cp", "instructions");
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(static_cast<double>(insns), sc_core::SC_NS));
}

TEST_CASE("cp_core under GDB: an illegal instruction stops with SIGILL, then the run ends", "[cp][gdb]") {
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("illegal.elf")}, {"gdb_port", port}});
  std::vector<std::string> r;
  std::thread gdb([&] {
    Client c(port);
    r.push_back(c.ask("c"));  // 0
    r.push_back(c.ask("g"));  // 1: the registers are there to look at
    r.push_back(c.ask("c"));  // 2
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();
  REQUIRE(r.size() == 3);
  CHECK(r[0] == "S04");
  CHECK(r[1].size() == 33 * 8);
  CHECK(r[2] == "X04");
  CHECK(cp.faulted());
  CHECK_THAT(cp.fault_report(), Catch::Contains("illegal instruction"));
}

TEST_CASE("cp_core under GDB: memory and register writes, the target description, unknown packets, detach",
          "[cp][gdb]") {
  const uint16_t port = free_port();
  test::MiniPlatform pf;
  auto& cp = pf.create<CpCore>("cp_core", "cp", {{"firmware", firmware("hello.elf")}, {"gdb_port", port}});
  std::vector<std::string> r;
  std::string xml;
  std::thread gdb([&] {
    Client c(port);
    for (uint32_t offset = 0;; offset += 100) {  // the description, 100 bytes a packet
      const std::string part = c.ask("qXfer:features:read:target.xml:" + hex_address(offset) + ",64");
      if (part.empty() || (part[0] != 'm' && part[0] != 'l')) break;
      xml += part.substr(1);
      if (part[0] == 'l' || offset > 100000) break;
    }
    r.push_back(c.ask("Mf000,4:0badcafe"));  // 0: free SRAM, below the stack
    r.push_back(c.ask("mf000,4"));           // 1
    r.push_back(c.ask("Xf002,1:z"));         // 2: binary write
    r.push_back(c.ask("mf000,4"));           // 3
    r.push_back(c.ask("M20000000,4:00000000"));  // 4: the device-memory window is refused
    r.push_back(c.ask("P1c=78563412"));      // 5: t3
    r.push_back(c.ask("p1c"));               // 6
    r.push_back(c.ask("P0=01000000"));       // 7: x0 stays zero
    r.push_back(c.ask("p0"));                // 8
    r.push_back(c.ask("G00"));               // 9: too short
    r.push_back(c.ask("qTesseraNoSuchQuery"));  // 10
    r.push_back(c.ask("vNoSuchPacket"));     // 11
    r.push_back(c.ask("vCont?"));            // 12
    r.push_back(c.ask("qAttached"));         // 13
    r.push_back(c.ask("D"));                 // 14: the firmware runs on
  });
  CaptureStdout out;
  sc_core::sc_start();
  gdb.join();
  REQUIRE(r.size() == 15);
  CHECK_THAT(xml, Catch::Contains("<architecture>riscv:rv32</architecture>"));
  CHECK_THAT(xml, Catch::Contains("org.gnu.gdb.riscv.cpu"));
  CHECK_THAT(xml, Catch::Contains("<reg name=\"pc\" bitsize=\"32\""));
  CHECK(r[0] == "OK");
  CHECK(r[1] == "0badcafe");
  CHECK(r[2] == "OK");
  CHECK(r[3] == "0bad7afe");
  CHECK(r[4] == "E01");
  CHECK(r[5] == "OK");
  CHECK(r[6] == "78563412");
  CHECK(r[7] == "OK");
  CHECK(r[8] == "00000000");
  CHECK(r[9] == "E01");
  CHECK(r[10].empty());
  CHECK(r[11].empty());
  CHECK(r[12].empty());
  CHECK(r[13] == "1");
  CHECK(r[14] == "OK");
  CHECK(cp.halted());
  CHECK(out.text().find("[cp] sum of squares 1..100 = 338350\n") != std::string::npos);
}

}  // namespace tessera
