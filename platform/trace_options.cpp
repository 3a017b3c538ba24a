#include "platform/trace_options.h"

#include <filesystem>

#include <unistd.h>

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {
namespace {

const char* const kNeedsTrace[] = {"--trace-filter", "--trace-limit", "--trace-interval"};

uint64_t parse_limit(const std::string& text) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-')
    throw UsageError("--trace-limit expects a number of events (0: no limit), got \"" + text + "\"");
  return v;
}

double parse_interval(const std::string& text) {
  double seconds = 0;
  try {
    seconds = parse_quantity(text, Quantity::Time);
  } catch (const UserError& e) {
    throw UsageError(std::string("bad --trace-interval: ") + e.what());
  }
  if (!(seconds > 0)) throw UsageError("bad --trace-interval: it must be positive");
  return seconds;
}

// The file must be new (or --force), and its directory must exist and take a
// new file (the trace is written beside it first, then renamed).
void check_file(const TraceOptions& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file(o.file);
  if (fs::is_directory(file, ec)) throw UsageError("trace file " + o.file + " is a directory");
  if (!o.force && fs::exists(file, ec))
    throw UsageError("trace file " + o.file + " already exists; pass --force to replace it");
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (!fs::is_directory(dir, ec)) throw UsageError("cannot write trace file " + o.file + ": no directory " + dir.string());
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError("cannot write trace file " + o.file + ": directory " + dir.string() + " is not writable");
}

}  // namespace

const char* const kTraceUsage =
    "  --trace FILE       write a trace of the run (Chrome trace-event JSON: open it in\n"
    "                     ui.perfetto.dev); refuses to replace FILE without --force\n"
    "  --trace-filter F   keep only what F selects: BLOCKS, :KINDS or BLOCKS:KINDS, e.g.\n"
    "                     'cu[0]', ':launch,cp' or 'chiplet[1]:wave,stall'; repeatable.\n"
    "                     Kinds: launch, cp, dispatch, workgroup, wave, stall, memory,\n"
    "                     counter, all\n"
    "  --trace-limit N    keep at most N events (default 1000000; 0: no limit)\n"
    "  --trace-interval T counter tracks' interval (default \"1 us\")\n";

std::vector<cli::OptionSpec> with_trace_options(std::vector<cli::OptionSpec> specs) {
  specs.insert(specs.end(), {{"--trace", true, false},
                             {"--trace-filter", true, true},
                             {"--trace-limit", true, false},
                             {"--trace-interval", true, false}});
  return specs;
}

bool has_trace_options(const cli::ParsedArgs& parsed) {
  if (parsed.value("--trace")) return true;
  for (const char* o : kNeedsTrace)
    if (parsed.value(o)) return true;
  return false;
}

TraceOptions trace_options(const cli::ParsedArgs& parsed) {
  TraceOptions o;
  if (auto f = parsed.value("--trace")) o.file = *f;
  if (o.file.empty()) {
    for (const char* opt : kNeedsTrace)
      if (parsed.value(opt)) throw UsageError(std::string(opt) + " needs --trace FILE");
    if (parsed.value("--trace")) throw UsageError("--trace needs a file name");
    return o;
  }
  o.force = parsed.flag("--force");
  o.filters = parsed.values("--trace-filter");
  if (auto l = parsed.value("--trace-limit")) o.event_limit = parse_limit(*l);
  if (auto i = parsed.value("--trace-interval")) o.interval_seconds = parse_interval(*i);
  Tracer check(o);  // a bad filter is refused here
  check_file(o);
  return o;
}

void write_trace(Platform& platform, std::ostream& os) {
  Tracer* t = platform.tracer();
  if (!t) return;
  t->write();
  os << "  trace       " << t->events() << " events written to " << t->options().file;
  if (t->dropped()) os << " (" << t->dropped() << " more left out at the --trace-limit of " << t->options().event_limit << ")";
  os << '\n';
}

}  // namespace tessera
