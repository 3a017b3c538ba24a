#include "platform/netlist_reference.h"

#include <cmath>
#include <map>
#include <sstream>

#include "platform/errors.h"
#include "platform/netlist_json.h"
#include "platform/units.h"

namespace tessera {
namespace {

// Each figure and the unit it is written in.
const std::vector<std::pair<std::string, ReferenceUnit>>& figures() {
  static const std::vector<std::pair<std::string, ReferenceUnit>> f = {
      {"l1_latency", ReferenceUnit::Cycles},          {"l2_latency", ReferenceUnit::Cycles},
      {"l3_latency", ReferenceUnit::Cycles},          {"dram_latency", ReferenceUnit::Cycles},
      {"remote_latency", ReferenceUnit::Cycles},      {"remote_l2_latency", ReferenceUnit::Cycles},
      {"dram_bandwidth", ReferenceUnit::BytesPerSecond},
      {"l2_bandwidth", ReferenceUnit::BytesPerSecond}, {"link_bandwidth", ReferenceUnit::BytesPerSecond},
      {"valu_rate", ReferenceUnit::PerCycle},         {"salu_rate", ReferenceUnit::PerCycle},
      {"mfma_rate", ReferenceUnit::PerCycle},         {"lds_bandwidth", ReferenceUnit::BytesPerCycle},
      {"issue_rate", ReferenceUnit::PerCycle}};
  return f;
}

std::string expected_list() {
  std::string out;
  for (const auto& f : figures()) out += (out.empty() ? "" : ", ") + f.first;
  return out;
}

// "60 cycles", "128 B/cycle", "0.25 per cycle": a positive number and the unit.
double parse_per_cycle(const std::string& text, ReferenceUnit unit, const std::string& path) {
  const std::string want = reference_unit_text(unit);
  std::istringstream in(text);
  double v = 0;
  std::string rest;
  in >> v;
  std::getline(in >> std::ws, rest);
  if (in.bad() || !std::isfinite(v) || rest != want || text.empty() || !(std::isdigit(text[0]) || text[0] == '.'))
    throw NetlistError(path, "expected a number of " + want + " such as \"60 " + want + "\", got \"" + text + "\"");
  return v;
}

double parse_value(const json& value, ReferenceUnit unit, const std::string& path) {
  if (!value.is_string())
    throw NetlistError(path, std::string("expected a string such as \"") +
                                 (unit == ReferenceUnit::BytesPerSecond ? "256 GB/s" : "60 cycles") + "\", got " +
                                 describe_json(value));
  const std::string text = value.get<std::string>();
  double v = 0;
  if (unit == ReferenceUnit::BytesPerSecond) {
    try {
      v = parse_quantity(text, Quantity::Bandwidth);
    } catch (const UserError& e) {
      throw NetlistError(path, e.what());
    }
  } else {
    v = parse_per_cycle(text, unit, path);
  }
  if (!(v > 0)) throw NetlistError(path, "a reference figure must be positive, got \"" + text + "\"");
  return v;
}

std::string read_source(const json& v, const std::string& path) {
  if (!v.is_string() || v.get<std::string>().empty())
    throw NetlistError(path, "expected a citation string (paper, table, document), got " + describe_json(v));
  return v.get<std::string>();
}

}  // namespace

const std::vector<std::string>& reference_figure_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : figures()) n.push_back(f.first);
    return n;
  }();
  return names;
}

ReferenceUnit reference_unit(const std::string& figure) {
  for (const auto& f : figures())
    if (f.first == figure) return f.second;
  throw UserError("unknown reference figure \"" + figure + "\"");
}

const char* reference_unit_text(ReferenceUnit u) {
  switch (u) {
    case ReferenceUnit::Cycles: return "cycles";
    case ReferenceUnit::BytesPerSecond: return "B/s";
    case ReferenceUnit::BytesPerCycle: return "B/cycle";
    case ReferenceUnit::PerCycle: return "per cycle";
  }
  return "";
}

std::vector<ReferenceFigure> read_reference(const json& section, const std::string& path) {
  if (!section.is_object())
    throw NetlistError(path, "expected an object of figure -> value with a \"source\", got " + describe_json(section));
  std::string source;
  if (section.contains("source")) source = read_source(section["source"], json_path(path, "source"));
  std::vector<ReferenceFigure> out;
  for (const auto& [key, value] : section.items()) {
    if (key == "source") continue;
    const std::string at = json_path(path, key);
    ReferenceFigure f;
    f.name = key;
    try {
      f.unit = reference_unit(key);
    } catch (const UserError&) {
      throw NetlistError(at, "unknown reference figure \"" + key + "\"; expected one of " + expected_list() +
                                 " (and \"source\")");
    }
    f.source = source;
    if (value.is_object()) {
      for (const auto& [k, v] : value.items())
        if (k != "value" && k != "source")
          throw NetlistError(json_path(at, k), "unknown key \"" + k + "\" in a reference figure; expected value, source");
      if (!value.contains("value")) throw NetlistError(at, "a reference figure needs \"value\"");
      f.value = parse_value(value["value"], f.unit, json_path(at, "value"));
      if (value.contains("source")) f.source = read_source(value["source"], json_path(at, "source"));
    } else {
      f.value = parse_value(value, f.unit, at);
    }
    if (f.source.empty())
      throw NetlistError(at, "a reference figure needs a source: give the section a \"source\" or the figure "
                             "{\"value\": ..., \"source\": ...}");
    out.push_back(std::move(f));
  }
  // In the order calibrate prints them, not the file's.
  std::vector<ReferenceFigure> ordered;
  for (const auto& name : reference_figure_names())
    for (const auto& f : out)
      if (f.name == name) ordered.push_back(f);
  return ordered;
}

}  // namespace tessera
