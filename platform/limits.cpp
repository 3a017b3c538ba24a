#include "platform/limits.h"

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

const std::vector<LimitInfo>& limit_table() {
  static const std::vector<LimitInfo> table = {
      {"instances", &Limits::instances, "block instances in a netlist after template expansion"},
      {"cp_cores", &Limits::cp_cores, "cp_core blocks in a netlist (each runs its own emulator)"},
      {"netlist_bytes", &Limits::netlist_bytes, "size of a netlist file"},
      {"code_object_bytes", &Limits::code_object_bytes, "size of a code object file"},
      {"firmware_bytes", &Limits::firmware_bytes, "size of a firmware ELF file"},
      {"device_memory_bytes", &Limits::device_memory_bytes,
       "device memory one run may allocate (default: a quarter of the host's physical memory)"},
      {"platform_bytes", &Limits::platform_bytes,
       "host memory a netlist's blocks would take once elaborated, estimated per block at validation "
       "(default: half of the host's physical memory)"},
      {"wave_instructions", &Limits::wave_instructions,
       "instructions one wave may execute before it is reported as spinning"},
      {"firmware_polls", &Limits::firmware_polls,
       "command-processor register reads in a row with no write, device-memory access or sleep before the "
       "firmware is reported as spinning"},
      {"repeated_warnings", &Limits::repeated_warnings,
       "identical warnings printed by one block before the rest are only counted"},
  };
  return table;
}

namespace {

const LimitInfo* find_limit(const std::string& name) {
  for (const LimitInfo& l : limit_table())
    if (name == l.name) return &l;
  return nullptr;
}

std::string limit_names() {
  std::string out;
  for (const LimitInfo& l : limit_table()) out += (out.empty() ? "" : ", ") + std::string(l.name);
  return out;
}

bool is_size_limit(const std::string& name) {
  return name.size() > 6 && name.compare(name.size() - 6, 6, "_bytes") == 0;
}

uint64_t parse_limit_value(const std::string& name, const std::string& text) {
  if (is_size_limit(name) && text.find_first_not_of("0123456789") != std::string::npos) {
    try {
      return parse_size(text);
    } catch (const UserError& e) {
      throw UsageError("--limit " + name + ": " + e.what());
    }
  }
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-' || v == 0)
    throw UsageError("--limit " + name + " expects a positive integer" +
                     std::string(is_size_limit(name) ? " or a size such as \"512 MiB\"" : "") + ", got \"" + text +
                     "\"");
  return v;
}

}  // namespace

void set_limit(const std::string& assignment) {
  const size_t eq = assignment.find('=');
  const std::string name = assignment.substr(0, eq);
  const LimitInfo* info = find_limit(name);
  if (eq == std::string::npos || !info)
    throw UsageError("--limit expects NAME=VALUE with NAME one of " + limit_names() + ", got \"" + assignment + "\"");
  limits().*(info->field) = parse_limit_value(name, assignment.substr(eq + 1));
}

}  // namespace tessera
