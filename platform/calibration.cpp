#include "platform/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "platform/errors.h"
#include "platform/page_homes.h"
#include "platform/timing_device.h"
#include "sw/workloads/calib.h"

namespace tessera {
namespace {

namespace calib = workloads::calib;
using runtime::DevicePtr;

// Links measured per round trip, after a warm-up; a chase is the difference
// of two launches, so launch overheads cancel.
constexpr uint32_t kLinks = 512;
// Links measured per round trip under load (fewer: each launch also streams).
constexpr uint32_t kLoadedLinks = 256;
// The reference netlists interleave memory over the chiplets in pages of this.
constexpr uint32_t kNocPage = 4096;
// Workgroups of 256 per CU in the bandwidth streams: with more, issue turns
// make them progress together and a loop step spans that many more DRAM rows
// (docs/TIMING.md, "Where a stream's bandwidth goes").
constexpr uint32_t kStreamWorkgroupsPerCu = 1;
// Bytes per reading chiplet in the shorter of the chiplet streams' two
// launches (the longer reads twice as many). Each launch carries some 20 000
// cycles of launch, kernel-boundary maintenance and ramp that the difference
// cancels only as far as the two launches' are alike; at 8 MiB the difference
// was 10 000 - 30 000 cycles and the figure moved by several percent with the
// traffic around it (docs/TIMING.md, "The calibration tests"), at 32 MiB that
// residue is a quarter as large against the stream.
constexpr uint64_t kChipletStreamBytes = 32u << 20;

// The netlist's parameters, looked up by instance.
class InstanceParams {
 public:
  explicit InstanceParams(const Netlist& n) : net_(n) {}
  const json& raw(const std::string& inst, const std::string& name) const {
    const InstanceSpec* i = net_.find(inst);
    if (!i || !i->params.count(name)) throw UserError("calibrate: the netlist has no " + inst + "." + name);
    return i->params.at(name);
  }
  double operator()(const std::string& inst, const std::string& name) const {
    return raw(inst, name).get<double>();
  }
  double cycles(const std::string& inst, const std::string& name) const {
    return (*this)(inst, name) * net_.default_clock_hz();
  }
  // The first instance of `type` whose path starts with `prefix`, or "".
  std::string first(const std::string& type, const std::string& prefix = "") const {
    for (const auto& i : net_.instances)
      if (i.type->name == type && i.path.rfind(prefix, 0) == 0) return i.path;
    return "";
  }
  std::vector<std::string> all(const std::string& type) const {
    std::vector<std::string> out;
    for (const auto& i : net_.instances)
      if (i.type->name == type) out.push_back(i.path);
    return out;
  }
  const Netlist& netlist() const { return net_; }

 private:
  const Netlist& net_;
};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace

namespace calibration {

CrossbarCycles crossbar_cycles(const Netlist& net, const std::string& xbar, double line) {
  const InstanceParams p(net);
  auto link = [&](const char* width, double bytes) {
    const double w = p(xbar, width);
    return w == 0 ? 0.0 : std::max(1.0, std::ceil(bytes / w));
  };
  const double latency = p(xbar, "latency");
  return {link("in_width", 0) + latency + link("out_width", 0), link("out_width", line) + latency + link("in_width", line)};
}

double chase_link(double memory, double period) {
  const double whole = std::ceil(memory - 1e-9);
  return period * std::ceil((whole + 1) / period - 1e-9) + period;
}

double issue_period_beside(const Netlist& net, const std::string& l1) {
  const size_t dot = l1.rfind('.');
  const std::string parent = dot == std::string::npos ? "" : l1.substr(0, dot + 1);
  const InstanceParams p(net);
  const std::string cu = p.first("compute_unit", parent);
  if (cu.empty()) throw UserError("calibrate: no compute_unit beside " + l1);
  return p(cu, "issue_period");
}

RoundTrips implied_round_trips(const Netlist& net, const Hierarchy& h) {
  const InstanceParams p(net);
  const CrossbarCycles x = crossbar_cycles(net, h.xbar, p(h.l1, "line_size"));
  RoundTrips r;
  r.issue_period = issue_period_beside(net, h.l1);
  r.memory_l1 = p(h.l1, "hit_latency");
  r.memory_l2 = p(h.l1, "miss_latency") + x.request + p(h.l2, "hit_latency") + x.response;
  const double bursts = std::ceil(p(h.l2, "line_size") / p(h.dram, "burst_size"));
  const double transfer = bursts * p(h.dram, "burst_size") / p(h.dram, "bandwidth") * p.netlist().default_clock_hz();
  const double row_conflict = p.cycles(h.dram, "tRP") + p.cycles(h.dram, "tRCD") + p.cycles(h.dram, "tCL");
  const double dram = row_conflict + transfer + p.cycles(h.dram, "controller_latency");
  r.memory_dram = r.memory_l2 - p(h.l2, "hit_latency") + p(h.l2, "miss_latency") + dram;
  r.l1 = chase_link(r.memory_l1, r.issue_period);
  r.l2 = chase_link(r.memory_l2, r.issue_period);
  r.dram = chase_link(r.memory_dram, r.issue_period);
  const std::string cu = "issue period " + num(r.issue_period) + " x ceil((memory + 1) / period) + one turn";
  r.how_l1 = cu + "; memory " + num(p(h.l1, "hit_latency")) + " (L1 hit)";
  r.how_l2 = "memory " + num(p(h.l1, "miss_latency")) + " (L1 miss) + " + num(x.request) + " + " +
             num(p(h.l2, "hit_latency")) + " (L2 hit) + " + num(x.response) + " (crossbar)";
  r.how_dram = "memory: L2 - L2 hit + " + num(p(h.l2, "miss_latency")) + " (L2 miss) + " + num(dram) +
               " (row conflict, transfer, controller)";
  return r;
}

// The DRAM chain of a single die: links in L2 slice 0's channel, visiting its
// banks in turn, each bank's next link in another row (every link a row
// conflict). `slices` slices interleave 128 B chunks; banks every `bank_bytes`.
std::vector<uint32_t> dram_chain(uint32_t slices, uint32_t banks, uint32_t bank_bytes) {
  std::vector<uint32_t> links;
  for (uint32_t column = 0; column < bank_bytes / 128; ++column)
    for (uint32_t row = 0; row < 5; ++row)
      for (uint32_t bank = 0; bank < banks; ++bank) {
        const uint64_t local = uint64_t(row) * banks * bank_bytes + uint64_t(bank) * bank_bytes + column * 128;
        links.push_back(static_cast<uint32_t>(local / 128 * 128 * slices + local % 128));
      }
  return links;
}

// The DRAM chain of chiplet `home` for addresses from `base` (a multiple of
// chiplets x page): links homed there, all in channel 0 of its controller,
// visiting its banks in turn, each in another row than the one it left open.
std::vector<uint32_t> chiplet_dram_chain(const Netlist& net, const std::string& dram, uint64_t base, uint32_t home,
                                         uint32_t chiplets, uint32_t line, uint32_t span, size_t links) {
  const InstanceParams p(net);
  const uint64_t channels = uint64_t(p(dram, "channels")), banks = uint64_t(p(dram, "banks"));
  const uint64_t chunk = uint64_t(p(dram, "channel_interleave"));
  const uint64_t bank_bytes = uint64_t(p(dram, "bank_interleave")), row = uint64_t(p(dram, "row_size"));
  const uint64_t dram_base = uint64_t(p(dram, "base"));
  const uint64_t ways = uint64_t(p(dram, "interleave_ways")), granule = uint64_t(p(dram, "interleave_size"));
  const bool bank_xor = p.raw(dram, "bank_hash").get<std::string>() == "xor";
  std::map<std::pair<uint64_t, uint64_t>, std::vector<uint32_t>> lines;  // (bank, row) -> lines
  std::set<uint64_t> bank_set, row_set;
  for (uint32_t off = line; off < span; off += line) {
    const uint64_t a = base + off;
    if ((a / kNocPage) % chiplets != home) continue;
    // The controller's mapping (DramController::locate): its peers' turns squeezed out, then channels, banks, rows.
    uint64_t o = a - dram_base;
    if (ways > 1) o = o / (granule * ways) * granule + o % granule;
    if ((o / chunk) % channels != 0) continue;
    const uint64_t local = o / (chunk * channels) * chunk + o % chunk;
    const uint64_t in_bank = local / (bank_bytes * banks) * bank_bytes + local % bank_bytes;
    const uint64_t bank = bank_xor ? ((local / bank_bytes) ^ (in_bank / row)) % banks : (local / bank_bytes) % banks;
    lines[{bank, in_bank / row}].push_back(off);
    bank_set.insert(bank);
    row_set.insert(in_bank / row);
  }
  if (bank_set.size() < 2) throw UserError("calibrate: " + dram + " maps a chiplet's pages to fewer than 2 banks");
  const size_t columns = lines.begin()->second.size();
  std::vector<uint64_t> rows;
  for (uint64_t r : row_set) {
    bool full = true;
    for (uint64_t b : bank_set) full = full && lines.count({b, r}) && lines[{b, r}].size() >= columns;
    if (full) rows.push_back(r);
  }
  std::vector<uint32_t> chain{0};
  for (size_t col = 0; col < columns && chain.size() < links; ++col)
    for (uint64_t r : rows)
      for (uint64_t b : bank_set)
        if (chain.size() < links) chain.push_back(lines[{b, r}][col]);
  if (chain.size() < links) throw UserError("calibrate: too few DRAM rows for a chase on " + dram);
  return chain;
}

uint32_t chiplet_hops(const std::string& topology, uint32_t from, uint32_t to, uint32_t n, uint32_t columns) {
  if (from == to) return 0;
  if (topology == "ring") {
    const uint32_t up = (to + n - from) % n;
    return std::min(up, n - up);
  }
  if (topology == "mesh") {
    auto distance = [](uint32_t a, uint32_t b) { return a > b ? a - b : b - a; };
    return distance(from % columns, to % columns) + distance(from / columns, to / columns);
  }
  return topology == "switch" ? 2 : 1;
}

}  // namespace calibration

namespace {

using calibration::CrossbarCycles;
using calibration::Hierarchy;
using calibration::RoundTrips;

// L1: 64 links one L1 line apart. L2: 1024 links 128 B apart (128 KiB), more
// than an L1 set holds, far less than the L2.
std::vector<uint32_t> strided(uint32_t links, uint32_t stride) {
  std::vector<uint32_t> v;
  for (uint32_t k = 0; k < links; ++k) v.push_back(k * stride);
  return v;
}

class Calibrator {
 public:
  Calibrator(const CalibrationOptions& o, bool direct)
      : options_(o), dev_(device_options(o, direct)), p_(dev_.platform().netlist()) {
    find_first_touch();
  }

