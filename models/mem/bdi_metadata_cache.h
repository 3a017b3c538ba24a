// The metadata cache of a memory controller that keeps lines BDI-compressed
// (CABA, docs/CABA.md): DRAM holds 2 bits per line (how many 32-byte bursts
// the line occupies), and the controller keeps recently used metadata blocks
// in a small set-associative cache (8 KiB, 4-way by default). A block is one
// burst of metadata; a miss reads it from DRAM, and evicting a block changed
// by writes writes it back. Plain C++, no SystemC: the controller times what
// it answers.
#pragma once
#include <cstdint>
#include <vector>

namespace tessera {

class BdiMetadataCache {
 public:
  // `size` bytes in blocks of `block_bytes`, `ways`-way set associative, LRU.
  // Throws std::invalid_argument unless size is a non-zero multiple of
  // ways * block_bytes.
  BdiMetadataCache(uint64_t size, unsigned ways, uint64_t block_bytes);

  struct Outcome {
    bool hit = false;
    bool writeback = false;  // a dirty block was evicted to make room
  };
  // Looks up metadata block `block` (a block number, not an address); a write
  // leaves it dirty.
  Outcome access(uint64_t block, bool write);

  uint64_t sets() const { return sets_; }

 private:
  struct Way {
    uint64_t block = 0;
    uint64_t used = 0;  // LRU stamp; 0: invalid
    bool dirty = false;
  };
  uint64_t sets_;
  unsigned ways_;
  uint64_t clock_ = 0;
  std::vector<Way> ways_of_sets_;
};

}  // namespace tessera
