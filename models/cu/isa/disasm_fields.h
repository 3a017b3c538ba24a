// Text of encoded fields that llvm prints symbolically: s_waitcnt counters,
// hwreg(...), sendmsg(...), DPP controls, SDWA selects, MTBUF formats.
#pragma once
#include <cstdint>
#include <string>

namespace tessera::isa::disasm {

std::string waitcnt_text(uint16_t simm16);
std::string hwreg_text(uint16_t simm16);
std::string sendmsg_text(uint16_t simm16);
std::string gpr_idx_mode_text(uint16_t mode);
std::string dpp_ctrl_text(uint16_t ctrl);  // "quad_perm:[0,1,2,3]", "row_shr:1", ...
const char* sdwa_sel_name(uint8_t sel);    // BYTE_0 .. DWORD
const char* sdwa_unused_name(uint8_t unused);
std::string swizzle_text(uint16_t offset);  // ds_swizzle_b32's offset: "swizzle(SWAP,16)"...
std::string mtbuf_format_text(uint8_t dfmt, uint8_t nfmt);  // "" for the default format

}  // namespace tessera::isa::disasm