  CalibrationReport run() {
    CalibrationReport r;
    r.netlist_file = options_.netlist_file;
    r.clock_hz = p_.netlist().default_clock_hz();
    const std::string noc = p_.first("chiplet_network");
    if (wanted({"l1_latency", "l2_latency", "dram_latency", "remote_latency", "remote_l2_latency", "l3_latency"})) {
      if (noc.empty())
        round_trips_single_die(r);
      else
        round_trips_chiplets(r, noc);
    }
    if (wanted({"dram_bandwidth", "dram_interleaved"})) dram_stream(r);
    if (!noc.empty() && wanted({"link_bandwidth"})) link_stream(r, noc);
    if (wanted({"loaded_latency"})) loaded_latency(r, noc);
    if (noc.empty() && wanted({"l2_bandwidth"})) l2_stream(r);
    throughputs(r);
    attach_references(r);
    if (options_.keep_stats) r.stats = dev_.finish();
    return r;
  }

 private:
  static TimingDeviceOptions device_options(const CalibrationOptions& o, bool direct) {
    TimingDeviceOptions t;
    t.netlist_file = o.netlist_file;
    t.overrides = o.overrides;
    t.kernel_dir = o.kernel_dir;
    // Single-die netlists launch straight through their dispatcher, so no
    // firmware time is measured; chiplet netlists (a dispatcher per chiplet)
    // through the command processor, whose time cancels in the differences.
    t.direct_dispatch = direct;
    return t;
  }

  bool wanted(std::initializer_list<const char*> figures) const {
    if (options_.only.empty()) return true;
    for (const char* f : figures)
      if (std::find(options_.only.begin(), options_.only.end(), f) != options_.only.end()) return true;
    return false;
  }

  void say(const std::string& what) {
    if (options_.progress) options_.progress(what);
  }

  static void check(const workloads::Result& r, const std::string& what) {
    if (!r.passed) throw runtime::DeviceError(what + ": output differs from the CPU reference: " + r.message);
  }

  // Pages placed at first touch (the platform's page table, which the blocks
  // that place pages share): every page the calibration allocates is placed
  // where a netlist interleaving 4 KiB pages over the chiplets has it (page p
  // on chiplet p mod N), as an allocator that binds memory to chiplets would,
  // so that "chiplet c's pages" mean the same on both and each figure
  // measures the path it names.
  void find_first_touch() {
    homes_ = dev_.platform().shared().find<PageHomes>(kPageHomesName);
    if (!homes_) return;
    if (homes_->page_size() != kNocPage)
      throw UserError("calibrate: the netlist places pages of " + std::to_string(homes_->page_size()) +
                      " B at first touch; the calibration places its buffers in pages of " +
                      std::to_string(kNocPage) + " B");
    const std::string noc = p_.first("chiplet_network");
    if (!noc.empty()) chiplets_ = uint32_t(p_(noc, "chiplets"));
  }

