// The block registry: every block type registers itself under a type string
// with its parameter schema and its sockets, and a factory that builds it.
// `tessera types` prints this registry; the netlist validator checks against it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/params.h"

namespace tessera {

class Block;
struct BlockContext;

enum class SocketDir { Initiator, Target };

struct SocketSpec {
  std::string name;
  SocketDir dir = SocketDir::Target;
  std::string protocol = "mem";  // only sockets of the same protocol may be bound together
  bool vector = false;           // indexed (name[0], name[1], ...); count comes from the bindings
  bool required = true;          // an unbound required socket is a netlist error
  std::string doc;
  // For the netlist's check that every request fits where it goes: the size
  // parameter bounding single requests. An initiator's requests each lie within
  // one aligned block of that size; a target accepts nothing larger (a cache:
  // its line). Empty: no bound declared.
  std::string request_limit;
  // On a target of a switch (router, crossbar): the initiator socket its
  // requests leave by, to whichever output the address map chooses.
  std::string forwards_to;
  // On an initiator: it must be bound straight to a memory, a block that
  // answers its requests itself (one with no initiator socket on its
  // protocol: memory, dram_controller), as a memory-side cache must be.
  bool to_memory = false;
};

struct BlockType {
  std::string name;
  std::string doc;
  std::vector<ParamSpec> params;
  std::vector<SocketSpec> sockets;
  std::function<std::unique_ptr<Block>(const BlockContext&)> create;
  // The host memory one instance takes once elaborated, for the estimate a
  // netlist is checked against (limit platform_bytes): host_bytes, plus
  // host_bytes_per_size times its "size" parameter if it has one (a cache's
  // data array). Measured figures are in docs/RELIABILITY.md.
  uint64_t host_bytes = 32 << 10;
  double host_bytes_per_size = 0;

  const ParamSpec* param(const std::string& n) const;
  const SocketSpec* socket(const std::string& n) const;
};

// Types are registered during static initialisation and never change afterwards,
// so the registry carries no state from one simulation to the next.
class Registry {
 public:
  static Registry& instance();
  void add(BlockType type);  // a second type with the same name is a bug (aborts)
  const BlockType* find(const std::string& name) const;
  const std::map<std::string, BlockType>& types() const { return types_; }

 private:
  std::map<std::string, BlockType> types_;
};

struct Registrar {
  explicit Registrar(BlockType type) { Registry::instance().add(std::move(type)); }
};

}  // namespace tessera

// Registers a block type from a function returning its BlockType:
//   TESSERA_REGISTER_BLOCK(memory_type);
#define TESSERA_REGISTER_BLOCK(fn) static const ::tessera::Registrar fn##_registrar{fn()}
