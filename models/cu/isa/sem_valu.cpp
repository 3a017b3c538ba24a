// The VALU semantics groups, registered family by family.
#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

void register_valu_semantics(SemanticsTable& t) {
  register_valu_int_semantics(t);
  register_valu_float_semantics(t);
  register_valu_f16_semantics(t);
  register_valu_cmp_semantics(t);
  register_valu_conv_semantics(t);
  register_valu_lane_semantics(t);
}

}  // namespace tessera::isa
