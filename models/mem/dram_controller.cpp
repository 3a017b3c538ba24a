#include "models/mem/dram_controller.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"
#include "platform/trace.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

namespace {

// The timing constraints a preset gives (times in ns). Sources, per preset, in docs/MEMORY.md.
struct Preset {
  const char* name;
  double tREFI, tRFC, tWR, tRRD, tFAW, tWTR, tRTW;
  double tRFCsb;  // per-bank refresh cycle time (0: the generation has none); used with refresh_mode per_bank
  double tCCD_S, tCCD_L;  // in bursts of the channel: a netlist's channel may be wider than one device channel
  unsigned bank_groups;
};
constexpr Preset kPresets[] = {
    // HBM (gen 1), 1 Gb/s, tCK 2 ns: DRAMsim3 HBM1_4Gb_x128 (tCCD 1 tCK, a BL4 burst 2 tCK).
    {"hbm", 3900, 260, 16, 4, 30, 6, 2, 0, 1, 1, 4},
    // HBM2, 2 Gb/s, tCK 1 ns: Ramulator 2 hbm2.py (JESD235), 8 Gb dies; tRTW from its RD->WR turnaround;
    // tCCD_S/L 2/4 tCK against a 2 tCK burst; per-bank refresh (REFSB) with its tRFCSB of 160 tCK.
    {"hbm2", 3900, 350, 16, 4, 15, 6, 2, 160, 1, 2, 4},
    // GDDR5, 4 Gb/s: gem5 gddr.py GDDR5_4000_2x32 (Hynix H5GQ1H24AFR), tCCD_L 3 ns against a 2 ns burst;
    // tREFI 32 ms / 8192 refreshes.
    {"gddr5", 3900, 65, 12, 6, 23, 5, 2, 0, 1, 1.5, 4},
};

// A constraint's time: the parameter if it is set (non-zero), else the preset's (ns), else off.
sc_time constraint(sc_time given, const Preset* preset, double Preset::*field) {
  if (given != SC_ZERO_TIME || !preset) return given;
  return sc_time(preset->*field, sc_core::SC_NS);
}

// The byte-enable mask of `trans` expanded to one entry per data byte, or null.
const uint8_t* expanded_enables(const tlm_generic_payload& trans, std::vector<uint8_t>& buf) {
  const uint8_t* be = trans.get_byte_enable_ptr();
  const unsigned be_len = trans.get_byte_enable_length();
  const unsigned len = trans.get_data_length();
  if (!be || be_len >= len) return be;
  buf.resize(len);
  for (unsigned i = 0; i < len; ++i) buf[i] = be[i % be_len];
  return buf.data();
}

// Responses in the order their data finishes; the room is the channels' (has_room).
AtTargetPort::Options port_options() {
  AtTargetPort::Options o;
  o.order = AtTargetPort::Order::Ready;
  o.accept_on_call = true;
  o.socket = "in";
  return o;
}
}  // namespace

