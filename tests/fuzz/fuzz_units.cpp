// libFuzzer target: the small languages inside netlist strings and on the
// command line: quantities with units (platform/units.cpp), instance names
// and ranges, index expressions (platform/netlist_names.cpp) and --set
// overrides. The first byte picks the parser; bad input must end in UserError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_names.h"
#include "platform/units.h"

using namespace tessera;

// libsystemc needs the symbol; libFuzzer's main() runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 8) {
      case 0: parse_size(text); break;
      case 1: format_quantity(parse_quantity(text, Quantity::Frequency), Quantity::Frequency); break;
      case 2: format_quantity(parse_quantity(text, Quantity::Time), Quantity::Time); break;
      case 3: format_quantity(parse_quantity(text, Quantity::Bandwidth), Quantity::Bandwidth); break;
      case 4: {
        const NameSegment seg = parse_segment(text, SegmentSyntax{true, true, true});
        if (seg.index != NameSegment::Index::Wildcard && seg.index != NameSegment::Index::Expr) expand_segment(seg);
        break;
      }
      case 5: eval_index_expr(text, data[0] >> 3); break;
      case 6: parse_override(text); break;
      default: parse_segments(text, SegmentSyntax{true, true, false}); break;
    }
  } catch (const UserError&) {
  }
  return 0;
}