  // dev_.alloc, with the pages placed (find_first_touch).
  DevicePtr alloc(uint64_t bytes) {
    const DevicePtr p = dev_.alloc(bytes);
    if (homes_)
      for (uint64_t a = p / kNocPage * kNocPage; a < p + bytes; a += kNocPage)
        if (!homes_->place(a, uint32_t(a / kNocPage % chiplets_)))
          throw runtime::DeviceError("calibrate: the page at " + std::to_string(a) + " was placed on another chiplet before "
                                     "the calibration allocated it");
    return p;
  }

  DevicePtr out() {
    if (!out_) out_ = alloc(4u << 20);
    return out_;
  }

  uint64_t chase(DevicePtr chain, const std::vector<uint32_t>& links, uint32_t warm, uint32_t steps,
               uint64_t result_offset) {
    // The same warm-up before every measured launch: the same DRAM row state.
    check(calib::chase(dev_, chain, links, warm, out() + result_offset), "calib_chase");
    const workloads::Result r = calib::chase(dev_, chain, links, steps, out() + result_offset);
    check(r, "calib_chase");
    return r.stats.kernel_cycles;
  }

  // Cycles per link: kLinks more links than `base`, over kLinks.
  double per_link(const std::vector<uint32_t>& links, uint32_t base, DevicePtr chain = 0, uint64_t result_offset = 0) {
    if (!chain) {
      chain = alloc(*std::max_element(links.begin(), links.end()) + 4);
      calib::write_chain(dev_, chain, links);
    }
    const uint64_t a = chase(chain, links, base, base, result_offset);
    const uint64_t b = chase(chain, links, base, base + kLinks, result_offset);
    return double(int64_t(b) - int64_t(a)) / kLinks;
  }

  void add(CalibrationReport& r, const std::string& name, const std::string& how, ReferenceUnit unit,
           double measured, std::optional<double> implied, const std::string& implied_how) {
    CalibrationFigure f;
    f.name = name;
    f.how = how;
    f.unit = unit;
    f.measured = measured;
    f.implied = implied;
    f.implied_how = implied_how;
    r.figures.push_back(std::move(f));
  }

  void round_trips_single_die(CalibrationReport& r) {
    const Hierarchy h{p_.first("l1v_cache"), p_.first("l2_cache"), p_.first("crossbar"), p_.first("dram_controller")};
    if (h.l1.empty() || h.l2.empty() || h.xbar.empty() || h.dram.empty()) {
      say("no vector L1, L2, crossbar and DRAM controller: no round trips");
      return;
    }
    const RoundTrips want = calibration::implied_round_trips(p_.netlist(), h);
    say("pointer chase: L1");
    add(r, "l1_latency", "pointer chase, 64 links 64 B apart", ReferenceUnit::Cycles, per_link(strided(64, 64), 64),
        want.l1, want.how_l1);
    say("pointer chase: L2");
    add(r, "l2_latency", "pointer chase, 1024 links 128 B apart", ReferenceUnit::Cycles,
        per_link(strided(1024, 128), 1024), want.l2, want.how_l2);
    say("pointer chase: DRAM");
    const auto d = calibration::dram_chain(uint32_t(p_(h.dram, "channels")), uint32_t(p_(h.dram, "banks")),
                              uint32_t(p_(h.dram, "bank_interleave")));
    add(r, "dram_latency", "pointer chase, a new DRAM row every link", ReferenceUnit::Cycles, per_link(d, 96),
        want.dram, want.how_dram);
  }

  // The chiplet whose compute units ran instructions (a one-work-item grid
  // runs on one).
  uint32_t chiplet_that_ran(uint32_t chiplets) {
    for (uint32_t k = 0; k < chiplets; ++k) {
      const std::string prefix = "chiplet[" + std::to_string(k) + "].";
      for (const StatGroup* g : dev_.platform().stats().groups())
        if (g->path().rfind(prefix, 0) == 0 && g->path().find("cu[") != std::string::npos &&
            g->to_json().value("instructions", uint64_t{0}) > 0)
          return k;
    }
    throw runtime::DeviceError("calibrate: no chiplet ran the chase");
  }

  // How a chiplet's L2s reach memory, and where another chiplet's line is
  // kept. Where the chiplet network delivers requests to the home chiplet's L2
  // slices (straight or through a crossbar: CPElide's organisation), an L2
  // keeps only its own chiplet's lines, its misses go to its chiplet's memory
  // side without the network, and another chiplet's line is served by its
  // home's L2 across the network. Otherwise every L2 miss crosses the network
  // to the home's memory side, and the requester's L2 keeps what it fetched.
  struct Organisation {
    bool home_l2 = false;
    std::string into;                // the crossbar in front of the home's L2 slices, or ""
    CrossbarCycles into_cycles{0, 0};
    CrossbarCycles local{0, 0};      // an L2 miss to its own chiplet's memory side and back
  };

  Organisation organisation(const std::string& noc, const std::string& l2, uint32_t home, double line) const {
    const Netlist& net = p_.netlist();
    auto target_of = [&](const std::string& inst, const std::string& socket, int index) {
      for (const BindingSpec& b : net.bindings)
        if (b.initiator.instance == inst && b.initiator.socket == socket && b.initiator.index == index)
          return b.target.instance;
      return std::string();
    };
    auto type_of = [&](const std::string& inst) { return inst.empty() ? "" : net.find(inst)->type->name; };
    Organisation o;
    const std::string into = target_of(noc, "out", int(home));
    if (type_of(into) == "l2_cache") o.home_l2 = true;
    if (type_of(into) == "crossbar")
      for (const BindingSpec& b : net.bindings)
        if (b.initiator.instance == into && type_of(b.target.instance) == "l2_cache") {
          o.home_l2 = true;
          o.into = into;
          o.into_cycles = calibration::crossbar_cycles(net, into, line);
        }
    if (!o.home_l2) {
      o.local = calibration::crossbar_cycles(net, noc, line);
      return o;
    }
    const std::string below = target_of(l2, "out", -1);
    if (type_of(below) == "crossbar" || type_of(below) == "chiplet_network")
      o.local = calibration::crossbar_cycles(net, below, line);
    return o;
  }

