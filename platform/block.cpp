#include "platform/block.h"

#include <cstdio>
#include <iostream>

namespace tessera {
namespace {
LogLevel g_level = LogLevel::Info;
}

void set_log_level(LogLevel level) { g_level = level; }
LogLevel log_level() { return g_level; }

void log_line(LogLevel level, const std::string& who, const std::string& what) {
  if (level < g_level) return;
  static const char tag[] = {'D', 'I', 'W', 'E'};
  std::string t = sc_core::sc_time_stamp().to_string();
  std::ostream& os = level >= LogLevel::Warning ? std::cerr : std::cout;
  os << '[' << tag[static_cast<int>(level)] << ' ' << t << "] " << who << ": " << what << '\n';
}

std::string systemc_name(const std::string& path) {
  std::string out = path;
  for (char& c : out)
    if (c == '.') c = '/';
  return out;
}

Block::Block(const BlockContext& ctx)
    : sc_core::sc_module(sc_core::sc_module_name(systemc_name(ctx.path).c_str())),
      path_(ctx.path),
      type_(ctx.type),
      period_(ctx.clock_period),
      stats_(&ctx.stats->group(ctx.path)),
      shared_(ctx.shared) {}

tlm::tlm_initiator_socket<>* Block::initiator_socket(const std::string&, int) { return nullptr; }
tlm::tlm_target_socket<>* Block::target_socket(const std::string&, int) { return nullptr; }

}  // namespace tessera
