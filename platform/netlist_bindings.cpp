// Binding strings: "a.sock -> b.sock", zipped ranges
// ("cu[0..3].mem -> xbar.in[0..3]") and patterns over the variable i
// ("cu[i].mem -> l1[i/4].in[i%4]"), resolved to concrete socket pairs and
// checked against the block types' socket specs.
#include <algorithm>

#include "platform/errors.h"
#include "platform/limits.h"
#include "platform/netlist_builder.h"
#include "platform/netlist_json.h"
#include "platform/netlist_names.h"
#include "platform/stats.h"

namespace tessera {
namespace {

const char* dir_name(SocketDir d) { return d == SocketDir::Initiator ? "initiator" : "target"; }

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// One side of a binding: instance segments, then the socket segment.
struct Endpoint {
  std::vector<NameSegment> instance;
  NameSegment socket;

  bool uses_variable() const {
    return socket.uses_variable() ||
           std::any_of(instance.begin(), instance.end(), [](const NameSegment& s) { return s.uses_variable(); });
  }
  bool has_range() const {
    auto ranged = [](const NameSegment& s) { return s.index == NameSegment::Index::Range; };
    return ranged(socket) || std::any_of(instance.begin(), instance.end(), ranged);
  }
};

Endpoint parse_endpoint(const std::string& text) {
  auto segs = parse_segments(text, SegmentSyntax{true, false, true});
  if (segs.size() < 2)
    throw UserError("\"" + text + "\" names no socket; expected INSTANCE.SOCKET such as xbar.in[0]");
  Endpoint e;
  e.socket = segs.back();
  segs.pop_back();
  e.instance = std::move(segs);
  return e;
}

// Concrete names of one segment for a given i (or none when not a pattern).
std::vector<std::string> concrete(const NameSegment& seg, int64_t i) {
  if (seg.index == NameSegment::Index::Expr) return {indexed_name(seg.base, eval_index_expr(seg.expr, i))};
  return expand_segment(seg);
}

// Every socket an endpoint stands for, in row-major order of its ranges.
std::vector<SocketRef> expand_endpoint(const Endpoint& e, const std::string& prefix, int64_t i) {
  std::vector<std::string> instances = {prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1)};
  for (const auto& seg : e.instance) {
    // Ranges on several segments multiply; no netlist has more names than its
    // instance limit, so a product above it names sockets that cannot exist.
    if (instances.size() * static_cast<uint64_t>(seg.count()) > limits().instances)
      throw UserError("its ranges stand for more than " + std::to_string(limits().instances) + " instances " +
                      limit_hint("instances", limits().instances));
    std::vector<std::string> next;
    for (const auto& head : instances)
      for (const auto& name : concrete(seg, i)) next.push_back(head.empty() ? name : head + "." + name);
    instances = std::move(next);
  }
  std::vector<SocketRef> out;
  for (const auto& inst : instances) {
    for (const auto& sock : concrete(e.socket, i)) {
      auto [base, index] = split_index(sock);
      out.push_back(SocketRef{inst, base, static_cast<int>(index)});
    }
  }
  return out;
}

}  // namespace

void NetlistBuilder::resolve_bindings() {
  for (const ScopedList& list : binding_lists_) {
    for (size_t n = 0; n < list.list->size(); ++n) {
      const json& item = (*list.list)[n];
      const std::string path = json_path(list.json_path, n);
      if (!item.is_string())
        throw NetlistError(path, "expected a binding string such as \"tg.mem -> xbar.in[0]\", got " +
                                     describe_json(item));
      resolve_binding(item.get<std::string>(), path, list.prefix);
    }
  }
}

