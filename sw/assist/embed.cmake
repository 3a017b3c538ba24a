# cmake -DIN=FILE -DOUT=FILE.cpp -P embed.cmake: FILE's bytes as the array
# tessera::kAssistWarpImage (models/cu/assist_warp_store.h declares it).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR bytes "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUT} "// Generated from assist_warps.hsaco by sw/assist/embed.cmake.\n#include <cstddef>\n"
  "namespace tessera {\nextern const unsigned char kAssistWarpImage[];\nextern const size_t kAssistWarpImageSize;\n"
  "const unsigned char kAssistWarpImage[] = {\n${body}\n};\nconst size_t kAssistWarpImageSize = ${bytes};\n}\n")
