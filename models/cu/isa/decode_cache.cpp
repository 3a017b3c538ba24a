#include "models/cu/isa/decode_cache.h"

#include <cstdio>
#include <cstring>

#include "models/cu/isa/decoder.h"

namespace tessera::isa {

DecodeCache::DecodeCache(const CodeObject& code) : code_(code) {
  const std::vector<uint8_t>& text = code.text();
  words_.resize((text.size() + 3) / 4, 0);
  if (!text.empty()) std::memcpy(words_.data(), text.data(), text.size());
  index_.assign(words_.size(), nullptr);
}

const DecodedOp* DecodeCache::decode(uint64_t offset) {
  const size_t word = offset >> 2;
  DecodedOp op;
  op.inst = isa::decode(words_.data() + word, words_.size() - word, code_.text_address() + offset);
  if (op.inst.op) op.fn = semantics().find(op.inst.op->mnemonic);
  ops_.push_back(op);
  index_[word] = &ops_.back();
  return &ops_.back();
}

std::string DecodeCache::error(const DecodedOp& op) {
  if (!op.inst.op) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "illegal instruction: 0x%08x is not a gfx90a encoding", op.inst.words[0]);
    return buf;
  }
  return std::string("instruction ") + op.inst.op->mnemonic + " has no semantics in Tessera yet";
}

}  // namespace tessera::isa
