// Reopens a block's SystemC hierarchy scope while its members are constructed.
//
// Block's constructor builds its sc_module from a temporary sc_module_name, so
// SystemC closes the module's scope before a derived block's members exist;
// sockets and PEQs created then would land outside the module ("sc_export
// specified outside of module"). Declare a ModuleScope as the first member of a
// block and call close() at the end of its constructor body. If the scope is
// already open (a Block that keeps its name alive), the extra level is harmless.
#pragma once
#include <systemc>

namespace tessera {

class ModuleScope {
 public:
  explicit ModuleScope(sc_core::sc_module* module) { sc_core::sc_get_curr_simcontext()->hierarchy_push(module); }
  ModuleScope(const ModuleScope&) = delete;
  ModuleScope& operator=(const ModuleScope&) = delete;
  ~ModuleScope() { close(); }

  void close() {
    if (open_) sc_core::sc_get_curr_simcontext()->hierarchy_pop();
    open_ = false;
  }

 private:
  bool open_ = true;
};

}  // namespace tessera
