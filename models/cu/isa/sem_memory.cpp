// Memory instruction semantics: SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF.
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

void register_memory_semantics(SemanticsTable&) {}

}  // namespace tessera::isa
