// Ring: a first-in, first-out queue in one array (a power of two long, grown
// by doubling) used as a ring. The models' short per-port and per-bank queues
// are asked for their size, front and back several times per request; here
// each is a few host instructions (std::deque's take several times that,
// through its node map), and nothing allocates once a queue has grown to its
// depth. Also removes from the middle, keeping the order (a DRAM bank's
// scheduler takes row hits out of turn).
#pragma once
#include <cstddef>
#include <vector>

namespace tessera {

template <class T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask_]; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  void push_back(const T& item) {
    if (size_ == slots_.size()) grow();
    (*this)[size_++] = item;
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  void clear() { head_ = size_ = 0; }
  // Removes the i-th item, keeping the others in order; moves the shorter side.
  void erase(size_t i) {
    if (i < size_ / 2) {
      for (size_t k = i; k > 0; --k) (*this)[k] = (*this)[k - 1];
      pop_front();
    } else {
      for (size_t k = i; k + 1 < size_; ++k) (*this)[k] = (*this)[k + 1];
      --size_;
    }
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 8 : 2 * slots_.size());
    for (size_t k = 0; k < size_; ++k) bigger[k] = (*this)[k];
    slots_.swap(bigger);
    head_ = 0;
    mask_ = slots_.size() - 1;
  }
  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace tessera