DramController::DramController(const BlockContext& ctx, const DramControllerConfig& c)
    : Block(ctx),
      in("in"),
      store_(shared().get<isa::DeviceMemory>(c.store)),
      base_(c.base),
      size_(c.size),
      channels_(c.channels),
      banks_(c.banks),
      row_size_(c.row_size),
      channel_interleave_(c.channel_interleave),
      bank_interleave_(c.bank_interleave),
      bandwidth_(c.bandwidth),
      controller_latency_(c.controller_latency),
      queue_depth_(c.queue_depth),
      interleave_ways_(c.interleave_ways),
      interleave_size_(c.interleave_size),
      bank_xor_(c.bank_hash == "xor"),
      place_freed_at_column_(c.queue_place == "column"),
      port_(path(), in, *this, port_options()),
      reads_(stats().counter("reads", "read transactions completed")),
      writes_(stats().counter("writes", "write transactions completed")),
      atomics_(stats().counter("atomics", "atomic transactions applied here (lanes in order)")),
      bytes_read_(stats().counter("bytes_read", "bytes returned by reads (and read by atomics)")),
      bytes_written_(stats().counter("bytes_written", "bytes carried by writes (and written by atomics)")),
      errors_(stats().counter("errors", "transactions answered with an error status")),
      row_hits_(stats().counter("row_hits", "requests whose row was open in their bank")),
      row_misses_(stats().counter("row_misses", "requests that found their bank closed (ACT)")),
      row_conflicts_(stats().counter("row_conflicts", "requests that found another row open (PRE + ACT)")),
      request_stalls_(stats().counter("request_stalls", "requests whose END_REQ waited for room in a channel queue")),
      queue_wait_ps_(stats().counter("queue_wait_ps", "time requests waited for room in a channel queue, summed, in ps")),
      bus_busy_ps_(stats().counter("bus_busy_ps", "time the channels' data buses carried data, summed, in ps")),
      refreshes_(stats().counter("refreshes", "refreshes of all channels, summed (counted at the end of the run)")),
      bandwidth_achieved_(stats().scalar("bandwidth", "bytes moved / time from first request to last response, B/s")),
      latency_mean_ns_(stats().scalar("latency_mean_ns", "mean request arrival to response, ns")),
      latency_ns_(stats().histogram("latency_ns", "request arrival to response, ns", 10, 100)),
      occupancy_hist_(stats().histogram("queue_occupancy",
                                        "accepted requests in all channel queues, weighted by time in ps", 1,
                                        static_cast<size_t>(queue_depth_) * channels_ + 1)),
      channel_hist_(stats().histogram("channel_requests", "DRAM accesses per channel (bucket = channel)", 1, channels_)),
      bank_hist_(stats().histogram("bank_requests", "DRAM accesses per bank, all channels (bucket = bank)", 1, banks_)) {
  if (bank_xor_ && (banks_ & (banks_ - 1)))
    throw UserError(path() + ": bank_hash \"xor\" needs a power-of-two number of banks, not " + std::to_string(banks_));
  if (base_ + (size_ - 1) < base_)
    throw UserError(path() + ": base " + hex(base_) + " + size " + hex(size_) + " wraps around the address space");
  timing_.tCL = c.tCL;
  timing_.tRCD = c.tRCD;
  timing_.tRP = c.tRP;
  timing_.tRAS = c.tRAS;
  timing_.burst_bytes = c.burst_size;
  timing_.burst_time = transfer_time(timing_.burst_bytes, bandwidth_);
  set_constraints(c);
  setup_compression(c);
  if (timing_.burst_time == SC_ZERO_TIME)
    throw UserError(path() + ": a burst of " + std::to_string(timing_.burst_bytes) + " bytes at " +
                    std::to_string(bandwidth_ / 1e9) + " GB/s takes less than the time resolution");
  const auto policy =
      c.scheduler == "fcfs" ? DramChannel::Policy::Fcfs : DramChannel::Policy::FrFcfs;
  for (unsigned c = 0; c < channels_; ++c) channel_.emplace_back(timing_, banks_, policy);
  channel_count_.assign(channels_, 0);
  never_ = sc_core::sc_max_time();
  channel_next_.assign(channels_, never_);

  in.register_b_transport(this, &DramController::b_transport);
  in.register_nb_transport_fw(this, &DramController::nb_transport_fw);
  in.register_get_direct_mem_ptr(this, &DramController::get_direct_mem_ptr);
  in.register_transport_dbg(this, &DramController::transport_dbg);
  targets_.add("in", in);
}

