// The trace options the subcommands that simulate share (`tessera run`,
// `tessera workload`): --trace FILE, --trace-filter, --trace-limit,
// --trace-interval, with --force. Parsed in one place, so that each command
// adds them with one line.
#pragma once
#include <ostream>
#include <vector>

#include "platform/options.h"
#include "platform/platform.h"
#include "platform/trace.h"

namespace tessera {

// The options' specs, to append to a command's own.
std::vector<cli::OptionSpec> with_trace_options(std::vector<cli::OptionSpec> specs);

// The options as given. Refuses now, before any simulation, what would fail
// at the end: a file that exists (without --force), a directory that does
// not exist or cannot be written, a bad filter, limit or interval; and
// trace options without --trace. Throws UsageError.
TraceOptions trace_options(const cli::ParsedArgs& parsed);

// True if any trace option was given (--trace or one that needs it).
bool has_trace_options(const cli::ParsedArgs& parsed);

// Ends the platform's trace, if it has one: writes the file and says so on
// `os` (events written, and those the limit left out). Throws UserError.
void write_trace(Platform& platform, std::ostream& os);

// Their lines for a command's --help.
extern const char* const kTraceUsage;

}  // namespace tessera