  void round_trips_chiplets(CalibrationReport& r, const std::string& noc) {
    const uint32_t chiplets = uint32_t(p_(noc, "chiplets"));
    // A first chase finds the chiplet that runs one-work-item grids; the
    // measured one then keeps its lines on that chiplet's pages, so that the
    // misses of each launch's first lap do not depend on another chiplet.
    say("pointer chase: L1");
    per_link(strided(64, 64), 64);
    const uint32_t own = chiplet_that_ran(chiplets);
    const double l1 = homed_chase(own, chiplets, 64, 64);
    const uint32_t remote = (own + 1) % chiplets;
    const std::string prefix = "chiplet[" + std::to_string(own) + "].";
    const Hierarchy h{p_.first("l1v_cache", prefix), p_.first("l2_cache", prefix), p_.first("crossbar", prefix),
                      p_.first("dram_controller", prefix)};
    RoundTrips want = calibration::implied_round_trips(p_.netlist(), h);
    const double line = p_(h.l2, "line_size");
    const Organisation org = organisation(noc, h.l2, remote, line);
    const CrossbarCycles& local = org.local;
    // A chiplet's L3 slice (in front of its memory) adds its miss_latency to a DRAM access.
    const std::string l3 = p_.first("l3_cache", prefix);
    const double l3_miss = l3.empty() ? 0 : p_(l3, "miss_latency");
    if (!l3.empty()) want.how_dram += " + " + num(l3_miss) + " (L3 miss)";
    // The fill returns on an L2 clock edge: DRAM timings that are not whole
    // cycles round the sum up (chase_link).
    const double local_memory = want.memory_dram + l3_miss + local.request + local.response;
    const double local_dram = calibration::chase_link(local_memory, want.issue_period);
    add(r, "l1_latency", "pointer chase, 64 links 64 B apart on chiplet " + std::to_string(own) + "'s pages", ReferenceUnit::Cycles,
        l1, want.l1, want.how_l1);
    say("pointer chase: L2");
    add(r, "l2_latency", "pointer chase, 1024 links 128 B apart on chiplet " + std::to_string(own) + "'s pages",
        ReferenceUnit::Cycles, homed_chase(own, chiplets, 1024, 128), want.l2, want.how_l2);
    const uint32_t span = 16u << 20;
    const DevicePtr base = chiplet_aligned(span, chiplets);
    // Each chase stores its result in a third chiplet's memory, away from
    // the rows the chain leaves open.
    auto to_home = [&](uint32_t home) {
      const auto links = calibration::chiplet_dram_chain(p_.netlist(), "chiplet[" + std::to_string(home) + "].dram", base, home, chiplets, uint32_t(line), span,
                                            96 + kLinks + 32);
      calib::write_chain(dev_, base, links);
      const uint32_t away = (home + 1) % chiplets == own && chiplets > 2 ? (home + 2) % chiplets : (home + 1) % chiplets;
      return per_link(links, 96, base, uint64_t(away) * kNocPage);
    };
    say("pointer chase: DRAM, own chiplet");
    const std::string to_memory_side = org.home_l2 ? " (to the L3 or memory)" : " (chiplet network)";
    add(r, "dram_latency", "pointer chase, a new DRAM row every link, own chiplet's memory", ReferenceUnit::Cycles,
        to_home(own), local_dram,
        want.how_dram + " + " + num(local.request + local.response) + to_memory_side + ", rounded up");
    say("pointer chase: DRAM, chiplet " + std::to_string(remote));
    const double link_bytes = p_(noc, "link_bandwidth") / p_.netlist().default_clock_hz();
    const double flit = p_(noc, "flit_size"), link_latency = p_(noc, "link_latency");
    auto serialise = [&](double bytes) {
      return std::ceil(std::max(1.0, std::ceil(bytes / flit)) * flit / link_bytes - 1e-9);
    };
    // A message to another chiplet crosses each link of its route, each way:
    // instead of the switch stage's `latency` a local one takes, or, where
    // the home's L2 serves it, in front of that L2 and the home's crossbar.
    const double n_hops = hops(p_, noc, own, remote, chiplets);
    const double crossing = n_hops * (serialise(0) + link_latency + serialise(line) + link_latency);
    const double more = org.home_l2 ? crossing + org.into_cycles.request + org.into_cycles.response
                                    : crossing - 2 * p_(noc, "latency");
    const std::string how_crossing = num(n_hops) + " hop(s) x (request " + num(serialise(0) + link_latency) +
                                     " + response " + num(serialise(line) + link_latency) + ")";
    add(r, "remote_latency", "pointer chase, a new DRAM row every link, chiplet " + std::to_string(remote) + "'s memory",
        ReferenceUnit::Cycles, to_home(remote),
        calibration::chase_link(std::ceil(local_memory - 1e-9) + more, want.issue_period),
        "DRAM + " + how_crossing +
            (org.home_l2 ? " + " + num(org.into_cycles.request + org.into_cycles.response) + " (" + org.into + ")"
                         : " - 2 x " + num(p_(noc, "latency")) + " (local switch)"));
    say("pointer chase: L2, chiplet " + std::to_string(remote) + "'s lines");
    const std::string how = "pointer chase, 1024 links 128 B apart on chiplet " + std::to_string(remote) + "'s pages";
    const double remote_l2 = homed_chase(remote, chiplets, 1024, 128);
    if (org.home_l2)
      add(r, "remote_l2_latency", how + ", in that chiplet's L2", ReferenceUnit::Cycles, remote_l2,
          calibration::chase_link(want.memory_l2 + more, want.issue_period),
          "L2 memory latency + " + how_crossing + " + " + num(org.into_cycles.request + org.into_cycles.response) +
              " (" + (org.into.empty() ? "none" : org.into) + "), as a chase link with the CU's turns");
    else
      add(r, "remote_l2_latency", how + ", kept in the requester's L2", ReferenceUnit::Cycles, remote_l2, want.l2,
          "the requester's L2 keeps other chiplets' lines: " + want.how_l2);
    if (!l3.empty()) l3_round_trip(r, own, chiplets, h.l2, l3, want, local);
  }

  // Offsets of `count` links `stride` apart on one chiplet's pages, from the
  // start of its first page in an allocation aligned to chiplets x page.
  static std::vector<uint32_t> homed_links(uint32_t count, uint32_t stride, uint32_t chiplets) {
    std::vector<uint32_t> links;
    for (uint32_t page = 0; links.size() < count; ++page)
      for (uint32_t off = 0; off < kNocPage && links.size() < count; off += stride)
        links.push_back(page * chiplets * kNocPage + off);
    return links;
  }

  DevicePtr chiplet_aligned(uint64_t bytes, uint32_t chiplets) {
    const DevicePtr p = alloc(bytes);
    if (p % (uint64_t(chiplets) * kNocPage))
      throw runtime::DeviceError("calibrate: an allocation not aligned to the chiplets' pages");
    return p;
  }

  // Cycles per link of a chase of `count` links `stride` apart on chiplet
  // `home`'s pages, walked whole before the measured links, so that they hit
  // the cache that keeps such lines for this chiplet (1024 x 128 B, 128 KiB:
  // whichever L2 keeps that chiplet's lines).
  double homed_chase(uint32_t home, uint32_t chiplets, uint32_t count, uint32_t stride) {
    const std::vector<uint32_t> links = homed_links(count, stride, chiplets);
    const DevicePtr chain = chiplet_aligned(links.back() + uint64_t(chiplets) * kNocPage, chiplets);
    calib::write_chain(dev_, chain + home * kNocPage, links);
    return per_link(links, count, chain + home * kNocPage);
  }

