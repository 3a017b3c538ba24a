// The kernel analysis's registers and what one instruction does to them.
#pragma once
#include <bitset>
#include <vector>

#include "models/cu/analysis/cfg.h"
#include "models/cu/analysis/value_bits.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/instruction.h"

namespace tessera::analysis {

// What every register may depend on at one point of the kernel, for all the
// waves of a workgroup at once.
struct RegisterState {
  bool reached = false;
  std::vector<Bits> scalar = std::vector<Bits>(isa::reg::kScalarFileSize);  // SGPRs, VCC, M0, EXEC by scalar code
  std::vector<Bits> vector = std::vector<Bits>(512);                         // v0..v255, then a0..a255
  Sources scc = 0;
  // EXEC still holds every lane the wave started with (so a VALU write
  // replaces whole registers), and the scalar registers holding a copy of such
  // an EXEC (s_and_saveexec's saved mask, restored at the end of an if).
  bool exec_full = true;
  std::bitset<isa::reg::kScalarFileSize> full_exec_copy;
  // Scalar registers holding the kernarg segment or dispatch packet address:
  // memory no kernel writes.
  std::bitset<isa::reg::kScalarFileSize> read_only_pointer;

  // Merges another path's state in; true if this state changed.
  bool join(const RegisterState& other);
};

// The state at a kernel's first instruction (AMDGPUUsage, initial kernel
// register state): user and system SGPRs as the descriptor enables them, the
// packed work-item IDs in v0, a full EXEC.
RegisterState entry_state(const isa::KernelDescriptor& kd);

// What one instruction wrote, for its mark.
struct Effect {
  Sources result = 0;   // the sources of every value it wrote
  bool writes_value = false;
  bool writes_scalar = false;  // an SGPR, VCC, M0, EXEC or SCC
  Sources address = 0;  // memory instructions: the sources of the address
};

// Applies `inst` to `state`. `control` holds the sources of the branches the
// instruction's block depends on; `writes` what its barrier section stores.
Effect transfer(const isa::Instruction& inst, Sources control, const SectionWrites& writes, RegisterState& state);

// The sources of the branch condition `inst` (a conditional SOPP branch) reads.
Sources branch_condition(const isa::Instruction& inst, const RegisterState& state);

}  // namespace tessera::analysis
