#include "models/cu/isa/semantics.h"

#include <cstdio>
#include <cstdlib>

namespace tessera::isa {

void SemanticsTable::add(const char* mnemonic, ExecFn fn) {
  if (!fns_.emplace(mnemonic, fn).second) {
    std::fprintf(stderr, "tessera: instruction semantics for %s registered twice\n", mnemonic);
    std::abort();
  }
}

ExecFn SemanticsTable::find(const char* mnemonic) const {
  auto it = fns_.find(mnemonic);
  return it == fns_.end() ? nullptr : it->second;
}

const SemanticsTable& semantics() {
  static const SemanticsTable table = [] {
    SemanticsTable t;
    register_scalar_semantics(t);
    register_memory_semantics(t);
    register_valu_semantics(t);
    register_packed_semantics(t);
    return t;
  }();
  return table;
}

}  // namespace tessera::isa