  // An L3 hit on the chiplet's own slice: a chain of lines homed on the
  // chiplet, walked whole before each measured launch, so that the L3 holds
  // every link; the kernel-start acquire invalidates the L2 (the baseline
  // policy), so each link misses the L1 and the L2 and hits the L3. The L3's
  // hits say whether it did.
  void l3_round_trip(CalibrationReport& r, uint32_t own, uint32_t chiplets, const std::string& l2,
                     const std::string& l3, const RoundTrips& want, const CrossbarCycles& local) {
    const uint32_t all = 96 + kLinks, line = uint32_t(p_(l3, "line_size"));
    const DevicePtr chain = chiplet_aligned((all / (kNocPage / line) + 1) * chiplets * kNocPage, chiplets);
    const std::vector<uint32_t> links = homed_links(all, line, chiplets);  // every line of each of its pages
    calib::write_chain(dev_, chain + own * kNocPage, links);
    say("pointer chase: L3, own chiplet");
    auto l3_hits = [&] { return dev_.platform().stats().find(l3)->to_json().value("hits", uint64_t{0}); };
    const DevicePtr start = chain + own * kNocPage;
    const uint64_t result = uint64_t((own + 1) % chiplets) * kNocPage;
    chase(start, links, all, all, result);  // the first walk fetches the lines from DRAM
    const uint64_t h0 = l3_hits();
    const uint64_t a = chase(start, links, all, 96, result);
    const uint64_t h1 = l3_hits();
    const uint64_t b = chase(start, links, all, 96 + kLinks, result);
    // The second launch's kLinks more links are kLinks more L3 hits (its
    // instruction and scalar fetches are the first's).
    if (l3_hits() - h1 < h1 - h0 + kLinks)
      throw runtime::DeviceError("calibrate: the L3 chase's links did not all hit " + l3 +
                                 " (does the kernel-start policy keep the L2's copies?)");
    // The L2 hit's part of the L2 round trip replaced by the way to the L3 slice and back.
    const double memory = want.memory_l2 - p_(l2, "hit_latency") + p_(l2, "miss_latency") + local.request +
                          p_(l3, "hit_latency") + local.response;
    const double implied = calibration::chase_link(memory, want.issue_period);
    add(r, "l3_latency", "pointer chase, " + std::to_string(kLinks) + " links homed on chiplet " +
                             std::to_string(own) + ", in its L3 slice, not in its L2 (invalidated at kernel start)",
        ReferenceUnit::Cycles, double(int64_t(b) - int64_t(a)) / kLinks, implied,
        "L2 memory latency - L2 hit + " + num(p_(l2, "miss_latency")) + " (L2 miss) + " + num(local.request) +
            " + " + num(p_(l3, "hit_latency")) + " (L3 hit) + " + num(local.response) +
            " (between the L2 and the L3 slice), as a chase link with the CU's turns");
  }

  // Links from chiplet `from` to `to` of `n` on the network `noc`.
  static double hops(const InstanceParams& p, const std::string& noc, uint32_t from, uint32_t to, uint32_t n) {
    uint32_t columns = uint32_t(p(noc, "mesh_columns"));
    if (columns == 0) columns = uint32_t(std::ceil(std::sqrt(double(n))));
    return calibration::chiplet_hops(p.raw(noc, "topology").get<std::string>(), from, to, n, columns);
  }

  uint32_t compute_units() const { return uint32_t(p_.all("compute_unit").size()); }
  // The workgroups of a stream over one chiplet's CUs.
  uint32_t stream_workgroups(uint32_t chiplets) const { return kStreamWorkgroupsPerCu * compute_units() / chiplets; }

  // Cycles of a stream of `bytes`, `passes` times, over `wgs` workgroups of `wg`.
  uint64_t stream_cycles(DevicePtr in, uint64_t bytes, uint32_t wg, uint32_t wgs, uint32_t passes) {
    const workloads::Result res = calib::stream(dev_, in, bytes, wg, wgs, passes);
    check(res, "calib_stream");
    return res.stats.cycles;
  }

  // Channels of DRAM controller `index` of `count` that a stream reaches:
  // the router that spreads memory over `count` targets sends target i the
  // blocks of `interleave` bytes with (address / interleave) % count == i,
  // and the controller maps channels every `channel_interleave`.
  // A controller with interleave_ways > 1 packs its own blocks before the
  // mapping, so it reaches all its channels.
  double channels_reached(const std::string& dram, size_t index, size_t count) const {
    const uint64_t channels = uint64_t(p_(dram, "channels")), chunk = uint64_t(p_(dram, "channel_interleave"));
    if (p_(dram, "interleave_ways") > 1) return double(channels);
    for (const auto& i : p_.netlist().instances) {
      if (!i.params.count("address_map") || !i.params.at("address_map").is_array()) continue;
      for (const json& e : i.params.at("address_map")) {
        if (!e.contains("ports") || e["ports"].size() != count || !e.contains("interleave")) continue;
        const uint64_t g = e["interleave"].get<uint64_t>();
        if (g == 0) continue;
        std::set<uint64_t> reached;
        for (uint64_t block = 0; block < channels * count; ++block)
          for (uint64_t off = 0; off < g; off += std::min(g, chunk))
            reached.insert(((block * count + index) * g + off) / chunk % channels);
        return double(reached.size());
      }
    }
    return double(channels);
  }

