#include "models/cu/mem_request.h"

namespace tessera {

RequestPool::~RequestPool() {
  // Payloads still referenced elsewhere at teardown are not ours to free twice.
  for (auto& r : all_) r->set_mm(nullptr);
}

MemRequest* RequestPool::get() {
  MemRequest* r;
  if (free_.empty()) {
    all_.push_back(std::make_unique<MemRequest>());
    r = all_.back().get();
    r->index = static_cast<uint32_t>(all_.size() - 1);
    r->data.resize(line_);
    r->enables.resize(line_);
    r->pieces.reserve(64);
    r->access = new GpuAccess();
    r->access->lanes.reserve(64);
    r->set_extension(r->access);
    r->set_mm(this);
  } else {
    r = free_.back();
    free_.pop_back();
  }
  r->pieces.clear();
  r->inst = nullptr;
  r->fetch_wave = nullptr;
  r->fetch_gen = 0;
  r->value_read = false;
  r->held = false;
  // Fields a previous user of the extension may have changed.
  const uint32_t index = r->index;
  GpuAccess& a = *r->access;
  a.kind = AccessKind::Load;
  a.cu = a.wave = -1;
  a.tag = index;
  a.glc = a.slc = false;
  a.cu_decompress = a.cu_compressed = a.wire = bdi::Encoding::uncompressed;
  a.cu_fill = 0;
  a.early_response = true;  // the CU completes every BEGIN_RESP at once (ComputeUnit::nb_transport_bw)
  a.lanes.clear();  // keeps its capacity
  r->set_byte_enable_ptr(nullptr);
  r->set_byte_enable_length(0);
  r->set_streaming_width(0);
  r->set_dmi_allowed(false);
  r->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  r->set_data_ptr(r->data.data());
  r->acquire();
  return r;
}

void RequestPool::free(tlm::tlm_generic_payload* trans) {
  free_.push_back(from(*trans));
}

MemInst* MemInstPool::get() {
  if (free_.empty()) {
    all_.push_back(std::make_unique<MemInst>());
    all_.back()->plan.chunks.reserve(128);
    return all_.back().get();
  }
  MemInst* m = free_.back();
  free_.pop_back();
  return m;
}

}  // namespace tessera
