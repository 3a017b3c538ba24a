#include "models/cp/gdb_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "platform/errors.h"

namespace tessera {

namespace {

constexpr int kRegisters = 33;  // x0-x31, pc
constexpr size_t kMaxPacket = 4096;

// GDB's RV32 target description (the names GDB's own riscv-32bit-cpu.xml uses).
const char kTargetXml[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target version=\"1.0\">"
    "<architecture>riscv:rv32</architecture><feature name=\"org.gnu.gdb.riscv.cpu\">"
    "<reg name=\"zero\" bitsize=\"32\" type=\"int\" regnum=\"0\"/><reg name=\"ra\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/><reg name=\"gp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"tp\" bitsize=\"32\" type=\"data_ptr\"/><reg name=\"t0\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t1\" bitsize=\"32\" type=\"int\"/><reg name=\"t2\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"fp\" bitsize=\"32\" type=\"data_ptr\"/><reg name=\"s1\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a0\" bitsize=\"32\" type=\"int\"/><reg name=\"a1\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a2\" bitsize=\"32\" type=\"int\"/><reg name=\"a3\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a4\" bitsize=\"32\" type=\"int\"/><reg name=\"a5\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a6\" bitsize=\"32\" type=\"int\"/><reg name=\"a7\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s2\" bitsize=\"32\" type=\"int\"/><reg name=\"s3\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s4\" bitsize=\"32\" type=\"int\"/><reg name=\"s5\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s6\" bitsize=\"32\" type=\"int\"/><reg name=\"s7\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s8\" bitsize=\"32\" type=\"int\"/><reg name=\"s9\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s10\" bitsize=\"32\" type=\"int\"/><reg name=\"s11\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t3\" bitsize=\"32\" type=\"int\"/><reg name=\"t4\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t5\" bitsize=\"32\" type=\"int\"/><reg name=\"t6\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/></feature></target>";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string to_hex(const uint8_t* bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

// Registers go over the wire in target (little-endian) byte order.
std::string register_hex(uint32_t v) {
  const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  return to_hex(b, 4);
}

bool from_hex(const std::string& s, std::vector<uint8_t>& out) {
  if (s.size() % 2) return false;
  out.clear();
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return true;
}

bool parse_number(const std::string& s, uint64_t& value) {
  if (s.empty() || s.size() > 16) return false;
  value = 0;
  for (char c : s) {
    const int d = hex_digit(c);
    if (d < 0) return false;
    value = value * 16 + static_cast<uint64_t>(d);
  }
  return true;
}

uint32_t little_endian(const uint8_t* b) { return b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24; }

}  // namespace

GdbServer::GdbServer(uint16_t port, Target& target, std::string who) : target_(target), who_(std::move(who)) {
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listener_ < 0) throw UserError(who_ + ": cannot open a socket for GDB: " + std::strerror(errno));
  const int on = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || ::listen(listener_, 1) < 0) {
    const std::string why = std::strerror(errno);
    ::close(listener_);
    throw UserError(who_ + ": cannot listen for GDB on 127.0.0.1:" + std::to_string(port) + ": " + why +
                    " (choose another gdb_port)");
  }
  socklen_t len = sizeof addr;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
}

GdbServer::~GdbServer() {
  close_client();
  if (listener_ >= 0) ::close(listener_);
}

void GdbServer::accept_client() {
  do client_ = ::accept(listener_, nullptr, nullptr);
  while (client_ < 0 && errno == EINTR);
  if (client_ < 0) throw UserError(who_ + ": accepting GDB's connection failed: " + std::strerror(errno));
  const int on = 1;
  ::setsockopt(client_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  ack_ = true;
  interrupted_ = false;
}

void GdbServer::close_client() {
  if (client_ >= 0) ::close(client_);
  client_ = -1;
}

bool GdbServer::read_byte(char& c) {
  for (;;) {
    const ssize_t n = ::recv(client_, &c, 1, 0);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

// "$data#cs": a bad checksum is refused with '-' (GDB sends the packet again);
// a lone Ctrl-C between packets is an interrupt.
bool GdbServer::read_packet(std::string& packet) {
  char c = 0;
  for (;;) {
    do {
      if (!read_byte(c)) return false;
      if (c == '\x03') interrupted_ = true;
    } while (c != '$');
    packet.clear();
    unsigned sum = 0;
    while (read_byte(c) && c != '#') {
      if (packet.size() >= kMaxPacket) return false;
      packet += c;
      sum += static_cast<unsigned char>(c);
    }
    char cs[2];
    if (c != '#' || !read_byte(cs[0]) || !read_byte(cs[1])) return false;
    const bool good = hex_digit(cs[0]) * 16 + hex_digit(cs[1]) == static_cast<int>(sum & 0xff);
    if (!ack_) return true;
    ::send(client_, good ? "+" : "-", 1, MSG_NOSIGNAL);
    if (good) return true;
  }
}

void GdbServer::send_packet(const std::string& data) {
  unsigned sum = 0;
  for (char c : data) sum += static_cast<unsigned char>(c);
  char tail[4];
  std::snprintf(tail, sizeof tail, "#%02x", sum & 0xff);
  const std::string framed = "$" + data + tail;
  for (int attempt = 0; attempt < 10; ++attempt) {
    if (::send(client_, framed.data(), framed.size(), MSG_NOSIGNAL) < 0) return;
    if (!ack_) return;
    char c = 0;
    do {
      if (!read_byte(c)) return;
    } while (c != '+' && c != '-');
    if (c == '+') return;
  }
}

GdbServer::Resume GdbServer::stopped(const std::string& stop_reply, bool announce) {
  if (!connected()) return Resume::Detach;
  interrupted_ = false;
  last_stop_ = stop_reply;
  if (announce) send_packet(stop_reply);
  std::string packet;
  Resume resume = Resume::Continue;
  while (read_packet(packet))
    if (handle(packet, resume)) return resume;
  close_client();  // GDB went away: the firmware runs on
  return Resume::Detach;
}

void GdbServer::exited(const std::string& reply) {
  if (!connected()) return;
  send_packet(reply);
  close_client();
}

bool GdbServer::interrupt_pending() {
  if (!connected()) return false;
  pollfd p{client_, POLLIN, 0};
  while (::poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
    char c = 0;
    if (::recv(client_, &c, 1, 0) != 1) break;
    if (c == '\x03') interrupted_ = true;
  }
  const bool was = interrupted_;
  interrupted_ = false;
  return was;
}

bool GdbServer::handle(const std::string& packet, Resume& resume) {
  const char cmd = packet.empty() ? '\0' : packet[0];
  const std::string args = packet.size() > 1 ? packet.substr(1) : "";
  std::string reply;
  switch (cmd) {
    case '?': reply = last_stop_; break;
    case 'g': reply = read_registers(); break;
    case 'G': reply = write_registers(args); break;
    case 'm': reply = read_memory(args); break;
    case 'M': reply = write_memory(args, false); break;
    case 'X': reply = write_memory(args, true); break;
    case 'p': {
      uint64_t n = 0;
      reply = parse_number(args, n) && n < kRegisters ? register_hex(target_.read_register(int(n))) : "E01";
      break;
    }
    case 'P': {
      const size_t eq = args.find('=');
      uint64_t n = 0;
      std::vector<uint8_t> v;
      if (eq == std::string::npos || !parse_number(args.substr(0, eq), n) || n >= kRegisters ||
          !from_hex(args.substr(eq + 1), v) || v.size() != 4) {
        reply = "E01";
      } else {
        target_.write_register(int(n), little_endian(v.data()));
        reply = "OK";
      }
      break;
    }
    case 'c':
    case 's': {  // optionally at an address
      uint64_t addr = 0;
      if (!args.empty() && (!parse_number(args, addr) || addr > 0xffffffffu)) {
        reply = "E01";
        break;
      }
      if (!args.empty()) target_.write_register(32, static_cast<uint32_t>(addr));
      resume = cmd == 'c' ? Resume::Continue : Resume::Step;
      return true;
    }
    case 'D': send_packet("OK"); close_client(); resume = Resume::Detach; return true;
    case 'k': close_client(); resume = Resume::Kill; return true;
    case 'Z':
    case 'z': reply = breakpoint(packet); break;
    case 'H': reply = "OK"; break;  // one thread
    case 'q':
      if (packet.rfind("qSupported", 0) == 0) reply = "PacketSize=1000;qXfer:features:read+;QStartNoAckMode+";
      else if (packet.rfind("qXfer:features:read:target.xml:", 0) == 0) reply = features(packet.substr(31));
      else if (packet == "qAttached") reply = "1";
      else if (packet == "qC") reply = "QC1";
      else if (packet == "qfThreadInfo") reply = "m1";
      else if (packet == "qsThreadInfo") reply = "l";
      break;
    case 'Q':
      if (packet == "QStartNoAckMode") {
        send_packet("OK");
        ack_ = false;
        return false;
      }
      break;
    case 'T': reply = "OK"; break;  // the one thread is alive
    default: break;                 // v packets and the rest: not supported
  }
  send_packet(reply);
  return false;
}

std::string GdbServer::read_registers() {
  std::string s;
  for (int n = 0; n < kRegisters; ++n) s += register_hex(target_.read_register(n));
  return s;
}

std::string GdbServer::write_registers(const std::string& hex) {
  std::vector<uint8_t> bytes;
  if (!from_hex(hex, bytes) || bytes.size() != 4 * kRegisters) return "E01";
  for (int n = 1; n < kRegisters; ++n) target_.write_register(n, little_endian(&bytes[4 * n]));
  return "OK";
}

// "addr,length"
std::string GdbServer::read_memory(const std::string& args) {
  const size_t comma = args.find(',');
  uint64_t addr = 0, len = 0;
  if (comma == std::string::npos || !parse_number(args.substr(0, comma), addr) ||
      !parse_number(args.substr(comma + 1), len) || len > kMaxPacket / 2 || addr + len > (uint64_t{1} << 32))
    return "E01";
  std::vector<uint8_t> bytes(len);
  if (!target_.read_memory(static_cast<uint32_t>(addr), bytes.data(), len)) return "E01";
  return to_hex(bytes.data(), len);
}

// "addr,length:XX..." (M, hex) or "addr,length:bytes" (X, binary with } escapes)
std::string GdbServer::write_memory(const std::string& args, bool binary) {
  const size_t comma = args.find(','), colon = args.find(':');
  uint64_t addr = 0, len = 0;
  if (comma == std::string::npos || colon == std::string::npos || colon < comma ||
      !parse_number(args.substr(0, comma), addr) || !parse_number(args.substr(comma + 1, colon - comma - 1), len) ||
      addr + len > (uint64_t{1} << 32))
    return "E01";
  const std::string data = args.substr(colon + 1);
  std::vector<uint8_t> bytes;
  if (binary) {
    for (size_t i = 0; i < data.size(); ++i)
      bytes.push_back(data[i] == '}' && i + 1 < data.size() ? static_cast<uint8_t>(data[++i] ^ 0x20)
                                                            : static_cast<uint8_t>(data[i]));
  } else if (!from_hex(data, bytes)) {
    return "E01";
  }
  if (bytes.size() != len) return "E01";
  if (len && !target_.write_memory(static_cast<uint32_t>(addr), bytes.data(), len)) return "E01";
  return "OK";
}

// "Z0,addr,kind" / "z0,addr,kind"; types 0 (software) and 1 (hardware) alike.
std::string GdbServer::breakpoint(const std::string& packet) {
  if (packet.size() < 4 || (packet[1] != '0' && packet[1] != '1') || packet[2] != ',') return "";
  const size_t comma = packet.find(',', 3);
  uint64_t addr = 0;
  if (comma == std::string::npos || !parse_number(packet.substr(3, comma - 3), addr) || addr > 0xffffffffu)
    return "E01";
  if (packet[0] == 'Z')
    breakpoints_.insert(static_cast<uint32_t>(addr));
  else
    breakpoints_.erase(static_cast<uint32_t>(addr));
  return "OK";
}

// "offset,length" into the target description.
std::string GdbServer::features(const std::string& args) const {
  const size_t comma = args.find(',');
  uint64_t offset = 0, len = 0;
  if (comma == std::string::npos || !parse_number(args.substr(0, comma), offset) ||
      !parse_number(args.substr(comma + 1), len))
    return "E01";
  const std::string xml = kTargetXml;
  if (offset >= xml.size()) return "l";
  const std::string part = xml.substr(offset, len);
  return (offset + part.size() >= xml.size() ? "l" : "m") + part;
}

}  // namespace tessera
