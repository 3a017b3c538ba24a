#include "models/mem/traffic_gen.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

static_assert(std::is_base_of_v<tlm::tlm_initiator_socket<>, tlm_utils::simple_initiator_socket<TrafficGen>>);

// A pooled transaction with its own data buffer.
struct TrafficGen::Request : tlm_generic_payload {
  explicit Request(tlm::tlm_mm_interface* mm, uint64_t size) : tlm_generic_payload(mm), buffer(size) {}
  std::vector<uint8_t> buffer;
  sc_time issued;
  bool end_resp_owed = false;  // we answered BEGIN_RESP with TLM_ACCEPTED
};

namespace {
constexpr uint64_t kMaxBlocks = uint64_t{1} << 24;  // bounds the permutation tables (64 MiB)

uint64_t mix64(uint64_t x) {  // splitmix64 finaliser: a cheap, well-spread hash
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

TrafficGen::TrafficGen(const BlockContext& ctx, const TrafficGenConfig& c)
    : Block(ctx),
      mem("mem"),
      pattern_name_(c.pattern),
      base_(c.base),
      size_(c.size),
      access_size_(c.access_size),
      count_(c.count),
      blocks_(size_ / access_size_),
      outstanding_(c.outstanding),
      lt_(c.lt),
      start_(c.start),
      seed_(c.seed),
      rng_(seed_),
      peq_(this, &TrafficGen::peq_callback),
      scratch_(access_size_),
      reads_(stats().counter("reads", "reads completed and checked")),
      writes_(stats().counter("writes", "writes completed")),
      bytes_read_(stats().counter("bytes_read", "bytes read")),
      bytes_written_(stats().counter("bytes_written", "bytes written")),
      mismatches_(stats().counter("mismatches", "reads whose data differed from what was written")),
      errors_(stats().counter("errors", "transactions answered with an error status")),
      read_latency_ns_(stats().histogram("read_latency_ns", "read issue to response, ns", 10, 100)),
      read_bandwidth_(stats().scalar("read_bandwidth", "bytes read / duration of the read pass, B/s")),
      avg_latency_(stats().scalar("avg_read_latency_ns", "mean read latency, ns")) {
  const std::string who = "traffic_gen '" + path() + "'";
  pattern_ = pattern_name_ == "random" ? Pattern::Random
             : pattern_name_ == "pointer_chase" ? Pattern::PointerChase
                                                : Pattern::Stream;
  if (size_ % access_size_ != 0)
    throw UserError(who + ": size " + std::to_string(size_) + " is not a multiple of access_size " +
                    std::to_string(access_size_));
  if (blocks_ > kMaxBlocks)
    throw UserError(who + ": size / access_size = " + std::to_string(blocks_) + " blocks; at most " +
                    std::to_string(kMaxBlocks) + " are supported");
  if (base_ + (size_ - 1) < base_)
    throw UserError(who + ": base " + hex(base_) + " + size " + hex(size_) + " wraps around the address space");
  if (pattern_ == Pattern::PointerChase && access_size_ < 8)
    throw UserError(who + ": pointer_chase needs access_size of at least 8 bytes to hold an address, got " +
                    std::to_string(access_size_));
  mem.register_nb_transport_bw(this, &TrafficGen::nb_transport_bw);
  build_order();
  SC_THREAD(run);
}

TrafficGen::~TrafficGen() = default;

tlm::tlm_initiator_socket<>* TrafficGen::initiator_socket(const std::string& name, int index) {
  return name == "mem" && index < 0 ? &mem : nullptr;
}

bool TrafficGen::ok() const { return finished_ && mismatches_.value == 0 && errors_.value == 0; }

double TrafficGen::average_read_latency_ns() const {
  return reads_.value ? latency_sum_ns_ / static_cast<double>(reads_.value) : 0.0;
}

std::string TrafficGen::summary() const {
  char buf[256];
  if (!finished_) {
    std::snprintf(buf, sizeof buf, "%s: %s did not finish: %llu of %llu reads checked, %llu mismatches, %llu errors",
                  path().c_str(), pattern_name_.c_str(), static_cast<unsigned long long>(reads_.value),
                  static_cast<unsigned long long>(count_), static_cast<unsigned long long>(mismatches_.value),
                  static_cast<unsigned long long>(errors_.value));
  } else {
    std::snprintf(buf, sizeof buf, "%s: %s %llu reads checked, %llu mismatches, %llu errors, avg latency %.1f ns",
                  path().c_str(), pattern_name_.c_str(), static_cast<unsigned long long>(reads_.value),
                  static_cast<unsigned long long>(mismatches_.value), static_cast<unsigned long long>(errors_.value),
                  average_read_latency_ns());
  }
  return buf;
}

// ---- the pattern -------------------------------------------------------------

uint64_t TrafficGen::random_below(uint64_t n) {
  // Rejection sampling: drop the top 2^64 mod n values so every residue is equally likely.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const uint64_t excess = (max % n + 1) % n;
  uint64_t x = rng_();
  while (x > max - excess) x = rng_();
  return x % n;
}

void TrafficGen::build_order() {
  if (pattern_ == Pattern::Stream) return;
  order_.resize(blocks_);
  for (uint64_t i = 0; i < blocks_; ++i) order_[i] = static_cast<uint32_t>(i);
  if (pattern_ == Pattern::Random) {
    for (uint64_t i = blocks_ - 1; i > 0; --i) std::swap(order_[i], order_[random_below(i + 1)]);  // Fisher-Yates
  } else {
    // Sattolo's variant (j < i) yields one cycle through every element: order_[i] follows i.
    for (uint64_t i = blocks_ - 1; i > 0; --i) std::swap(order_[i], order_[random_below(i)]);
  }
}

void TrafficGen::expected_data(uint64_t addr, uint8_t* out, uint64_t len) const {
  for (uint64_t k = 0; k < len; ++k) {
    const uint64_t a = addr + k;
    const uint64_t offset = (a - base_) % access_size_;
    if (pattern_ == Pattern::PointerChase && offset < 8) {
      const uint64_t index = (a - base_) / access_size_;
      out[k] = static_cast<uint8_t>(block_address(order_[index]) >> (8 * offset));
    } else {
      out[k] = static_cast<uint8_t>(mix64(seed_ * 0x2545f4914f6cdd1dULL ^ (a >> 3)) >> (8 * (a & 7)));
    }
  }
}

void TrafficGen::run() {
  wait(start_);
  write_pass();
  drain();
  read_start_ = sc_core::sc_time_stamp();
  read_pass();
  drain();
  read_end_ = sc_core::sc_time_stamp();
  const double span = (read_end_ - read_start_).to_seconds();
  if (span > 0) read_bandwidth_.value = static_cast<double>(bytes_read_.value) / span;
  avg_latency_.value = average_read_latency_ns();
  finished_ = true;
  debug(summary());
}

void TrafficGen::write_pass() {
  for (uint64_t i = 0; i < blocks_; ++i)
    issue(tlm::TLM_WRITE_COMMAND, block_address(pattern_ == Pattern::Random ? order_[i] : i));
}

void TrafficGen::read_pass() {
  if (pattern_ != Pattern::PointerChase) {
    for (uint64_t k = 0; k < count_; ++k)
      issue(tlm::TLM_READ_COMMAND, block_address(pattern_ == Pattern::Random ? random_below(blocks_) : k % blocks_));
    return;
  }
  uint64_t index = 0;
  for (uint64_t k = 0; k < count_; ++k) {
    issue(tlm::TLM_READ_COMMAND, block_address(index));
    drain();  // the next address is in this read's data
    const uint64_t next = chase_next_;
    const bool usable = next >= base_ && next - base_ < size_ && (next - base_) % access_size_ == 0;
    // A corrupted pointer was already counted as a mismatch; keep chasing the true cycle then.
    index = usable ? (next - base_) / access_size_ : order_[index];
  }
}

// ---- transactions -------------------------------------------------------------

TrafficGen::Request* TrafficGen::allocate() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Request>(this, access_size_));
    free_.push_back(pool_.back().get());
  }
  Request* r = free_.back();
  free_.pop_back();
  return r;
}

