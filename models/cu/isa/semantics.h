// Instruction semantics: one function per mnemonic, looked up once per decoded
// PC and called for every execution. The functional executor and the
// cycle-level CU both execute through this table, so they cannot disagree.
#pragma once
#include <string>
#include <unordered_map>

#include "models/cu/isa/instruction.h"

namespace tessera::isa {

class Wave;  // models/cu/isa/wave.h: WaveState plus memory, LDS, dispatch context and status

using ExecFn = void (*)(Wave& wave, const Instruction& inst);

class SemanticsTable {
 public:
  void add(const char* mnemonic, ExecFn fn);  // a mnemonic registered twice is a bug (aborts)
  ExecFn find(const char* mnemonic) const;    // nullptr: not implemented yet
  size_t size() const { return fns_.size(); }

 private:
  std::unordered_map<std::string, ExecFn> fns_;
};

// The table with every implemented instruction, built on first use.
const SemanticsTable& semantics();

// Each group of instructions registers itself from its own file.
void register_scalar_semantics(SemanticsTable& t);   // SOP1/SOP2/SOPK/SOPC/SOPP
void register_memory_semantics(SemanticsTable& t);   // SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF
void register_valu_semantics(SemanticsTable& t);     // VOP1/VOP2/VOPC/VOP3 (+SDWA/DPP)
void register_packed_semantics(SemanticsTable& t);   // VOP3P packed math and MFMA

}  // namespace tessera::isa
