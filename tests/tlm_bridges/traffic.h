// Random concurrent TLM traffic that checks every read, for the bridge tests.
#pragma once
#include <random>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace tessera::test {

using namespace sc_core;

// Several initiator threads, each with a region of its own (so that a
// reference copy per thread is exact while they run concurrently), doing
// random reads and writes of 1 to 600 bytes, unaligned, some across 4 KiB
// boundaries, some with byte enables.
class Traffic : public sc_module {
 public:
  SC_HAS_PROCESS(Traffic);
  Traffic(sc_module_name name, unsigned threads, unsigned ops, uint64_t region)
      : sc_module(name), out("out"), threads_(threads), ops_(ops), region_(region) {
    for (unsigned t = 0; t < threads; ++t) sc_spawn([this, t] { run(t); });
  }
  tlm_utils::simple_initiator_socket<Traffic> out;
  unsigned done = 0, reads = 0, writes = 0, mismatches = 0, errors = 0;

 private:
  void run(unsigned t) {
    std::mt19937_64 rng(100 + t);
    const uint64_t base = t * region_;
    std::vector<uint8_t> ref(region_, 0);
    for (unsigned op = 0; op < ops_; ++op) {
      const unsigned len = 1 + rng() % 600;
      const uint64_t off = rng() % (region_ - len);
      std::vector<uint8_t> data(len), be;
      tlm::tlm_generic_payload trans;
      trans.set_address(base + off);
      trans.set_data_ptr(data.data());
      trans.set_data_length(len);
      trans.set_streaming_width(len);
      const bool write = rng() % 2;
      if (rng() % 4 == 0) {
        be.resize(1 + rng() % 8);
        for (auto& b : be) b = rng() % 2 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
        trans.set_byte_enable_ptr(be.data());
        trans.set_byte_enable_length(static_cast<unsigned>(be.size()));
      }
      if (write) {
        for (auto& b : data) b = static_cast<uint8_t>(rng());
        trans.set_command(tlm::TLM_WRITE_COMMAND);
      } else {
        std::fill(data.begin(), data.end(), 0xee);
        trans.set_command(tlm::TLM_READ_COMMAND);
      }
      sc_time delay = SC_ZERO_TIME;
      out->b_transport(trans, delay);
      if (!trans.is_response_ok()) {
        ++errors;
        continue;
      }
      for (unsigned i = 0; i < len; ++i) {
        if (!be.empty() && be[i % be.size()] != TLM_BYTE_ENABLED) continue;
        if (write)
          ref[off + i] = data[i];
        else if (data[i] != ref[off + i])
          ++mismatches;
      }
      ++(write ? writes : reads);
      wait(rng() % 5, SC_NS);
    }
    if (++done == threads_) sc_stop();
  }
  unsigned threads_, ops_;
  uint64_t region_;
};

}  // namespace tessera::test
