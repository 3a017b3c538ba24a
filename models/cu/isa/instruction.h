// The decoded gfx90a instruction (placeholder; the decoder defines it).
#pragma once
