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

namespace {
void extend(uint16_t& end, const Operand& o) {
  const uint16_t last = static_cast<uint16_t>(o.reg + (o.dwords ? o.dwords : 1));
  if (last > end) end = last;
}
}  // namespace

void DecodeCache::record_register_ends(DecodedOp& op) {
  const Instruction& in = op.inst;
  auto visit = [&op](const Operand& o) {
    if (o.kind == OperandKind::Vgpr) extend(op.vgpr_end, o);
    if (o.kind == OperandKind::Agpr) extend(op.agpr_end, o);
    if (o.kind == OperandKind::Scalar) extend(op.scalar_end, o);
  };
  for (unsigned i = 0; i < in.num_dst && i < in.dst.size(); ++i) visit(in.dst[i]);
  for (unsigned i = 0; i < in.num_src && i < in.src.size(); ++i) visit(in.src[i]);
}

const DecodedOp* DecodeCache::decode(uint64_t offset) {
  const size_t word = offset >> 2;
  DecodedOp op;
  op.inst = isa::decode(words_.data() + word, words_.size() - word, code_.text_address() + offset);
  if (op.inst.op) op.fn = semantics().find(op.inst.op->mnemonic);
  record_register_ends(op);
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
