// The aperture source operands read the upper halves of the flat apertures
// that the wave's flat memory accesses decode (models/cu/isa/wave_state.h).
#include <catch2/catch.hpp>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

using namespace tessera::isa;

TEST_CASE("src_shared_base and src_private_limit read the aperture upper halves", "[aperture]") {
  Wave w{8, 0};
  // s_mov_b32 s0, src_shared_base ; s_mov_b32 s1, src_private_limit (llvm-mc-14 encodings)
  const uint32_t words[][2] = {{0xbe8000ebu, 0}, {0xbe8100eeu, 0}};
  for (const auto& word : words) {
    const Instruction in = decode(word, 2, 0);
    REQUIRE(in.op != nullptr);
    ExecFn fn = semantics().find(in.mnemonic());
    REQUIRE(fn != nullptr);
    fn(w, in);
  }
  CHECK(w.s(0) == static_cast<uint32_t>(kSharedApertureBase >> 32));
  CHECK(w.s(1) == static_cast<uint32_t>((kPrivateApertureBase + kApertureSize - 1) >> 32));
  CHECK(w.s(0) != 0);
}
