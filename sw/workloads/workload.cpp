#include "sw/workloads/workload.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::workloads {
namespace {

// Filled during static initialisation, read-only afterwards.
std::vector<Workload>& table() {
  static std::vector<Workload> all;
  return all;
}

}  // namespace

const char* element_type_name(ElementType t) {
  switch (t) {
    case ElementType::u8: return "u8";
    case ElementType::i32: return "i32";
    case ElementType::u32: return "u32";
    case ElementType::f16: return "f16";
    case ElementType::f32: return "f32";
  }
  return "?";
}

size_t element_size(ElementType t) {
  switch (t) {
    case ElementType::u8: return 1;
    case ElementType::f16: return 2;
    case ElementType::i32:
    case ElementType::u32:
    case ElementType::f32: return 4;
  }
  return 1;
}

void register_workload(Workload w) {
  if (w.name.empty() || !w.run || w.test_sizes.empty() || w.default_size == 0) {
    std::fprintf(stderr, "tessera: workload '%s' needs a name, a run function, sizes\n", w.name.c_str());
    std::abort();
  }
  auto& all = table();
  auto pos = std::lower_bound(all.begin(), all.end(), w.name,
                              [](const Workload& a, const std::string& n) { return a.name < n; });
  if (pos != all.end() && pos->name == w.name) {
    std::fprintf(stderr, "tessera: workload '%s' registered twice\n", w.name.c_str());
    std::abort();
  }
  all.insert(pos, std::move(w));
}

const std::vector<Workload>& workloads() { return table(); }

const Workload* find_workload(const std::string& name) {
  for (const auto& w : table())
    if (w.name == name) return &w;
  return nullptr;
}

Session::~Session() {
  // Freeing must not throw out of a destructor; a device that fails to free
  // has already reported the real problem through an earlier exception.
  for (DevicePtr p : owned_) {
    try {
      device_.free(p);
    } catch (const std::exception&) {
    }
  }
}

void Session::launch(const std::string& program, const std::string& kernel, Dim3 global, Dim3 local,
                     const KernelArgs& args) {
  LaunchStats s = device_.launch(program, kernel, global, local, args);
  result_.launches += 1;
  result_.stats.wave_instructions += s.wave_instructions;
  result_.stats.waves += s.waves;
  result_.stats.workgroups += s.workgroups;
  result_.stats.cycles += s.cycles;
  result_.stats.kernel_cycles += s.kernel_cycles;
}

}  // namespace tessera::workloads
