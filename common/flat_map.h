// FlatMap: the hash map the memory-side blocks keep their per-request entries
// in (routes of payloads in flight, MSHRs and writebacks by line, DRAM
// requests by payload). Keys are integers or pointers; entries live in one
// array with open addressing (linear probing, at most half full) and are
// erased by backward shift, so that once the table has grown to a block's
// working set, inserting and erasing allocate nothing and a lookup is a
// multiply and a short scan. Only what the blocks use of std::unordered_map's
// interface is here, and nothing iterates over a FlatMap: its order would be
// the table's.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

template <class Key, class Value>
class FlatMap {
  static_assert(std::is_integral_v<Key> || std::is_pointer_v<Key>, "FlatMap keys are integers or pointers");

 public:
  struct Slot {
    Key first{};
    Value second{};
  };
  using iterator = Slot*;
  using const_iterator = const Slot*;

  FlatMap() { resize(16); }
  FlatMap(const FlatMap&) = delete;
  FlatMap& operator=(const FlatMap&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    used_.assign(used_.size(), 0);
    size_ = 0;
  }

  iterator end() { return nullptr; }
  const_iterator end() const { return nullptr; }
  iterator find(const Key& k) {
    size_t i;
    return locate(k, i) ? &slots_[i] : nullptr;
  }
  const_iterator find(const Key& k) const {
    size_t i;
    return locate(k, i) ? &slots_[i] : nullptr;
  }
  size_t count(const Key& k) const { return find(k) ? 1 : 0; }
  Value& at(const Key& k) { return const_cast<Value&>(std::as_const(*this).at(k)); }
  const Value& at(const Key& k) const {
    const Slot* s = find(k);
    if (!s) throw std::out_of_range("FlatMap::at: no such key");
    return s->second;
  }
  // The value of k, a value-initialised one inserted if k is new.
  Value& operator[](const Key& k) {
    size_t i;
    if (locate(k, i)) return slots_[i].second;
    if (2 * (size_ + 1) > slots_.size()) {
      resize(2 * slots_.size());
      locate(k, i);
    }
    used_[i] = 1;
    slots_[i].first = k;
    slots_[i].second = Value{};
    ++size_;
    return slots_[i].second;
  }
  size_t erase(const Key& k) {
    size_t i;
    if (!locate(k, i)) return 0;
    remove(i);
    return 1;
  }
  void erase(iterator it) { remove(static_cast<size_t>(it - slots_.data())); }

 private:
  static uint64_t bits_of(const Key& k) {
    if constexpr (std::is_pointer_v<Key>)
      return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(k));
    else
      return static_cast<uint64_t>(k);
  }
  // Fibonacci hashing: the multiply moves every key bit (line addresses and
  // pointers have their low bits zero) into the top bits, which pick the slot.
  size_t home(const Key& k) const { return static_cast<size_t>((bits_of(k) * 0x9E3779B97F4A7C15ull) >> shift_); }
  // true: k is at slot i. false: i is the free slot where k would go.
  bool locate(const Key& k, size_t& i) const {
    for (i = home(k);; i = (i + 1) & mask_) {
      if (!used_[i]) return false;
      if (slots_[i].first == k) return true;
    }
  }
  // Empties slot i, moving later entries of its run back into the hole when
  // that keeps them reachable from their home slot, so that no run has gaps.
  void remove(size_t i) {
    for (size_t j = (i + 1) & mask_; used_[j]; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].first);
      // j's entry may move to i unless its home lies cyclically in (i, j].
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = std::move(slots_[j]);
        i = j;
      }
    }
    used_[i] = 0;
    --size_;
  }
  void resize(size_t n) {  // n: a power of two
    std::vector<Slot> old_slots(n);
    std::vector<uint8_t> old_used(n, 0);
    old_slots.swap(slots_);
    old_used.swap(used_);
    mask_ = n - 1;
    shift_ = 64;
    for (size_t m = n; m > 1; m >>= 1) --shift_;
    size_ = 0;
    for (size_t k = 0; k < old_slots.size(); ++k)
      if (old_used[k]) (*this)[old_slots[k].first] = std::move(old_slots[k].second);
  }

  std::vector<Slot> slots_;
  std::vector<uint8_t> used_;
  size_t size_ = 0, mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace tessera
