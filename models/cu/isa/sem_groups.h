// The files that make up the scalar and memory semantics groups, each
// registering its share of the table (internal to those groups).
#pragma once
#include "models/cu/isa/semantics.h"

namespace tessera::isa {

void register_sop_semantics(SemanticsTable& t);       // SOP1, SOP2, SOPC (sem_scalar.cpp)
void register_control_semantics(SemanticsTable& t);   // SOPK, SOPP, hardware registers (sem_scalar_control.cpp)
void register_smem_semantics(SemanticsTable& t);      // SMEM (sem_memory.cpp)
void register_ds_semantics(SemanticsTable& t);        // DS (sem_memory_lds.cpp)
void register_vmem_semantics(SemanticsTable& t);      // FLAT, GLOBAL, SCRATCH (sem_memory_flat.cpp)
void register_mubuf_semantics(SemanticsTable& t);     // MUBUF (sem_memory_buffer.cpp)

// The semantics of instructions that change no architectural state (cache
// maintenance, ds_nop): the PC moves on as for any instruction. In
// sem_scalar_control.cpp.
void no_op(Wave& w, const Instruction& i);

}  // namespace tessera::isa
