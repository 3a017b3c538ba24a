// A code object with its instructions decoded once per PC.
//
// The first execution of a PC decodes the instruction there and looks up its
// semantics; every later execution reuses the entry, so the run loop does no
// decoding, no string lookups and no allocation. The functional executor and
// the cycle-level CU share one cache per loaded code object.
#pragma once
#include <cstdint>
#include <string>
#include <deque>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/instruction.h"
#include "models/cu/isa/semantics.h"

namespace tessera::isa {

struct DecodedOp {
  Instruction inst;
  ExecFn fn = nullptr;  // nullptr: no semantics (or no valid encoding); see error()
  // One past the highest register each file's operands name, so the run loop
  // can refuse an instruction that reaches past the wave's allocation (a code
  // object whose descriptor under-declares its registers) instead of
  // touching memory outside the register files.
  uint16_t vgpr_end = 0, agpr_end = 0, scalar_end = 0;
};

class DecodeCache {
 public:
  explicit DecodeCache(const CodeObject& code);
  DecodeCache(const DecodeCache&) = delete;
  DecodeCache& operator=(const DecodeCache&) = delete;

  const CodeObject& code() const { return code_; }

  // The decoded instruction at `pc`, or nullptr if `pc` is not a 4-byte
  // aligned address inside .text.
  const DecodedOp* at(uint64_t pc) {
    const uint64_t off = pc - code_.text_address();
    if (off >= code_.text().size() || (off & 3)) return nullptr;
    const DecodedOp* op = index_[off >> 2];
    return op ? op : decode(off);
  }

  // Why `op` cannot execute: an invalid encoding or an instruction without semantics.
  static std::string error(const DecodedOp& op);

  size_t decoded_count() const { return ops_.size(); }

 private:
  const DecodedOp* decode(uint64_t offset);
  static void record_register_ends(DecodedOp& op);

  const CodeObject& code_;
  std::vector<uint32_t> words_;  // .text as aligned dwords
  std::vector<const DecodedOp*> index_;  // per dword of .text: its entry in ops_, nullptr = not decoded yet
  std::deque<DecodedOp> ops_;   // a deque: entries never move once decoded
};

}  // namespace tessera::isa