  void dram_stream(CalibrationReport& r) {
    const std::vector<std::string> drams = p_.all("dram_controller");
    if (drams.empty()) return;
    double peak = 0;
    for (size_t i = 0; i < drams.size(); ++i)
      peak += p_(drams[i], "bandwidth") * channels_reached(drams[i], i, drams.size());
    // kStreamWorkgroupsPerCu (1) workgroup of 256 per CU (4 waves of 4 loads each keep more lines in
    // flight than an L1 has MSHRs), so that every workgroup is resident and
    // each loop step reads one block of 4 x 16 B per work-item: with more
    // workgroups per CU, all of them progress together under issue turns and
    // a step spans that many times as many DRAM rows (docs/TIMING.md, "Where a
    // stream's bandwidth goes"). One pass reads every line once, so every read
    // misses the caches. 8 MiB and 16 MiB, at least two and four loop steps.
    const uint32_t wgs = kStreamWorkgroupsPerCu * compute_units(), wg = 256;
    const uint64_t step = 16ull * 4 * wg * wgs;
    const uint64_t small = std::max<uint64_t>(2 * step, (8u << 20) / step * step);
    const DevicePtr in = alloc(2 * small);
    calib::fill_stream(dev_, in, 2 * small);
    say("DRAM stream: " + std::to_string(small >> 20) + " MiB");
    const uint64_t a = stream_cycles(in, small, wg, wgs, 1);
    say("DRAM stream: " + std::to_string((2 * small) >> 20) + " MiB");
    const uint64_t b = stream_cycles(in, 2 * small, wg, wgs, 1);
    dev_.free(in);
    const double hz = p_.netlist().default_clock_hz();
    // On a chiplet netlist the stream's pages are interleaved over the
    // chiplets (3 in 4 of a chiplet's reads cross the network on four);
    // `dram_bandwidth` there is each chiplet streaming its own memory.
    const std::string noc = p_.first("chiplet_network");
    add(r, noc.empty() ? "dram_bandwidth" : "dram_interleaved",
        "read stream, " + std::to_string(wgs) + " workgroups of 256, " + std::to_string(small >> 20) + " vs " +
            std::to_string((2 * small) >> 20) + " MiB" + (noc.empty() ? "" : ", pages interleaved over the chiplets"),
        ReferenceUnit::BytesPerSecond, double(small) / double(b - a) * hz, peak,
        "sum of the DRAM channels' bandwidth the stream reaches");
    if (!noc.empty()) own_memory_stream(r, noc, peak);
  }

  // Cycles of a calib_link launch (sw/workloads/calib.h) over `pages` pages per
  // reading chiplet, kStreamWorkgroupsPerCu workgroups of 256 per CU (for the
  // reason the DRAM stream gives).
  uint64_t pages_cycles(DevicePtr in, uint64_t pages, uint32_t chiplets, uint32_t reader, bool pipelined) {
    const workloads::Result res =
        calib::link_stream(dev_, in, uint32_t(pages), chiplets, reader, stream_workgroups(chiplets), pipelined);
    check(res, pipelined ? "calib_link_pipelined" : "calib_link");
    return res.stats.cycles;
  }

  // A calib_link stream of `pages` and 2 x `pages` pages per reading chiplet:
  // bytes read per second over the cycle difference. `pages` is at least
  // kChipletStreamBytes (or two loop steps) of pages, a multiple of a loop step.
  // `pipelined`: calib_link_pipelined, whose waves keep the next loop step's
  // loads in flight (docs/TIMING.md, "Where a stream's bandwidth goes").
  double pages_stream(uint32_t chiplets, uint32_t reader, uint64_t& pages, bool pipelined) {
    const uint64_t step = 4ull * (stream_workgroups(chiplets));
    pages = std::max<uint64_t>(2 * step, kChipletStreamBytes / kNocPage / step * step);
    const uint64_t bytes = calib::link_buffer_bytes(uint32_t(2 * pages), chiplets, reader);
    const DevicePtr in = alloc(bytes);
    if (in % (uint64_t(chiplets) * kNocPage))
      throw runtime::DeviceError("calibrate: an allocation not aligned to the chiplets' pages");
    calib::fill_stream(dev_, in, bytes);
    const uint64_t a = pages_cycles(in, pages, chiplets, reader, pipelined),
                   b = pages_cycles(in, 2 * pages, chiplets, reader, pipelined);
    dev_.free(in);
    const double readers = reader == chiplets ? chiplets : 1;
    return double(pages * kNocPage) * readers / double(b - a) * p_.netlist().default_clock_hz();
  }

  // Each chiplet's workgroups read only pages homed on their own
  // chiplet, as each die of a multi-die GPU streams its own memory.
  void own_memory_stream(CalibrationReport& r, const std::string& noc, double peak) {
    const uint32_t chiplets = uint32_t(p_(noc, "chiplets"));
    say("DRAM stream: each chiplet reads its own memory");
    uint64_t pages = 0;
    // Not pipelined: with each wave's next step in flight as well, twice the
    // pages are in demand at once and the DRAM's rows suffer (measured on
    // mi200_2chiplet over 28 vs 56 MiB per die: 2527 GB/s against 2712).
    const double measured = pages_stream(chiplets, chiplets, pages, false);
    add(r, "dram_bandwidth",
        "read stream, each chiplet's " + std::to_string(stream_workgroups(chiplets)) +
            " workgroups of 256 read pages homed on it, " + std::to_string(pages * kNocPage >> 20) + " vs " +
            std::to_string(2 * pages * kNocPage >> 20) + " MiB per chiplet",
        ReferenceUnit::BytesPerSecond, measured, peak, "sum of the DRAM channels' bandwidth");
  }

  // Links that carry traffic into chiplet `reader` from every other chiplet:
  // the switch's one link to it, one from each of a full connection's other
  // chiplets, a ring's or a mesh's links from its neighbours.
  static double links_into(const InstanceParams& p, const std::string& noc, uint32_t reader, uint32_t n) {
    if (p.raw(noc, "topology").get<std::string>() == "switch") return 1;
    double links = 0;
    for (uint32_t c = 0; c < n; ++c) links += c != reader && hops(p, noc, c, reader, n) == 1;
    return links;
  }

  // The links into one chiplet: its workgroups
  // read pages homed on every other chiplet, so that every byte crosses the
  // links into it; bytes per second over the cycle difference of two
  // launches (as the DRAM stream), per link into the reader.
  void link_stream(CalibrationReport& r, const std::string& noc) {
    const uint32_t chiplets = uint32_t(p_(noc, "chiplets")), reader = 0;
    if (chiplets < 2) return;
    say("link stream: chiplet " + std::to_string(reader) + " reads the other chiplets' memory");
    uint64_t pages = 0;
    const double links = links_into(p_, noc, reader, chiplets);
    // Pipelined: under calib_link every wave waits for its step's loads, so
    // the link idles a round trip between steps and the figure measures the
    // kernel rather than the link.
    const double measured = pages_stream(chiplets, reader, pages, true) / links;
    const double bandwidth = p_(noc, "link_bandwidth");
    double dram = 0;  // what the other chiplets' memory can supply
    for (const std::string& d : p_.all("dram_controller"))
      if (d.rfind("chiplet[" + std::to_string(reader) + "].", 0) != 0) dram += p_(d, "bandwidth") * p_(d, "channels");
    std::string how = "link_bandwidth, each link, each direction";
    if (dram < bandwidth * links)
      how += " (the other chiplets' DRAM supplies only " + num(dram / 1e9 / links) + " GB/s per link)";
    add(r, "link_bandwidth",
        "chiplet " + std::to_string(reader) + "'s " + std::to_string(stream_workgroups(chiplets)) +
            " workgroups of 256 read the other chiplets' pages (software-pipelined), " +
            std::to_string(pages * kNocPage >> 20) + " vs " +
            std::to_string(2 * pages * kNocPage >> 20) + " MiB; per link into it (" + num(links) + ")",
        ReferenceUnit::BytesPerSecond, measured, bandwidth, how);
  }

