#include "platform/block.h"

#include "platform/trace.h"

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

namespace {
const BlockNameScope* g_scope = nullptr;  // innermost factory call in progress
}

BlockNameScope::BlockNameScope(const std::string& path)
    : path_(path), systemc_name_(systemc_name(path)), name_(systemc_name_.c_str()), outer_(g_scope) {
  g_scope = this;
}

BlockNameScope::~BlockNameScope() { g_scope = outer_; }

// sc_module(const sc_module_name&) uses the name on top of SystemC's stack. Built
// by a factory, that is the scope's name, alive until the derived constructor
// is done. Built directly, a temporary name serves, which SystemC pops as soon as
// Block's base is constructed: such a block cannot own member sockets.
Block::Block(const BlockContext& ctx)
    : sc_core::sc_module(g_scope && g_scope->path_ == ctx.path
                             ? static_cast<const sc_core::sc_module_name&>(g_scope->name_)
                             : static_cast<const sc_core::sc_module_name&>(
                                   sc_core::sc_module_name(systemc_name(ctx.path).c_str()))),
      path_(ctx.path),
      type_(ctx.type),
      period_(ctx.clock_period),
      stats_(&ctx.stats->group(ctx.path)),
      shared_(ctx.shared) {
  if (ctx.tracer) {
    trace_kinds_ = ctx.tracer->kinds_for(ctx.path);
    if (trace_kinds_) tracer_ = ctx.tracer;
  }
}

tlm::tlm_initiator_socket<>* Block::initiator_socket(const std::string&, int) { return nullptr; }
tlm::tlm_target_socket<>* Block::target_socket(const std::string&, int) { return nullptr; }

}  // namespace tessera
