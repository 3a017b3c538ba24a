// Helpers for cache tests: requests with a GpuAccess extension, maintenance
// commands, and a memory below whose timing makes round trips easy to count.
#pragma once
#include <cstring>

#include "../mem/mem_test_support.h"
#include "models/cache/cache.h"
#include "models/mem/backing_store.h"
#include "models/mem/gpu_access.h"
#include "models/mem/memory.h"

namespace tessera::test {

// An l1v_cache whose hit takes 10 cycles and whose fill leaves 3 cycles after
// acceptance (1 ns clock).
inline const json kL1 = {{"hit_latency", 10}, {"miss_latency", 3}};

// A request of `kind`; the payload owns (and frees) the extension.
struct GpuPayload : Payload {
  GpuPayload(tlm::tlm_command cmd, uint64_t addr, unsigned len, AccessKind kind, bool glc = false)
      : Payload(cmd, addr, len), ext(new GpuAccess) {
    ext->kind = kind;
    ext->glc = glc;
    set_extension(ext);
  }
  uint32_t u32(unsigned offset = 0) const {
    uint32_t v;
    std::memcpy(&v, buffer.data() + offset, 4);
    return v;
  }
  void set_u32(uint32_t v, unsigned offset = 0) { std::memcpy(buffer.data() + offset, &v, 4); }
  GpuAccess* ext;
};

inline std::unique_ptr<GpuPayload> load(uint64_t addr, unsigned len = 4, bool glc = false) {
  return std::make_unique<GpuPayload>(tlm::TLM_READ_COMMAND, addr, len, AccessKind::Load, glc);
}
inline std::unique_ptr<GpuPayload> store(uint64_t addr, uint32_t value) {
  auto p = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, addr, 4, AccessKind::Store);
  p->set_u32(value);
  return p;
}

struct CommandPayload : Payload {
  explicit CommandPayload(CacheOp op) : Payload(tlm::TLM_IGNORE_COMMAND, 0, 0), cmd(new CacheCommand) {
    cmd->op = op;
    set_extension(cmd);
  }
  CacheCommand* cmd;
};

// Memory below the cache: 40 ns after a transfer of `bandwidth` (64 GB/s:
// a 64-byte line takes 1 ns; 128 GB/s: a 128-byte line takes 1 ns).
inline Memory& memory_below(MiniPlatform& pf, const char* bandwidth = "64 GB/s") {
  return pf.create<Memory>("memory", "mem",
                           json{{"latency", "40 ns"}, {"bandwidth", bandwidth}, {"size", "1 MiB"}, {"page_size", "4 KiB"}});
}

inline BackingStore& dram(MiniPlatform& pf) { return pf.shared.get<BackingStore>("dram", uint64_t{4096}); }

inline uint32_t dram_u32(MiniPlatform& pf, uint64_t addr) {
  uint32_t v;
  dram(pf).read(addr, reinterpret_cast<uint8_t*>(&v), 4);
  return v;
}
inline void set_dram_u32(MiniPlatform& pf, uint64_t addr, uint32_t v) {
  dram(pf).write(addr, reinterpret_cast<const uint8_t*>(&v), 4);
}

// Sends one request and waits for its response (probe answers with TLM_COMPLETED).
inline sc_core::sc_time roundtrip(Probe& p, tlm::tlm_generic_payload& t) {
  p.begin_req(t);
  return p.wait_for(t, tlm::BEGIN_RESP);
}

// The vector L1 scenario behind the hit/miss timing tests (four-phase in
// l1v_cache_test.cpp, early responses in early_response_test.cpp): an L1 with
// hit latency 10 and miss latency 3 over memory_below(); a miss at 0, a hit on
// its line at 100, then a miss on the next line. `early` sets the requests'
// GpuAccess::early_response.
struct MissHitMiss {
  std::unique_ptr<GpuPayload> miss = load(0x104), hit = load(0x13c), other = load(0x140);
  std::unique_ptr<Probe> probe;
};
inline std::unique_ptr<MissHitMiss> run_miss_hit_miss(MiniPlatform& pf, bool early) {
  auto run = std::make_unique<MissHitMiss>();
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", kL1, {{"in", 1}});
  auto& mem = memory_below(pf);
  dram(pf).fill(0x100, 0x5a, 64);
  MissHitMiss& r = *run;
  for (GpuPayload* t : {r.miss.get(), r.hit.get(), r.other.get()}) t->ext->early_response = early;
  r.probe = std::make_unique<Probe>("probe", [&r](Probe& p) {
    roundtrip(p, *r.miss);
    wait(ns(100) - sc_core::sc_time_stamp());
    roundtrip(p, *r.hit);
    roundtrip(p, *r.other);
  });
  r.probe->socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();
  return run;
}

}  // namespace tessera::test