void DramController::set_constraints(const DramControllerConfig& c) {
  const std::string& preset_name = c.timing_preset;
  const Preset* preset = nullptr;
  for (const Preset& p : kPresets)
    if (preset_name == p.name) preset = &p;
  timing_.tREFI = constraint(c.tREFI, preset, &Preset::tREFI);
  timing_.tRFC = constraint(c.tRFC, preset, &Preset::tRFC);
  if (!c.refresh) timing_.tREFI = SC_ZERO_TIME;
  if (c.refresh_mode == "per_bank") {
    timing_.tRFCsb = constraint(c.tRFCsb, preset, &Preset::tRFCsb);
    if (timing_.tRFCsb == SC_ZERO_TIME)
      throw UserError(path() + ": refresh_mode per_bank needs tRFCsb (set it, or a timing_preset with per-bank "
                      "refresh: hbm2)");
  }
  timing_.tWR = constraint(c.tWR, preset, &Preset::tWR);
  timing_.tRRD = constraint(c.tRRD, preset, &Preset::tRRD);
  timing_.tFAW = constraint(c.tFAW, preset, &Preset::tFAW);
  timing_.tWTR = constraint(c.tWTR, preset, &Preset::tWTR);
  timing_.tRTW = constraint(c.tRTW, preset, &Preset::tRTW);
  timing_.tCCD_S = c.tCCD_S;
  timing_.tCCD_L = c.tCCD_L;
  if (preset && timing_.tCCD_S == SC_ZERO_TIME) timing_.tCCD_S = timing_.burst_time * preset->tCCD_S;
  if (preset && timing_.tCCD_L == SC_ZERO_TIME) timing_.tCCD_L = timing_.burst_time * preset->tCCD_L;
  const unsigned groups = c.bank_groups;
  timing_.bank_groups = groups ? groups : preset ? preset->bank_groups : 1;
  if (banks_ % timing_.bank_groups)
    throw UserError(path() + ": " + std::to_string(banks_) + " banks do not divide into " +
                    std::to_string(timing_.bank_groups) + " bank groups");
  const sc_time refresh_busy = timing_.tRFCsb != SC_ZERO_TIME ? timing_.tRFCsb : timing_.tRFC;
  if (timing_.tREFI != SC_ZERO_TIME && refresh_busy >= timing_.tREFI)
    throw UserError(path() + ": " + (timing_.tRFCsb != SC_ZERO_TIME ? "tRFCsb" : "tRFC") +
                    " must be shorter than tREFI, or the channel would do nothing but refresh");
  timing_.starvation_cap = c.starvation_cap;
  timing_.act_in_time_order = c.act_order == "earliest";
}

tlm::tlm_target_socket<>* DramController::target_socket(const std::string& name, int index) {
  return targets_.find(name, index);
}

std::string DramController::summary() const {
  if (!active_) return "";
  const uint64_t rows = row_hits_.value + row_misses_.value + row_conflicts_.value;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %llu reads, %llu writes, %llu atomics, %.2f GB/s, row hits %.1f%%",
                path().c_str(), static_cast<unsigned long long>(reads_.value),
                static_cast<unsigned long long>(writes_.value), static_cast<unsigned long long>(atomics_.value),
                bandwidth_achieved_.value / 1e9, rows ? 100.0 * row_hits_.value / rows : 0.0);
  return buf;
}

DramController::Location DramController::locate(uint64_t addr) const {
  uint64_t offset = addr - base_;
  // One of interleave_ways_ peers that take turns every interleave_size_ bytes:
  // the peers' turns are squeezed out, so that this controller's own bytes
  // fill its channels, banks and rows without gaps.
  if (interleave_ways_ > 1) offset = offset / (interleave_size_ * interleave_ways_) * interleave_size_ + offset % interleave_size_;
  Location l;
  l.channel = static_cast<unsigned>((offset / channel_interleave_) % channels_);
  // The channel's own address space: its chunks, packed.
  const uint64_t local = offset / (channel_interleave_ * channels_) * channel_interleave_ + offset % channel_interleave_;
  l.bank = static_cast<unsigned>((local / bank_interleave_) % banks_);
  const uint64_t in_bank = local / (bank_interleave_ * banks_) * bank_interleave_ + local % bank_interleave_;
  l.row = in_bank / row_size_;
  // Permutation-based interleaving: rows that would meet in one bank spread over the banks.
  if (bank_xor_) l.bank = static_cast<unsigned>((l.bank ^ l.row) % banks_);
  return l;
}

unsigned DramController::bursts_of(const tlm_generic_payload& trans, const GpuAccess* access) const {
  const uint64_t len = trans.get_data_length();
  uint64_t bursts = std::max<uint64_t>(1, (len + timing_.burst_bytes - 1) / timing_.burst_bytes);
  if (access && access->kind == AccessKind::Atomic) bursts *= 2;  // read, then write back
  return static_cast<unsigned>(std::min<uint64_t>(bursts, 1u << 30));
}

// ---- data ------------------------------------------------------------------

void DramController::apply_atomic(tlm_generic_payload& trans, GpuAccess& access) {
  const unsigned n = isa::mem::elem_bytes(access.elem);
  for (AtomicLane& lane : access.lanes) {
    // A lane outside every allocation reads zero and its write is dropped, as for plain accesses.
    uint8_t* p = store_.translate(trans.get_address() + lane.offset, n);
    lane.old = p ? isa::mem::rmw(p, access.elem, access.op, lane.src, lane.cmp) : 0;
  }
  ++atomics_;
  bytes_read_ += uint64_t{n} * access.lanes.size();
  bytes_written_ += uint64_t{n} * access.lanes.size();
}