  // The DRAM chain of the memory next to workgroup 0 (chiplet 0's on a
  // chiplet netlist), and the chain's base; empty without a DRAM path.
  std::vector<uint32_t> near_dram_chain(const std::string& noc, DevicePtr& base) {
    if (noc.empty()) {
      const std::string dram = p_.first("dram_controller"), l2 = p_.first("l2_cache");
      if (dram.empty() || l2.empty()) return {};
      const auto links = calibration::dram_chain(uint32_t(p_(dram, "channels")), uint32_t(p_(dram, "banks")),
                                                 uint32_t(p_(dram, "bank_interleave")));
      base = alloc(*std::max_element(links.begin(), links.end()) + 4);
      return links;
    }
    const uint32_t chiplets = uint32_t(p_(noc, "chiplets")), span = 16u << 20;
    const std::string l2 = p_.first("l2_cache", "chiplet[0].");
    base = alloc(span);
    if (base % (uint64_t(chiplets) * kNocPage))
      throw runtime::DeviceError("calibrate: an allocation not aligned to the chiplets' pages");
    return calibration::chiplet_dram_chain(p_.netlist(), "chiplet[0].dram", base, 0, chiplets,
                                           uint32_t(p_(l2, "line_size")), span, 96 + kLoadedLinks + 32);
  }

  // Round trips to DRAM under a background read stream: the DRAM chase (to
  // the memory next to the chasing work-item) in a grid of one workgroup per
  // chiplet (at least two), one per CU and four per CU, whose other
  // workgroups of 256 stream a buffer twice the L2s' size; cycles per
  // link over the difference of two launches of 96 and 96 + kLoadedLinks
  // links, one row per load.
  void loaded_latency(CalibrationReport& r, const std::string& noc) {
    DevicePtr chain = 0;
    const std::vector<uint32_t> links = near_dram_chain(noc, chain);
    if (links.empty()) return;
    calib::write_chain(dev_, chain, links);
    double l2_bytes = 0;
    for (const auto& s : p_.all("l2_cache")) l2_bytes += p_(s, "size");
    const uint32_t cus = compute_units(), wg = 256;
    const DevicePtr flag = alloc(4);
    const double hz = p_.netlist().default_clock_hz();
    // Workgroup 0 chases; the command processor gives chiplet 0 the first
    // of at least as many workgroups as there are chiplets.
    const uint32_t chiplets = noc.empty() ? 1 : uint32_t(p_(noc, "chiplets"));
    for (const uint32_t total : {std::max(2u, chiplets), cus, 4 * cus}) {
      const uint32_t streaming = total - 1;
      const uint64_t quantum = 16ull * 4 * wg * streaming;
      const uint64_t bytes = (uint64_t(2 * l2_bytes) + quantum - 1) / quantum * quantum;
      const DevicePtr in = alloc(bytes);
      calib::fill_stream(dev_, in, bytes);
      say("loaded latency: DRAM chase under " + std::to_string(streaming) + " streaming workgroups");
      uint64_t streamed = 0, cycles[2] = {0, 0}, bytes_read = 0;
      const uint32_t steps[2] = {96, 96 + kLoadedLinks};
      for (int k = 0; k < 2; ++k) {
        const workloads::Result res =
            calib::loaded_chase(dev_, chain, links, steps[k], out(), in, bytes, wg, streaming + 1, flag, streamed);
        check(res, "calib_loaded");
        cycles[k] = res.stats.kernel_cycles;
        bytes_read += streamed;
      }
      const double load = double(bytes_read) / double(cycles[0] + cycles[1]) * hz;
      add(r, "loaded_latency",
          "DRAM chase under a read stream of " + std::to_string(streaming) + " workgroups of 256 (" +
              num(load / 1e9) + " GB/s)",
          ReferenceUnit::Cycles, double(int64_t(cycles[1]) - int64_t(cycles[0])) / kLoadedLinks, std::nullopt,
          "no formula under load (unloaded: dram_latency)");
      dev_.free(in);
    }
  }

  // An L2-resident stream: 3/4 of the L2, one workgroup of 128 per CU, more
  // than each CU's L1 holds, passes 3..6 over the difference.
  void l2_stream(CalibrationReport& r) {
    const std::vector<std::string> slices = p_.all("l2_cache");
    const std::string l1 = p_.first("l1v_cache"), xbar = p_.first("crossbar");
    if (slices.empty() || l1.empty() || xbar.empty()) return;
    double l2_bytes = 0;
    for (const auto& s : slices) l2_bytes += p_(s, "size");
    const uint32_t wgs = compute_units(), wg = 128;
    const uint64_t step = 16ull * 4 * wg * wgs;
    const uint64_t bytes = uint64_t(0.75 * l2_bytes) / step * step;
    if (bytes == 0) return;
    const DevicePtr in = alloc(bytes);
    calib::fill_stream(dev_, in, bytes);
    say("L2 stream: 2 and 6 passes over " + std::to_string(bytes >> 10) + " KiB");
    // A first pass before each measured launch, so that both start from the
    // same DRAM state (the one pass each fetches from DRAM cancels).
    stream_cycles(in, bytes, wg, wgs, 1);
    const uint64_t a = stream_cycles(in, bytes, wg, wgs, 2);
    stream_cycles(in, bytes, wg, wgs, 1);
    const uint64_t b = stream_cycles(in, bytes, wg, wgs, 6);
    const double out_width = p_(xbar, "out_width");
    double per_slice = p_(slices[0], "ports") * p_(l1, "line_size");
    if (out_width > 0) per_slice = std::min(per_slice, out_width);
    const double hz = p_.netlist().default_clock_hz();
    add(r, "l2_bandwidth", "L2-resident read stream, passes 3..6 over " + std::to_string(bytes >> 10) + " KiB",
        ReferenceUnit::BytesPerSecond, double(4 * bytes) / double(b - a) * hz, per_slice * slices.size() * hz,
        num(double(slices.size())) + " slices x min(ports x L1 line, crossbar out_width) = " +
            num(per_slice * slices.size()) + " B/cycle");
  }

  // Instructions of class `cls` issued so far by each CU ("" for all).
  std::vector<uint64_t> issued(const std::string& cls) const {
    std::vector<uint64_t> n;
    for (const auto& cu : p_.all("compute_unit")) {
      const StatGroup* g = dev_.platform().stats().find(cu);
      n.push_back(g ? g->to_json().value(cls.empty() ? "instructions" : "issued_" + cls, uint64_t{0}) : 0);
    }
    return n;
  }

