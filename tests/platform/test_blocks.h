// Small block types for the platform's own tests, registered under names that
// cannot clash with real blocks ("test_*"). They are real SystemC blocks: a
// source that writes words and reads them back, a sink that stores them, a
// router that forwards by its address_map parameter; plus two types that only
// exist to be validated (a socket of another protocol, a required parameter).
#pragma once
#include <map>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/block.h"
#include "platform/errors.h"
#include "platform/registry.h"

namespace tessera::testing {

// Writes `count` 32-bit words at base, base+4, ... then reads them back.
class TestSource : public Block {
 public:
  tlm_utils::simple_initiator_socket<TestSource> mem;

  explicit TestSource(const BlockContext& ctx)
      : Block(ctx),
        mem("mem"),
        count_(ctx.params.integer("count")),
        base_(ctx.params.size("base")),
        mismatches_(stats().counter("mismatches", "words read back wrong")),
        transfers_(stats().counter("transfers", "transactions completed")) {
    SC_HAS_PROCESS(TestSource);
    SC_THREAD(run);
  }
  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override {
    return name == "mem" && index < 0 ? &mem : nullptr;
  }
  bool ok() const override { return done_ && mismatches_.value == 0; }
  std::string summary() const override { return std::to_string(transfers_.value) + " transfers"; }

 private:
  uint32_t pattern(int64_t k) const { return static_cast<uint32_t>(0x9e3779b9u * (k + 1) + base_); }
  void transfer(tlm::tlm_command cmd, uint64_t addr, uint32_t& word) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    mem->b_transport(p, delay);
    if (p.is_response_error()) ++mismatches_;
    ++transfers_;
    wait(delay);
  }
  void run() {
    for (int64_t k = 0; k < count_; ++k) {
      uint32_t w = pattern(k);
      transfer(tlm::TLM_WRITE_COMMAND, base_ + 4 * k, w);
    }
    for (int64_t k = 0; k < count_; ++k) {
      uint32_t w = 0;
      transfer(tlm::TLM_READ_COMMAND, base_ + 4 * k, w);
      if (w != pattern(k)) ++mismatches_;
    }
    done_ = true;
  }

  int64_t count_;
  uint64_t base_;
  bool done_ = false;
  Counter& mismatches_;
  Counter& transfers_;
};

// Stores bytes; each access costs `latency`.
class TestSink : public Block {
 public:
  tlm_utils::simple_target_socket<TestSink> in;

  explicit TestSink(const BlockContext& ctx)
      : Block(ctx),
        in("in"),
        size_(ctx.params.size("size")),
        latency_(ctx.params.time("latency")),
        accesses_(stats().counter("accesses", "transactions served")) {
    // A constraint the schema cannot express, checked where the block is built.
    if (size_ % 4 != 0) throw UserError("size must be a multiple of 4 bytes");
    in.register_b_transport(this, &TestSink::b_transport);
  }
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override {
    return name == "in" && index < 0 ? &in : nullptr;
  }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    if (p.get_address() + p.get_data_length() > size_) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    for (unsigned i = 0; i < p.get_data_length(); ++i) {
      uint8_t& b = bytes_[p.get_address() + i];
      if (p.is_write())
        b = p.get_data_ptr()[i];
      else
        p.get_data_ptr()[i] = b;
    }
    ++accesses_;
    delay += latency_;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  uint64_t size_;
  sc_core::sc_time latency_;
  std::map<uint64_t, uint8_t> bytes_;
  Counter& accesses_;
};

// Forwards from in[] to the out[] port that its address_map names.
class TestRouter : public Block {
 public:
  std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<TestRouter>>> in;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<TestRouter>>> out;
  std::map<std::string, int> counts;  // as the factory received them
  json map;

  explicit TestRouter(const BlockContext& ctx) : Block(ctx), counts(ctx.socket_counts), map(ctx.params.raw("address_map")) {
    for (int i = 0; i < counts.at("in"); ++i) {
      in.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<TestRouter>>(("in_" + std::to_string(i)).c_str()));
      in.back()->register_b_transport(this, &TestRouter::b_transport, i);
    }
    for (int i = 0; i < counts.at("out"); ++i)
      out.push_back(std::make_unique<tlm_utils::simple_initiator_socket<TestRouter>>(("out_" + std::to_string(i)).c_str()));
  }
  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override {
    return name == "out" && index >= 0 && index < static_cast<int>(out.size()) ? out[index].get() : nullptr;
  }
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override {
    return name == "in" && index >= 0 && index < static_cast<int>(in.size()) ? in[index].get() : nullptr;
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint64_t a = p.get_address();
    for (const auto& e : map) {
      const uint64_t base = e["base"], size = e["size"], il = e["interleave"];
      if (a < base || a >= base + size) continue;
      const auto& ports = e["ports"];
      const size_t pick = il ? ((a - base) / il) % ports.size() : 0;
      (*out[ports[pick].get<int>()])->b_transport(p, delay);
      return;
    }
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
};

// Only validated, never elaborated: an interrupt line and a required parameter.
class TestOther : public Block {
 public:
  explicit TestOther(const BlockContext& ctx) : Block(ctx) {}
};

inline void register_test_blocks() {
  static const bool registered = [] {
    SocketSpec mem{"mem", SocketDir::Initiator, "mem", false, true, "requests", {}, {}};
    SocketSpec in{"in", SocketDir::Target, "mem", false, true, "requests", {}, {}};
    Registry& r = Registry::instance();
    r.add({"test_source", "writes words and reads them back",
           {int_param("count", 4, "words", 0, 1 << 20), size_param("base", "0x0", "first address")},
           {mem},
           [](const BlockContext& c) { return std::make_unique<TestSource>(c); }});
    r.add({"test_sink",
           "stores what is written",
           {size_param("size", "64 KiB", "bytes", 1.0), time_param("latency", "10 ns", "per access"),
            int_param("ways", 4, "associativity", 1, 16), enum_param("policy", "lru", {"lru", "fifo"}, "replacement"),
            bool_param("enabled", true, "on/off"), double_param("ratio", 0.5, "a fraction", 0.0, 1.0),
            bandwidth_param("rate", "1 GB/s", "port bandwidth"), frequency_param("freq", "1 GHz", "a frequency"),
            string_param("label", "", "free text")},
           {in},
           [](const BlockContext& c) { return std::make_unique<TestSink>(c); }});
    SocketSpec vin{"in", SocketDir::Target, "mem", true, true, "requests", {}, {}};
    SocketSpec vout{"out", SocketDir::Initiator, "mem", true, true, "to targets", {}, {}};
    r.add({"test_router", "forwards by address_map",
           {json_param("address_map", json(), "ranges"), int_param("latency", 0, "cycles", 0, 100)},
           {vin, vout},
           [](const BlockContext& c) { return std::make_unique<TestRouter>(c); }});
    SocketSpec irq{"irq", SocketDir::Initiator, "irq", false, true, "interrupt line", {}, {}};
    SocketSpec dbg{"debug", SocketDir::Target, "mem", false, false, "optional debug port", {}, {}};
    ParamSpec depth = int_param("depth", 0, "entries", 1, 64);
    depth.default_value = json();  // required
    r.add({"test_other", "an interrupt source with a required depth",
           {depth},
           {irq, dbg},
           [](const BlockContext& c) { return std::make_unique<TestOther>(c); }});
    return true;
  }();
  (void)registered;
}

}  // namespace tessera::testing