void NetlistBuilder::resolve_binding(const std::string& text, const std::string& path, const std::string& prefix) {
  const size_t arrow = text.find("->");
  if (arrow == std::string::npos || text.find("->", arrow + 2) != std::string::npos)
    throw NetlistError(path, "bad binding \"" + text + "\": expected one \"->\", as in \"INITIATOR -> TARGET\"");
  Endpoint left, right;
  try {
    left = parse_endpoint(trim(text.substr(0, arrow)));
    right = parse_endpoint(trim(text.substr(arrow + 2)));
  } catch (const UserError& e) {
    throw NetlistError(path, "bad binding \"" + text + "\": " + e.what());
  }
  if (!left.uses_variable()) {
    if (right.uses_variable())
      throw NetlistError(path, "bad binding \"" + text + "\": the right side uses i but the left side does not; "
                                   "write i on the left, e.g. \"cu[i].mem -> xbar.in[i]\"");
    std::vector<SocketRef> ls, rs;
    try {
      ls = expand_endpoint(left, prefix, 0);
      rs = expand_endpoint(right, prefix, 0);
    } catch (const UserError& e) {
      throw NetlistError(path, "bad binding \"" + text + "\": " + e.what());
    }
    if (ls.size() != rs.size())
      throw NetlistError(path, "bad binding \"" + text + "\": the left side stands for " + std::to_string(ls.size()) +
                                   " sockets, the right side for " + std::to_string(rs.size()) +
                                   "; zipped ranges must have the same length");
    for (size_t k = 0; k < ls.size(); ++k) bind_pair(ls[k], rs[k], path);
    return;
  }
  // Pattern binding: i takes the indices of the left side's [i] instance that exist.
  size_t var_seg = left.instance.size();
  for (size_t k = 0; k < left.instance.size(); ++k)
    if (left.instance[k].uses_variable()) var_seg = k;
  if (var_seg == left.instance.size() || trim(left.instance[var_seg].expr) != "i" || left.has_range() ||
      right.has_range() ||
      std::count_if(left.instance.begin(), left.instance.end(), [](const NameSegment& s) { return s.uses_variable(); }) > 1)
    throw NetlistError(path, "bad binding \"" + text + "\": in a pattern binding the left side indexes one instance "
                                 "with plain [i] (e.g. \"cu[i].mem -> l1[i/4].in[i%4]\") and neither side has a range");
  std::string scope = prefix;
  for (size_t k = 0; k < var_seg; ++k) scope += expand_segment(left.instance[k]).front() + ".";
  const auto indices = existing_indices(scope, left.instance[var_seg].base);
  if (indices.empty())
    throw NetlistError(path, "bad binding \"" + text + "\": no instance " + scope + left.instance[var_seg].base +
                                 "[N] exists for i to range over");
  for (int64_t i : indices) {
    std::vector<SocketRef> ls, rs;
    try {
      ls = expand_endpoint(left, prefix, i);
      rs = expand_endpoint(right, prefix, i);
    } catch (const UserError& e) {
      throw NetlistError(path, "bad binding \"" + text + "\": " + e.what());
    }
    bind_pair(ls.front(), rs.front(), path);
  }
}

