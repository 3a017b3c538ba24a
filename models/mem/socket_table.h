// Sockets by netlist name, for Block::target_socket / initiator_socket: a
// block registers each socket (or vector of sockets) once under the name its
// member has, and answers the netlist builder's lookups from the table.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera {

template <class Socket>
class SocketTable {
 public:
  // A scalar socket (looked up with index -1).
  template <class S>
  void add(const std::string& name, S& socket) {
    scalars_[name] = &socket;
  }
  // A vector socket (looked up with its index).
  template <class S>
  void add(const std::string& name, std::vector<std::unique_ptr<S>>& sockets) {
    std::vector<Socket*>& v = vectors_[name];
    v.clear();
    for (auto& s : sockets) v.push_back(s.get());
  }
  // nullptr if no socket of that name and index was registered.
  Socket* find(const std::string& name, int index) const {
    if (index < 0) {
      auto it = scalars_.find(name);
      return it == scalars_.end() ? nullptr : it->second;
    }
    auto it = vectors_.find(name);
    if (it == vectors_.end() || index >= static_cast<int>(it->second.size())) return nullptr;
    return it->second[index];
  }

 private:
  std::map<std::string, Socket*> scalars_;
  std::map<std::string, std::vector<Socket*>> vectors_;
};

}  // namespace tessera