  // Instructions of `cls` per cycle per CU over launches of `iters` and
  // 3 x `iters` loop steps: what differs is the loop alone, divided among
  // the CUs that ran it. A warm-up launch first, so that both measured
  // launches find the code where the other does (a chiplet netlist's
  // kernel-boundary commands leave its L2s' lines valid: the first launch
  // would fetch the code from DRAM, the second not).
  double rate(calib::Kind kind, const std::string& cls, uint32_t wg, uint32_t wgs, uint32_t iters) {
    auto once = [&](uint32_t n, uint64_t& cycles) {
      const std::vector<uint64_t> before = issued(cls);
      const workloads::Result res = calib::throughput(dev_, kind, wg, wgs, n);
      check(res, std::string("calib_") + calib::kind_name(kind));
      cycles = res.stats.kernel_cycles;
      std::vector<uint64_t> after = issued(cls);
      for (size_t k = 0; k < after.size(); ++k) after[k] -= before[k];
      return after;
    };
    uint64_t cw = 0, ca = 0, cb = 0;
    once(iters, cw);
    const std::vector<uint64_t> ia = once(iters, ca), ib = once(3 * iters, cb);
    uint64_t more = 0, cus = 0;
    for (size_t k = 0; k < ia.size(); ++k) {
      more += ib[k] - ia[k];
      cus += ib[k] > 0;
    }
    return double(more) / double(cb - ca) / double(std::max<uint64_t>(cus, 1));
  }

  // Per-CU rates on one CU: one workgroup of 1024, 4 waves per SIMD, so
  // that each SIMD's turn finds a wave ready while others run their loop's
  // scalar instructions and wait on their results (hardware measures peaks
  // with 8 waves per SIMD over a whole GPU; one CU holds one workgroup of at
  // most 4 per SIMD, and a second would go to another CU). One wave alone
  // for the one-wave issue rate.
  void throughputs(CalibrationReport& r) {
    const std::string cu = p_.first("compute_unit");
    if (cu.empty()) return;
    const double simds = p_(cu, "simds"), width = p_(cu, "simd_width");
    const uint32_t wg = 1024, wgs = 1;
    const std::string waves = "one workgroup of " + num(wg / 64 / simds) + " waves per SIMD on one CU";
    if (wanted({"valu_rate"})) {
      say("VALU throughput");
      add(r, "valu_rate", "VALU instructions per cycle per CU, " + waves, ReferenceUnit::PerCycle,
          rate(calib::Kind::valu, "valu", wg, wgs, 200), simds * width / 64,
          num(simds) + " SIMDs x simd_width " + num(width) + " / 64 lanes");
    }
    if (wanted({"salu_rate"})) {
      say("SALU throughput");
      add(r, "salu_rate", "SALU instructions per cycle per CU, " + waves, ReferenceUnit::PerCycle,
          rate(calib::Kind::salu, "salu", wg, wgs, 200), std::nullopt, "no parameter sets it");
    }
    if (wanted({"mfma_rate"})) {
      say("MFMA throughput");
      const double cycles = mfma_cycles(cu, "v_mfma_f32_32x32x2f32");
      add(r, "mfma_rate", "v_mfma_f32_32x32x2f32 per cycle per CU, " + waves, ReferenceUnit::PerCycle,
          rate(calib::Kind::mfma, "mfma", wg, wgs, 50), cycles > 0 ? std::optional<double>(simds / cycles) : std::nullopt,
          num(simds) + " SIMDs / " + num(cycles) + " cycles per 32x32 MFMA");
    }
    if (wanted({"lds_bandwidth"})) {
      say("LDS throughput");
      // Each ds_read_b32 moves 64 lanes x 4 B.
      add(r, "lds_bandwidth", "LDS bytes per cycle per CU (ds_read_b32), " + waves, ReferenceUnit::BytesPerCycle,
          rate(calib::Kind::lds, "lds", wg, wgs, 100) * 256, p_(cu, "lds_banks") * 4,
          num(p_(cu, "lds_banks")) + " banks x 4 B");
    }
    if (wanted({"issue_rate"})) {
      say("one-wave issue rate");
      add(r, "issue_rate", "instructions per cycle of one wave (calib_salu)", ReferenceUnit::PerCycle,
          rate(calib::Kind::salu, "", 64, 1, 200), std::nullopt, "no parameter sets it");
    }
  }

  // The CU's mfma_cycles entry for `mnemonic`: the longest fragment it contains.
  double mfma_cycles(const std::string& cu, const std::string& mnemonic) const {
    double cycles = 0;
    size_t best = 0;
    for (const auto& [fragment, value] : p_.raw(cu, "mfma_cycles").items())
      if (fragment.size() > best && mnemonic.find(fragment) != std::string::npos) {
        cycles = value.get<double>();
        best = fragment.size();
      }
    return cycles;
  }

  void attach_references(CalibrationReport& r) {
    for (const ReferenceFigure& ref : p_.netlist().references) {
      auto it = std::find_if(r.figures.begin(), r.figures.end(), [&](const CalibrationFigure& f) { return f.name == ref.name; });
      if (it == r.figures.end())
        r.unmeasured.push_back(ref);
      else
        it->reference = ref;
    }
  }

  const CalibrationOptions& options_;
  TimingDevice dev_;
  InstanceParams p_;
  DevicePtr out_ = 0;
  PageHomes* homes_ = nullptr;  // the platform's first-touch pages, if it places pages so
  uint32_t chiplets_ = 1;
};

bool has_one_dispatcher(const CalibrationOptions& o) {
  const Netlist n = load_netlist_file(o.netlist_file, o.overrides);
  size_t dispatchers = 0;
  for (const auto& i : n.instances) dispatchers += i.type->name == "dispatcher";
  return dispatchers == 1;
}

}  // namespace

CalibrationReport calibrate(const CalibrationOptions& options) {
  return Calibrator(options, has_one_dispatcher(options)).run();
}

std::vector<std::string> calibration_figure_names() {
  std::vector<std::string> names = reference_figure_names();
  // Figures with no published counterpart: the chiplet netlists' stream over
  // pages interleaved across the chiplets, and the loaded-latency curve.
  names.push_back("dram_interleaved");
  names.push_back("loaded_latency");
  return names;
}

bool meets_reference(const std::string& figure, double measured, double ref) {
  if (figure == "issue_rate") return measured <= ref;
  if (figure == "dram_bandwidth") return measured >= 0.85 * ref && measured <= ref * 1.0001;
  if (figure == "l2_bandwidth" || figure == "link_bandwidth") return std::abs(measured / ref - 1) <= 0.10;
  return std::abs(measured / ref - 1) <= 0.05;
}

std::string tolerance_text(const std::string& figure) {
  if (figure == "issue_rate") return "at most";
  if (figure == "dram_bandwidth") return "85-100 %";
  if (figure == "l2_bandwidth" || figure == "link_bandwidth") return "within 10 %";
  return "within 5 %";
}

}  // namespace tessera