std::vector<int64_t> NetlistBuilder::existing_indices(const std::string& scope, const std::string& base) const {
  std::vector<int64_t> out;
  const std::string head = scope + base + "[";
  if (sorted_names_.size() != names_.size()) {
    sorted_names_.clear();
    for (const auto& entry : names_) sorted_names_.push_back(&entry.first);
    std::sort(sorted_names_.begin(), sorted_names_.end(),
              [](const std::string* a, const std::string* b) { return *a < *b; });
  }
  // In order, the names under `head` are one contiguous run.
  auto it = std::lower_bound(sorted_names_.begin(), sorted_names_.end(), head,
                             [](const std::string* name, const std::string& h) { return *name < h; });
  for (; it != sorted_names_.end(); ++it) {
    const std::string& name = **it;
    if (name.compare(0, head.size(), head) != 0) break;
    const std::string rest = name.substr(scope.size());
    auto [b, index] = split_index(split_path(rest).front());
    if (b == base && index >= 0 && (out.empty() || out.back() != index)) out.push_back(index);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

NetlistBuilder::ResolvedSocket NetlistBuilder::resolve_socket(const SocketRef& ref, const std::string& path) const {
  auto it = names_.find(ref.instance);
  if (it == names_.end() || it->second.instance == kNoInstance) {
    const bool is_scope = it != names_.end();
    throw NetlistError(path, "no instance named \"" + ref.instance + "\"" +
                                 (is_scope ? " (it is a template instance; name a block inside it)" : ""));
  }
  const size_t number = it->second.instance;
  const InstanceSpec& inst = out_.instances[number];
  const SocketSpec* spec = inst.type->socket(ref.socket);
  if (!spec) {
    std::string names;
    for (const auto& s : inst.type->sockets) names += (names.empty() ? "" : ", ") + s.name + (s.vector ? "[]" : "");
    throw NetlistError(path, "instance " + ref.instance + " (type " + inst.type->name + ") has no socket \"" +
                                 ref.socket + "\"; " + (names.empty() ? "it has none" : "its sockets: " + names));
  }
  if (spec->vector && ref.index < 0)
    throw NetlistError(path, "socket " + ref.text() + " is a vector socket: name an index, such as " +
                                 indexed_name(ref.text(), 0));
  if (!spec->vector && ref.index >= 0)
    throw NetlistError(path, "socket " + ref.instance + "." + ref.socket + " is not a vector socket: drop the index [" +
                                 std::to_string(ref.index) + "]");
  return ResolvedSocket{number, static_cast<size_t>(spec - inst.type->sockets.data()), spec};
}

void NetlistBuilder::bind_pair(const SocketRef& left, const SocketRef& right, const std::string& path) {
  const ResolvedSocket l = resolve_socket(left, path);
  const ResolvedSocket r = resolve_socket(right, path);
  // (The message is built only for an error: this runs once per binding.)
  auto what = [&] {
    return "cannot bind " + std::string(dir_name(l.spec->dir)) + " socket " + left.text() + " to " +
           dir_name(r.spec->dir) + " socket " + right.text();
  };
  if (l.spec->dir == SocketDir::Target && r.spec->dir == SocketDir::Initiator)
    throw NetlistError(path, what() + ": the initiator goes on the left of \"->\" (write \"" + right.text() +
                                 " -> " + left.text() + "\")");
  if (l.spec->dir == r.spec->dir)
    throw NetlistError(path, what() + ": an initiator socket binds to a target socket");
  if (l.spec->protocol != r.spec->protocol)
    throw NetlistError(path, what() + ": protocols differ (" + l.spec->protocol + " vs " + r.spec->protocol + ")");
  if (bound_.empty()) bound_.resize(out_.instances.size());
  const size_t number = out_.bindings.size();
  for (const auto& [ref, end] : {std::pair{&left, &l}, std::pair{&right, &r}}) {
    auto& sockets = bound_[end->instance];
    if (sockets.empty()) sockets.resize(out_.instances[end->instance].type->sockets.size());
    auto [it, fresh] = sockets[end->socket].emplace(ref->index, number);
    if (!fresh)
      throw NetlistError(path, "socket " + ref->text() + " is bound twice (also at " +
                                   out_.bindings[it->second].origin + ")");
  }
  out_.bindings.push_back(BindingSpec{left, right, path});
  binding_ends_.emplace_back(l.instance, r.instance);
}

const NetlistBuilder::SocketBindings& NetlistBuilder::bindings_at(size_t instance, size_t socket) const {
  static const SocketBindings none;
  if (instance >= bound_.size() || bound_[instance].empty()) return none;
  return bound_[instance][socket];
}

const NetlistBuilder::SocketBindings& NetlistBuilder::bindings_from(size_t instance, const std::string& socket) const {
  const BlockType& type = *out_.instances[instance].type;
  const SocketSpec* spec = type.socket(socket);
  static const SocketBindings none;
  return spec ? bindings_at(instance, static_cast<size_t>(spec - type.sockets.data())) : none;
}

void NetlistBuilder::check_socket_counts() {
  for (size_t n = 0; n < out_.instances.size(); ++n) {
    InstanceSpec& inst = out_.instances[n];
    for (size_t k = 0; k < inst.type->sockets.size(); ++k) {
      const SocketSpec& s = inst.type->sockets[k];
      const SocketBindings& indices = bindings_at(n, k);
      auto name = [&] { return inst.path + "." + s.name; };  // (built only for an error)
      if (!s.vector) {
        if (!indices.empty()) inst.socket_counts[s.name] = 1;  // lets a block create an optional socket
        if (s.required && indices.empty())
          throw NetlistError(inst.error_path(), std::string("socket ") + name() + " (" + dir_name(s.dir) + ", " +
                                                    s.protocol + ") is not bound; bind it in \"bindings\"");
        continue;
      }
      if (s.required && indices.empty())
        throw NetlistError(inst.error_path(), std::string("vector socket ") + name() + "[] (" + dir_name(s.dir) +
                                                  ", " + s.protocol + ") is not bound; bind at least " + name() +
                                                  "[0]");
      int expect = 0;
      for (const auto& [i, binding] : indices) {
        if (i != expect) {
          std::string list;
          for (const auto& bound : indices) list += (list.empty() ? "" : ", ") + std::to_string(bound.first);
          throw NetlistError(inst.error_path(), "vector socket " + name() + "[] has indices " + list +
                                                    " bound but not " + std::to_string(expect) +
                                                    "; the bound indices must be exactly 0..n-1");
        }
        ++expect;
      }
      inst.socket_counts[s.name] = static_cast<int>(indices.size());
    }
  }
}

}  // namespace tessera
