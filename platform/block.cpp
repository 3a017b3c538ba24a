#include "platform/block.h"

#include "platform/trace.h"

#include <cstdio>
#include <iostream>
#include <map>

#include "platform/limits.h"

namespace tessera {
namespace {
LogLevel g_level = LogLevel::Info;
}

void set_log_level(LogLevel level) { g_level = level; }
LogLevel log_level() { return g_level; }

namespace {

// How often each warning or error text has been logged, by "who: what". Texts
// past the cap are counted only; past kMaxDistinct texts new ones are not
// tracked (each of those is printed).
constexpr size_t kMaxDistinct = 100000;
std::map<std::string, uint64_t>& repeats() {
  static std::map<std::string, uint64_t> seen;
  return seen;
}

// False once a warning or error has been printed limits().repeated_warnings times.
bool first_few(LogLevel level, const std::string& who, const std::string& what) {
  if (level < LogLevel::Warning) return true;
  const std::string key = who + ": " + what;
  auto it = repeats().find(key);
  if (it == repeats().end()) {
    if (repeats().size() < kMaxDistinct) repeats().emplace(key, 1);
    return true;
  }
  const uint64_t n = ++it->second;
  if (n == limits().repeated_warnings + 1)
    std::cerr << "[" << sc_core::sc_time_stamp().to_string() << "] " << who
              << ": the message above repeats; further copies are counted and summarised at the end "
              << limit_hint("repeated_warnings", limits().repeated_warnings) << '\n';
  return n <= limits().repeated_warnings;
}

}  // namespace

void print_repeated_messages(std::ostream& os) {
  for (const auto& [text, n] : repeats())
    if (n > limits().repeated_warnings)
      os << "repeated " << n << " times (" << n - limits().repeated_warnings << " not printed): " << text << '\n';
}

void log_line(LogLevel level, const std::string& who, const std::string& what) {
  if (level < g_level || !first_few(level, who, what)) return;
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