bool DramController::execute(tlm_generic_payload& trans, GpuAccess* access) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  const bool atomic = access && access->kind == AccessKind::Atomic;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  if (!range_contains(base_, size_, addr, std::max<uint64_t>(len, 1))) {
    status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    status = tlm::TLM_OK_RESPONSE;
  } else if (!atomic && len > 0 && trans.get_data_ptr() == nullptr) {
    status = tlm::TLM_GENERIC_ERROR_RESPONSE;
  } else if (trans.get_streaming_width() != 0 && trans.get_streaming_width() < len) {
    status = tlm::TLM_BURST_ERROR_RESPONSE;
  } else if (trans.get_byte_enable_ptr() && trans.get_byte_enable_length() == 0) {
    status = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  } else if (atomic) {
    const unsigned n = isa::mem::elem_bytes(access->elem);
    for (const AtomicLane& lane : access->lanes)
      if (uint64_t{lane.offset} + n > std::max<uint64_t>(len, 1) || !range_contains(base_, size_, addr + lane.offset, n))
        status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  if (status != tlm::TLM_OK_RESPONSE) {
    ++errors_;
    if (!error_logged_) {
      warn("error response to " + describe(trans) + "; controller answers [" + hex(base_) + ", " +
           hex(base_ + size_ - 1) + "] (further errors are only counted)");
      error_logged_ = true;
    }
    trans.set_response_status(status);
    return false;
  }
  if (trans.get_command() != tlm::TLM_IGNORE_COMMAND) {
    std::vector<uint8_t> be_buf;
    if (atomic) {
      apply_atomic(trans, *access);
    } else if (trans.is_read()) {
      const uint8_t* be = expanded_enables(trans, be_buf);
      if (be) {
        std::vector<uint8_t> tmp(len);
        store_.read_any(addr, tmp.data(), len);
        for (uint64_t i = 0; i < len; ++i)
          if (be[i] == TLM_BYTE_ENABLED) trans.get_data_ptr()[i] = tmp[i];
      } else {
        store_.read_any(addr, trans.get_data_ptr(), len);
      }
      ++reads_;
      bytes_read_ += len;
    } else {
      store_.write_masked(addr, trans.get_data_ptr(), len, expanded_enables(trans, be_buf));
      ++writes_;
      bytes_written_ += len;
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void DramController::record_done(uint64_t start, uint64_t end) {
  const uint64_t latency = picoseconds_of_ticks(end - start);
  latency_ns_.sample(latency / 1000);
  latency_sum_ps_ += latency;
  ++latency_count_;
  if (!active_) first_activity_ = start;
  active_ = true;
  last_activity_ = std::max(last_activity_, end);
}

// A request from its arrival to its response, on lanes of one track. DRAM
// responses are also where the counter tracks look whether an interval has
// ended, so that they keep their interval when nothing else is traced.
void DramController::trace_request(Tracer& t, const tlm_generic_payload& trans, uint64_t start, uint64_t end) {
  t.sample_counters(sim_now().value());
  if (!(trace_kinds() & static_cast<uint32_t>(TraceKind::Memory))) return;
  const GpuAccess* a = trans.get_extension<GpuAccess>();
  const char* kind = a ? access_kind_name(a->kind) : trans.is_write() ? "write" : "read";
  t.slice(t.track(path(), "requests", true), t.text(kind), start, end,
          {{t.text("address"), double(trans.get_address()), true}, {t.text("bytes"), double(trans.get_data_length())}});
}

// The mean latency and the achieved bandwidth, from the totals (statistics
// are read only once the simulation has ended).
void DramController::end_of_simulation() {
  release_early(sim_now().value());
  for (const DramChannel& c : channel_) refreshes_ += c.refreshes();
  if (latency_count_)
    latency_mean_ns_.value = static_cast<double>(latency_sum_ps_) / 1000.0 / static_cast<double>(latency_count_);
  const double span = sc_time::from_value(last_activity_ - first_activity_).to_seconds();
  if (span > 0) bandwidth_achieved_.value = static_cast<double>(bytes_read_.value + bytes_written_.value) / span;
}

// ---- LT, DMI, debug ----------------------------------------------------------

void DramController::b_transport(tlm_generic_payload& trans, sc_time& delay) {
  // Functional use: no queueing and no bank state; every access costs an
  // unloaded row miss (ACT, column, data) plus the controller latency.
  const sc_time start = sim_now() + delay;
  delay += controller_latency_;
  GpuAccess* access = trans.get_extension<GpuAccess>();
  if (execute(trans, access) && trans.get_command() != tlm::TLM_IGNORE_COMMAND) {
    sc_time codec = SC_ZERO_TIME;
    const sc_time transfer = timing_.burst_time * static_cast<double>(bursts_for(trans, access, codec));
    bus_busy_ps_ += picoseconds(transfer);
    ++row_misses_;
    delay += timing_.tRCD + timing_.tCL + transfer + codec;
  }
  record_done(start.value(), (sim_now() + delay).value());
}

bool DramController::get_direct_mem_ptr(tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const uint64_t last = base_ + (size_ - 1);
  const isa::DeviceMemory::Allocation* a =
      addr >= base_ && addr <= last ? store_.find(addr) : nullptr;
  if (!a) {
    // Outside the range, or in a gap between allocations: no host memory to point at.
    dmi.allow_none();
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  const uint64_t start = std::max(a->base, base_);
  const uint64_t end = std::min(a->base + (a->size - 1), last);
  // DeviceMemory keeps an allocation's bytes in place until it is freed.
  dmi.set_dmi_ptr(const_cast<uint8_t*>(a->bytes.data()) + (start - a->base));
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  dmi.allow_read_write();
  dmi.set_read_latency(controller_latency_ + timing_.tRCD + timing_.tCL);
  dmi.set_write_latency(controller_latency_ + timing_.tRCD + timing_.tCL);
  return true;
}

unsigned int DramController::transport_dbg(tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  if (addr < base_ || addr - base_ >= size_ || trans.get_data_ptr() == nullptr) return 0;
  const uint64_t len = std::min<uint64_t>(trans.get_data_length(), size_ - (addr - base_));
  if (trans.is_read())
    store_.read_any(addr, trans.get_data_ptr(), len);
  else if (trans.is_write())
    store_.write_masked(addr, trans.get_data_ptr(), len, nullptr);
  else
    return 0;
  return static_cast<unsigned int>(len);
}

// ---- AT ----------------------------------------------------------------------

tlm::tlm_sync_enum DramController::nb_transport_fw(tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  return port_.nb_transport_fw(trans, phase, delay);
}

bool DramController::has_room(const tlm_generic_payload& trans) const {
  const uint64_t addr = trans.get_address();
  const bool mapped = addr >= base_ && addr - base_ < size_;
  return !mapped || channel_count_[locate(addr).channel] < queue_depth_;
}

// A request with room is accepted now; one that waited in time for room is counted a stall.
void DramController::serve(tlm_generic_payload& trans, const sc_time& arrived) {
  const uint64_t now = sim_now().value();
  if (arrived.value() < now) {  // a wait in time, not a delta
    ++request_stalls_;
    queue_wait_ps_ += picoseconds_of_ticks(now - arrived.value());
  }
  enqueue(trans, arrived.value());
}

// END_REQ withheld; a retirement, or the next early response due, wakes the port.
void DramController::held(const tlm_generic_payload&) {
  if (!early_due_.empty()) port_.wake_waiting_at(early_due_.front().when);
}

void DramController::enqueue(tlm_generic_payload& trans, uint64_t arrived) {
  const sc_time& now = sim_now();
  set_occupancy(occupancy_ + 1, now.value());
  if (!active_) {
    first_activity_ = arrived;
    active_ = true;
  }
  GpuAccess* access = trans.get_extension<GpuAccess>();
  const bool ok = execute(trans, access);
  if (ok && trans.get_command() != tlm::TLM_IGNORE_COMMAND) {
    const Location l = locate(trans.get_address());
    DramRequest r;
    r.seq = seq_++;
    r.bank = l.bank;
    r.row = l.row;
    sc_time codec = SC_ZERO_TIME;
    r.bursts = bursts_for(trans, access, codec);
    r.after_data = codec.value();
    r.write = trans.is_write() || (access && access->kind == AccessKind::Atomic);
    r.user = &trans;
    r.early = access && access->early_response;
    r.arrived = arrived;
    channel_[l.channel].push(r);
    channel_hist_.sample(l.channel);
    bank_hist_.sample(l.bank);
    channel_next_[l.channel] = now;  // let the scheduler look at it now
    ++channel_count_[l.channel];
    if (!r.early) pending_[&trans] = Pending{static_cast<int>(l.channel), arrived};
    schedule_event_.notify(SC_ZERO_TIME);
  } else {
    // Errors and ignore commands never reach a bank.
    pending_[&trans] = Pending{-1, arrived};
    port_.respond_at(trans, sc_time::from_value(arrived), now + controller_latency_);
  }
}

void DramController::schedule_method() {
  const sc_time now = sim_now();
  sc_time next = never_;
  // Only channels that got a request or reached the time they named have work.
  for (unsigned c = 0; c < channels_; ++c) {
    if (channel_next_[c] > now) {
      next = std::min(next, channel_next_[c]);
      continue;
    }
    issued_.clear();
    channel_next_[c] = channel_[c].schedule(now, issued_);
    next = std::min(next, channel_next_[c]);
    for (const DramIssued& d : issued_) {
      count_outcome(d.req.outcome);
      bus_busy_ps_ += picoseconds(d.data_end - d.data_start);
      tlm_generic_payload* trans = static_cast<tlm_generic_payload*>(d.req.user);
      const sc_time at = d.data_end + controller_latency_ + sc_time::from_value(d.req.after_data);
      if (!d.req.early && !pending_.count(trans))
        throw std::out_of_range("DramController: a scheduled request has no pending entry");
      if (place_freed_at_column_) free_place_at_column(*trans, c, d.req.early, now.value());
      if (d.req.early)
        respond_early(*trans, c, d.req.arrived, at);
      else
        port_.respond_at(*trans, sc_time::from_value(d.req.arrived), at);
    }
  }
  if (next != never_) schedule_.next_trigger(next - now);
}

// queue_place "column": a request leaves its channel's queue when its column
// command is issued; its data and the controller's latency follow in the
// read-return path, which holds no queue place.
void DramController::free_place_at_column(tlm_generic_payload& trans, unsigned channel, bool early, uint64_t now) {
  release_early(now);  // the occupancy histogram takes its samples in time order
  --channel_count_[channel];
  set_occupancy(occupancy_ - 1, now);
  if (!early) pending_.at(&trans).queued = false;
  port_.wake_waiting(SC_ZERO_TIME);
}

void DramController::count_outcome(RowOutcome outcome) {
  switch (outcome) {
    case RowOutcome::Hit: ++row_hits_; break;
    case RowOutcome::Miss: ++row_misses_; break;
    case RowOutcome::Conflict: ++row_conflicts_; break;
  }
}

// Its response is about to leave: the request's latency and trace.
void DramController::responding(tlm_generic_payload& trans, const sc_time& arrived) {
  const uint64_t now = sim_now().value();
  record_done(arrived.value(), now);
  if (Tracer* t = tracer()) trace_request(*t, trans, arrived.value(), now);
}

// A requester that completes every BEGIN_RESP at once (GpuAccess::early_response)
// gets its response as soon as its time is known, annotated for that time; the
// request keeps its place in its channel's queue until then (release_early).
void DramController::respond_early(tlm_generic_payload& trans, unsigned channel, uint64_t arrived, const sc_time& at) {
  record_done(arrived, at.value());
  if (Tracer* t = tracer()) trace_request(*t, trans, arrived, at.value());
  if (!place_freed_at_column_) {
    early_due_.insert(at.value(), static_cast<int>(channel));
    port_.wake_waiting(at - sim_now());  // the place it frees then may be the one they wait for
  }
  port_.respond_early(trans, at);
}

void DramController::release_due(uint64_t now) {
  while (!early_due_.empty() && early_due_.front().when <= now) {
    --channel_count_[early_due_.front().item];
    set_occupancy(occupancy_ - 1, early_due_.front().when);
    early_due_.pop_front();
  }
}

// Its response was taken: the request frees its queue place unless it left
// the queue at its column command.
bool DramController::retired(tlm_generic_payload& trans) {
  const uint64_t now = sim_now().value();
  release_early(now);  // the occupancy histogram takes its samples in time order
  auto it = pending_.find(&trans);
  const bool queued = it->second.queued;
  if (queued && it->second.channel >= 0) --channel_count_[it->second.channel];
  pending_.erase(it);
  if (queued) set_occupancy(occupancy_ - 1, now);
  return queued;
}

void DramController::set_occupancy(unsigned n, uint64_t at) {
  occupancy_hist_.sample(occupancy_, picoseconds_of_ticks(at - occupancy_since_));
  occupancy_ = n;
  occupancy_since_ = at;
}

// ---- registration --------------------------------------------------------------

const ParamTable<DramControllerConfig>& dram_controller_param_table() {
  using C = DramControllerConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::base, size_param("base", "0x0", "first address the controller answers (addresses are global)"))
          .add(&C::size, size_param("size", "256 TiB",
                                    "bytes answered from base; accesses outside get TLM_ADDRESS_ERROR_RESPONSE", 1.0))
          .add(&C::channels, int_param("channels", 8, "independent channels, each with its own banks, data bus and "
                                       "queue", 1.0, 4096.0, "channels"))
          .add(&C::banks, int_param("banks", 16, "banks per channel, each with one row buffer", 1.0, 4096.0, "banks"))
          .add(&C::row_size, size_param("row_size", "1 KiB", "bytes of one row (the page a bank holds open)", 1.0))
          .add(&C::channel_interleave, size_param("channel_interleave", "256 B",
                                                  "consecutive bytes of one channel before the next channel's", 1.0))
          .add(&C::bank_interleave, size_param("bank_interleave", "1 KiB",
                                               "consecutive bytes of one bank (within a channel) before the next "
                                               "bank's",
                                               1.0))
          .add(&C::burst_size, size_param("burst_size", "32 B",
                                          "bytes per data burst; a request occupies the bus for whole bursts", 1.0))
          .add(&C::bandwidth, bandwidth_param("bandwidth", "32 GB/s",
                                              "data bus bandwidth of ONE channel; burst time = burst_size / bandwidth"))
          .add(&C::tCL, time_param("tCL", "14 ns", "column command to first data (CAS latency; writes use it too)"))
          .add(&C::tRCD, time_param("tRCD", "14 ns", "activate to column command"))
          .add(&C::tRP, time_param("tRP", "14 ns", "precharge to activate"))
          .add(&C::tRAS, time_param("tRAS", "33 ns", "activate to precharge of the same bank, at least"))
          .add(&C::controller_latency, time_param("controller_latency", "4 ns",
                                                  "added to every response after its data's last beat (controller, "
                                                  "PHY)"))
          .add(&C::scheduler, enum_param("scheduler", "frfcfs", {"frfcfs", "fcfs"},
                                         "frfcfs: oldest row hit first; fcfs: column commands in arrival order"))
          .add(&C::timing_preset,
               enum_param("timing_preset", "none", {"none", "hbm", "hbm2", "gddr5"},
                          "the refresh, write-recovery, tRRD/tFAW, turnaround and bank-group constraints of a DRAM "
                          "generation (docs/MEMORY.md has each figure's source); a constraint set below (non-zero) "
                          "replaces the preset's. tCL, tRCD, tRP, tRAS and bandwidth are always the parameters'"))
          .add(&C::refresh, bool_param("refresh", true, "false: no refresh, even under a preset"))
          .add(&C::tREFI, time_param("tREFI", "0 ns", "refresh interval: all banks refresh once every tREFI (0: no "
                                     "refresh)"))
          .add(&C::tRFC, time_param("tRFC", "0 ns", "refresh cycle time: no ACT or column for this long after a "
                                    "refresh starts"))
          .add(&C::refresh_mode,
               enum_param("refresh_mode", "all_bank", {"all_bank", "per_bank"},
                          "all_bank: every tREFI all banks refresh together for tRFC; per_bank: every tREFI / banks one "
                          "bank, in turn, refreshes for tRFCsb while the others work (HBM2's REFSB)"))
          .add(&C::tRFCsb, time_param("tRFCsb", "0 ns", "refresh_mode per_bank: the refreshing bank takes no ACT or "
                                      "column for this long (0: the preset's)"))
          .add(&C::tWR, time_param("tWR", "0 ns", "write recovery: a bank's PRE no earlier than this after its last "
                                   "write data"))
          .add(&C::tRRD, time_param("tRRD", "0 ns", "ACT to ACT, any two banks of a channel"))
          .add(&C::tFAW, time_param("tFAW", "0 ns", "four-activate window: at most four ACTs per channel in any "
                                    "window this long"))
          .add(&C::tWTR, time_param("tWTR", "0 ns", "write-to-read turnaround: a read column no earlier than this "
                                    "after write data"))
          .add(&C::tRTW, time_param("tRTW", "0 ns", "read-to-write turnaround: write data no earlier than this after "
                                    "read data"))
          .add(&C::tCCD_S, time_param("tCCD_S", "0 ns", "column to column in different bank groups"))
          .add(&C::tCCD_L, time_param("tCCD_L", "0 ns", "column to column in the same bank group"))
          .add(&C::bank_groups, int_param("bank_groups", 0, "bank groups per channel, bank % bank_groups (0: the "
                                          "preset's, else 1)", 0.0, 4096.0))
          .add(&C::act_order, enum_param("act_order", "decided", {"decided", "earliest"},
                                         "tRRD/tFAW: decided, each ACT no earlier than the one decided before it; "
                                         "earliest, an ACT takes the earliest time the ACTs already placed allow, "
                                         "before them where a gap does (a bank waiting out tRAS delays no other "
                                         "bank's ACT)"))
          .add(&C::starvation_cap, int_param("starvation_cap", 0, "FR-FCFS: after this many younger requests have "
                                             "passed the oldest, it goes next (0: no cap)", 0.0, 1048576.0,
                                             "requests"))
          .add(&C::queue_depth, int_param("queue_depth", 32,
                                          "requests per channel accepted (END_REQ sent) and holding a queue place "
                                          "(queue_place says until when)",
                                          1.0, 1048576.0, "requests"))
          .add(&C::queue_place, enum_param("queue_place", "response", {"response", "column"},
                                           "a request holds its channel queue place until its response (response) or "
                                           "until its column command issues (column: data and controller latency "
                                           "follow in the read-return path, as in DRAMsim3 and Ramulator)"))
          .add(&C::bank_hash, enum_param("bank_hash", "none", {"none", "xor"},
                                         "xor: the bank index is XORed with the row's low bits (permutation-based "
                                         "interleaving), so rows a power-of-two stride apart use different banks; "
                                         "needs a power-of-two bank count"))
          .add(&C::interleave_ways, int_param("interleave_ways", 1,
                                              "this controller is one of this many that take turns every "
                                              "interleave_size bytes (e.g. the chiplets' memories): the others' turns "
                                              "are squeezed out of the address before the mapping (1: none)",
                                              1.0, 4096.0))
          .add(&C::interleave_size, size_param("interleave_size", "4 KiB",
                                               "the granule the interleave_ways controllers take turns at", 1.0))
          .add(&C::store, string_param("store", "device", "name of the shared device memory holding the data"))
          .add(&C::compression,
               enum_param("compression", "off", {"off", "memory", "hierarchy"},
                          "BDI line compression (CABA): off; memory: lines are held compressed in DRAM, this "
                          "controller compresses writes and decompresses reads (answers leave uncompressed); "
                          "hierarchy: lines arrive and leave compressed. Either way a whole-line access moves only "
                          "the bursts its compressed line needs, and burst-count metadata goes through the metadata "
                          "cache"))
          .add(&C::metadata_cache, size_param("metadata_cache", "8 KiB",
                                              "compression: the metadata cache's size (2 bits per line, blocks of "
                                              "burst_size); a miss costs one more burst, as does evicting a block "
                                              "changed by writes",
                                              1.0))
          .add(&C::metadata_ways, int_param("metadata_ways", 4, "compression: the metadata cache's associativity",
                                            1.0, 1024.0, "ways"))
          .add(&C::decompress_latency, time_param("decompress_latency", "1 ns",
                                                  "compression memory: added to the answer of a compressed line's "
                                                  "read (the controller's decompressor)"))
          .add(&C::compress_latency, time_param("compress_latency", "5 ns",
                                                "compression memory: added to the answer of a whole-line write "
                                                "(the controller's compressor)"));
  return table;
}

BlockType dram_controller_block_type() {
  BlockType t;
  t.name = "dram_controller";
  t.doc = "DRAM/HBM controller: channels of banks with open-page row buffers, tCL/tRCD/tRP/tRAS timing, per-channel "
          "data bus, FCFS or FR-FCFS scheduling, finite per-channel queues; data in the platform's device memory, "
          "atomics applied in lane order. LT, AT (4-phase), DMI and debug access.";
  t.params = dram_controller_param_table().specs();
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.doc = "memory requests (LT, AT, DMI, debug)";
  t.sockets = {in};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<DramController>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(dram_controller_block_type);

}  // namespace tessera
