// Elaboration: one SystemC platform built from a validated Netlist. Blocks are
// created through their registered factories in netlist order, then every
// binding connects an initiator socket to a target socket, in netlist order, so
// two runs of one netlist elaborate identically.
//
// SystemC elaborates once per process: build one Platform per process.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/block.h"
#include "platform/netlist.h"
#include "platform/stats.h"
#include "platform/trace.h"

namespace tessera {

class Platform {
 public:
  // With `trace` enabled, the platform owns a Tracer its blocks record into.
  explicit Platform(const Netlist& netlist, const TraceOptions& trace = TraceOptions());
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  const Netlist& netlist() const { return netlist_; }
  const std::vector<std::unique_ptr<Block>>& blocks() const { return blocks_; }
  Block* find(const std::string& path) const;
  StatRegistry& stats() { return stats_; }
  const StatRegistry& stats() const { return stats_; }
  // Objects the blocks share (the device memory "device", backing stores);
  // the device that owns the platform reaches them here.
  SharedObjects& shared() { return shared_; }
  // The tracer; nullptr when no trace was asked for.
  Tracer* tracer() { return tracer_.get(); }

 private:
  void create_blocks();
  void bind_sockets();

  Netlist netlist_;
  StatRegistry stats_;
  SharedObjects shared_;
  std::unique_ptr<Tracer> tracer_;
  std::vector<std::unique_ptr<Block>> blocks_;  // destroyed before stats_ and shared_
  std::map<std::string, Block*> by_path_;
};

}  // namespace tessera
