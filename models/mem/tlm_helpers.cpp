#include "models/mem/tlm_helpers.h"

namespace tessera {

std::string describe(const tlm::tlm_generic_payload& trans) {
  const char* what = trans.is_read() ? "read" : trans.is_write() ? "write" : "ignore command";
  return std::string(what) + " of " + std::to_string(trans.get_data_length()) + " bytes at " +
         hex(trans.get_address());
}

sc_core::sc_time transfer_time(uint64_t bytes, double bytes_per_second) {
  return sc_core::sc_time(static_cast<double>(bytes) / bytes_per_second, sc_core::SC_SEC);
}

}  // namespace tessera
