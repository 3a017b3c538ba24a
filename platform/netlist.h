// The netlist: which blocks exist, with which parameters and clocks, and how
// their sockets are bound. load_netlist() turns the JSON form (docs/NETLIST.md)
// into a flat, validated Netlist: templates and ranges expanded, overrides
// applied, parameters converted to base units, bindings resolved to concrete
// sockets and checked, address maps turned into router parameters.
//
// Everything here is plain C++ against the registry's schemas: validating a
// netlist needs no SystemC elaboration, so `tessera validate` and the tests can
// check any number of netlists in one process.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "platform/netlist_reference.h"
#include "platform/param_values.h"
#include "platform/params.h"
#include "platform/registry.h"

namespace tessera {

// A command-line (or template "set") override: PATTERN.PARAM = VALUE.
struct Override {
  std::string pattern;  // instance pattern, e.g. "chiplet[*].l2"
  std::string param;    // parameter name, or "clock"
  json value;
  std::string origin;   // where it was written, for messages: "--set chiplet[*].l2.size"
};

// Parses "chiplet[*].l2.size=4 MiB". The value is JSON if it parses as JSON,
// otherwise the text itself as a string. Throws UserError on a bad form.
Override parse_override(const std::string& text);

struct SocketRef {
  std::string instance;  // "chiplet[2].xbar"
  std::string socket;    // "in"
  int index = -1;        // -1 for a scalar socket
  std::string text() const;  // "chiplet[2].xbar.in[3]"
};

struct BindingSpec {
  SocketRef initiator, target;
  std::string origin;  // JSON path of the binding string, e.g. "/bindings/2"
};

struct InstanceSpec {
  std::string path;    // "chiplet[2].l2"
  const BlockType* type = nullptr;
  std::string clock;   // clock domain name
  double clock_hz = 0;
  std::string origin;  // JSON path of its declaration
  ParamValues params;                        // every parameter of the type, in base units
  std::map<std::string, int> socket_counts;  // vector sockets: how many indices are bound; bound scalar sockets: 1

  // Where messages about this instance point: "/components/chiplet[2]/l2".
  std::string error_path() const;
};

struct Netlist {
  std::map<std::string, double> clocks;  // name -> Hz
  std::string default_clock;
  std::vector<InstanceSpec> instances;   // in netlist order: the order of elaboration
  std::vector<BindingSpec> bindings;     // in netlist order
  size_t address_ranges = 0;
  std::vector<ReferenceFigure> references;  // the "reference" section, if any

  const InstanceSpec* find(const std::string& path) const;
  double default_clock_hz() const { return clocks.at(default_clock); }
};

// Validates and flattens a parsed netlist. `overrides` are applied after the
// netlist's own values (command-line --set). Throws NetlistError naming the JSON
// path and what was expected.
Netlist load_netlist(const json& doc, const std::vector<Override>& overrides = {},
                     const Registry& registry = Registry::instance());

// Reads, parses and validates a netlist file.
Netlist load_netlist_file(const std::string& file, const std::vector<Override>& overrides = {},
                          const Registry& registry = Registry::instance());

// The name of the clock a netlist without "clocks" gets, and its frequency.
constexpr const char* kBuiltinClockName = "default";
constexpr double kBuiltinClockHz = 1e9;

// The clock range: simulated time counts whole picoseconds, so a period
// below 10 ps (above 100 GHz) would be rounded by more than 5 %, and one of
// 1 ps or less to nothing; a clock below 1 kHz has cycles of a millisecond or
// more, which no GPU block has.
constexpr double kMinClockHz = 1e3;
constexpr double kMaxClockHz = 100e9;

}  // namespace tessera