void TrafficGen::free(tlm_generic_payload* trans) {
  trans->reset();
  free_.push_back(static_cast<Request*>(trans));
}

void TrafficGen::issue(tlm::tlm_command cmd, uint64_t addr) {
  while (in_flight_ >= outstanding_ || request_pending_) wait(progress_);
  Request* r = allocate();
  r->acquire();
  ++in_flight_;
  r->set_command(cmd);
  r->set_address(addr);
  r->set_data_ptr(r->buffer.data());
  r->set_data_length(static_cast<unsigned int>(access_size_));
  r->set_streaming_width(static_cast<unsigned int>(access_size_));
  r->set_byte_enable_ptr(nullptr);
  r->set_byte_enable_length(0);
  r->set_dmi_allowed(false);
  r->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  r->end_resp_owed = false;
  r->issued = sc_core::sc_time_stamp();
  if (cmd == tlm::TLM_WRITE_COMMAND)
    expected_data(addr, r->buffer.data(), access_size_);
  else
    std::memset(r->buffer.data(), 0, access_size_);

  if (lt_) {
    sc_time delay = SC_ZERO_TIME;
    mem->b_transport(*r, delay);
    wait(delay);
    complete(*r);
    return;
  }
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = SC_ZERO_TIME;
  request_pending_ = r;
  const tlm::tlm_sync_enum s = mem->nb_transport_fw(*r, phase, delay);
  if (s == tlm::TLM_UPDATED) {
    peq_.notify(*r, phase, delay);  // END_REQ or BEGIN_RESP, at its annotated time
  } else if (s == tlm::TLM_COMPLETED) {
    phase = tlm::BEGIN_RESP;  // the whole transaction is done: treat as its response
    peq_.notify(*r, phase, delay);
  }
}

