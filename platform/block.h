// The base of every hardware block: an sc_module that knows its netlist path,
// its clock, its parameters and its statistics, and exposes its TLM sockets by
// name so that the netlist builder (and only it) can bind them.
#pragma once
#include <any>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <vector>

#include <systemc>
#include <tlm>

#include "platform/params.h"
#include "platform/stats.h"

namespace tessera {

class Tracer;
enum class TraceKind : uint32_t;

// Objects shared by several blocks of one platform, e.g. the backing store that
// all memory controllers of a device write into. Keyed by type and name; owned by
// the platform, so nothing leaks from one platform to the next.
class SharedObjects {
 public:
  template <class T, class... Args>
  T& get(const std::string& name, Args&&... args) {
    auto key = std::make_pair(std::type_index(typeid(T)), name);
    auto it = objects_.find(key);
    if (it == objects_.end()) {
      auto obj = std::make_shared<T>(std::forward<Args>(args)...);
      it = objects_.emplace(key, obj).first;
    }
    return *std::any_cast<std::shared_ptr<T>>(it->second);
  }
  // The object `name` if a block made it, else nullptr.
  template <class T>
  T* find(const std::string& name) const {
    auto it = objects_.find(std::make_pair(std::type_index(typeid(T)), name));
    return it == objects_.end() ? nullptr : std::any_cast<std::shared_ptr<T>>(it->second).get();
  }

 private:
  std::map<std::pair<std::type_index, std::string>, std::any> objects_;
};

struct BlockContext {
  std::string path;                    // netlist name, e.g. "chiplet[2].l2"
  std::string type;                    // registered type name
  Params params;                       // validated, in base units
  sc_core::sc_time clock_period;       // of the block's clock domain
  std::map<std::string, int> socket_counts;  // vector sockets: how many were bound; bound scalar sockets: 1
  // How many sockets called `name` were bound (0 for none).
  int socket_count(const std::string& name) const {
    auto it = socket_counts.find(name);
    return it == socket_counts.end() ? 0 : it->second;
  }
  StatRegistry* stats = nullptr;
  SharedObjects* shared = nullptr;
  Tracer* tracer = nullptr;  // null unless a trace was asked for (platform/trace.h)
};

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3 };
void set_log_level(LogLevel level);
LogLevel log_level();
// "[W 1.234 us] chiplet[1].l2: what happened"
// A warning or error whose exact text a block has already logged
// limits().repeated_warnings times is counted, not printed again.
void log_line(LogLevel level, const std::string& who, const std::string& what);
// One line per warning or error text that was repeated past the cap, with its count.
void print_repeated_messages(std::ostream& os);

class Block : public sc_core::sc_module {
 public:
  explicit Block(const BlockContext& ctx);
  ~Block() override = default;

  const std::string& path() const { return path_; }
  const std::string& type_name() const { return type_; }
  sc_core::sc_time clock_period() const { return period_; }
  sc_core::sc_time cycles(uint64_t n) const { return period_ * static_cast<double>(n); }
  StatGroup& stats() { return *stats_; }
  const StatGroup& stats() const { return *stats_; }
  // The tracer if events of `kind` are traced for this block, else nullptr:
  // a hook costs a null-pointer test when tracing is off.
  Tracer* tracer(TraceKind kind) const { return trace_kinds_ & static_cast<uint32_t>(kind) ? tracer_ : nullptr; }
  Tracer* tracer() const { return tracer_; }  // nullptr when nothing of this block is traced
  uint32_t trace_kinds() const { return trace_kinds_; }  // TraceKind bits traced for this block

  // Sockets by netlist name; index is -1 for scalar sockets. nullptr if none.
  virtual tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index);
  virtual tlm::tlm_target_socket<>* target_socket(const std::string& name, int index);

  // After the run: false if the block saw something wrong (a traffic generator
  // that read back bad data); the driver exits non-zero then.
  virtual bool ok() const { return true; }
  // One human line for the end-of-run summary; empty for none.
  virtual std::string summary() const { return ""; }
  // What the block still has in hand, one line each (nothing when idle):
  // for the report when a run stops unfinished, hung or gone idle.
  virtual void describe_pending(std::vector<std::string>& /*lines*/) const {}

 protected:
  void debug(const std::string& m) const {
    if (log_level() <= LogLevel::Debug) log_line(LogLevel::Debug, path_, m);
  }
  void info(const std::string& m) const { log_line(LogLevel::Info, path_, m); }
  void warn(const std::string& m) const { log_line(LogLevel::Warning, path_, m); }
  void error(const std::string& m) const { log_line(LogLevel::Error, path_, m); }
  SharedObjects& shared() { return *shared_; }

 private:
  std::string path_, type_;
  sc_core::sc_time period_;
  StatGroup* stats_;
  SharedObjects* shared_;
  Tracer* tracer_ = nullptr;
  uint32_t trace_kinds_ = 0;  // TraceKind bits kept for this block
};

// SystemC object names may not contain '.', so "chiplet[2].l2" becomes "chiplet[2]/l2".
std::string systemc_name(const std::string& path);

// Keeps a block's sc_module_name on SystemC's module-name stack while the block
// is being constructed, so that sockets and other members the derived class
// constructs after Block belong to it; SystemC ends the module's construction
// when this scope ends. Registry::add wraps every factory in one, so blocks
// built through BlockType::create (the netlist, tests) need nothing else.
class BlockNameScope {
 public:
  explicit BlockNameScope(const std::string& path);
  ~BlockNameScope();
  BlockNameScope(const BlockNameScope&) = delete;
  BlockNameScope& operator=(const BlockNameScope&) = delete;

 private:
  std::string path_;
  std::string systemc_name_;      // sc_module_name keeps only a pointer to its text
  sc_core::sc_module_name name_;
  const BlockNameScope* outer_;
  friend class Block;
};

}  // namespace tessera