void TrafficGen::drain() {
  while (in_flight_ > 0) wait(progress_);
}

tlm::tlm_sync_enum TrafficGen::nb_transport_bw(tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_RESP) static_cast<Request&>(trans).end_resp_owed = true;
  peq_.notify(trans, phase, delay);
  return tlm::TLM_ACCEPTED;
}

void TrafficGen::peq_callback(tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
  Request& r = static_cast<Request&>(trans);
  if (phase == tlm::END_REQ || (phase == tlm::BEGIN_RESP && request_pending_ == &trans)) {
    request_pending_ = nullptr;  // BEGIN_RESP also ends the request phase
    progress_.notify(SC_ZERO_TIME);
  }
  if (phase != tlm::BEGIN_RESP) return;
  if (r.end_resp_owed) {
    tlm::tlm_phase end = tlm::END_RESP;
    sc_time delay = SC_ZERO_TIME;
    mem->nb_transport_fw(r, end, delay);
  }
  complete(r);
  progress_.notify(SC_ZERO_TIME);
}

void TrafficGen::complete(Request& r) {
  const bool read = r.is_read();
  if (r.is_response_error()) {
    if (errors_.value == 0)
      error(r.get_response_string() + " for " + describe(r) + " (further errors are only counted)");
    ++errors_;
  } else if (read) {
    std::vector<uint8_t>& want = scratch_;
    expected_data(r.get_address(), want.data(), access_size_);
    if (std::memcmp(want.data(), r.buffer.data(), access_size_) != 0) {
      if (mismatches_.value == 0) {
        uint64_t k = 0;
        while (want[k] == r.buffer[k]) ++k;
        error("data mismatch: " + describe(r) + ": byte at " + hex(r.get_address() + k) + " is " + hex(r.buffer[k]) +
              ", wrote " + hex(want[k]) + " (further mismatches are only counted)");
      }
      ++mismatches_;
    }
  }
  if (read) {
    const sc_time latency = sc_core::sc_time_stamp() - r.issued;
    ++reads_;
    bytes_read_ += access_size_;
    read_latency_ns_.sample(nanoseconds(latency));
    latency_sum_ns_ += latency.to_seconds() * 1e9;
    if (pattern_ == Pattern::PointerChase) {
      chase_next_ = 0;
      for (int b = 7; b >= 0; --b) chase_next_ = (chase_next_ << 8) | r.buffer[b];
    }
  } else {
    ++writes_;
    bytes_written_ += access_size_;
  }
  --in_flight_;
  r.release();
}

// ---- registration -------------------------------------------------------------

const ParamTable<TrafficGenConfig>& traffic_gen_param_table() {
  using C = TrafficGenConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::pattern, enum_param("pattern", "stream", {"stream", "random", "pointer_chase"},
                                       "access pattern: sequential, seeded random blocks, or a dependent chase of a "
                                       "seeded pointer cycle"))
          .add(&C::base, size_param("base", "0x0", "first address of the region"))
          .add(&C::size, size_param("size", "64 KiB", "bytes in the region; a multiple of access_size", 1.0))
          .add(&C::access_size, size_param("access_size", "64 B", "bytes per transaction", 1.0, 1048576.0))
          .add(&C::count, int_param("count", 1024, "reads after the write pass (which covers the whole region)", 0.0,
                                    1e12, "reads"))
          .add(&C::outstanding, int_param("outstanding", 8,
                                          "transactions in flight at most (AT; pointer_chase reads are one at a time)",
                                          1.0, 65536.0, "transactions"))
          .add_flag(&C::lt, enum_param("protocol", "at", {"at", "lt"},
                                       "approximately timed (nb_transport) or loosely timed (b_transport)"),
                    "lt")
          .add(&C::seed, int_param("seed", 1, "seed of the data pattern and of the random orders", 0.0))
          .add(&C::start, time_param("start", "0 ns", "when the generator starts"));
  return table;
}

BlockType traffic_gen_block_type() {
  BlockType t;
  t.name = "traffic_gen";
  t.doc = "Self-checking traffic generator: writes a known pattern over its region, reads it back and checks every "
          "byte; ok() is false on any mismatch or error response.";
  t.params = traffic_gen_param_table().specs();
  SocketSpec mem;
  mem.name = "mem";
  mem.dir = SocketDir::Initiator;
  mem.doc = "to the memory system";
  mem.request_limit = "access_size";  // the netlist checks that caches and interleaves below can take them
  t.sockets = {mem};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<TrafficGen>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(traffic_gen_block_type);

}  // namespace tessera
