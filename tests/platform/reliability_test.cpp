// Limits, output files and repeated warnings (docs/RELIABILITY.md).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/device_memory.h"
#include "platform/block.h"
#include "platform/errors.h"
#include "platform/limits.h"
#include "platform/output_file.h"
#include "platform/units.h"

using namespace tessera;
using Catch::Contains;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/tests/reliability_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("limits: --limit NAME=VALUE sets a limit and takes sizes for the *_bytes ones", "[limits]") {
  set_limit("instances=7");
  CHECK(limits().instances == 7);
  set_limit("netlist_bytes=2 MiB");
  CHECK(limits().netlist_bytes == 2u << 20);
  CHECK_THROWS_WITH(set_limit("instances=0"), Contains("expects a positive integer"));
  CHECK_THROWS_WITH(set_limit("instances=-3"), Contains("expects a positive integer"));
  CHECK_THROWS_WITH(set_limit("instances=2 MiB"), Contains("expects a positive integer"));
  CHECK_THROWS_WITH(set_limit("nope=3"), Contains("NAME one of instances, cp_cores"));
  CHECK_THROWS_WITH(set_limit("instances"), Contains("expects NAME=VALUE"));
}

TEST_CASE("limits: device memory is checked against device_memory_bytes before it is allocated", "[limits]") {
  const Limits saved = limits();
  const uint64_t physical = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE));
  CHECK(Limits{}.device_memory_bytes == physical / 4);
  CHECK(Limits{}.platform_bytes == physical / 4 * 2);
  set_limit("device_memory_bytes=1 MiB");
  isa::DeviceMemory mem;
  const uint64_t first = mem.alloc(600 << 10);
  CHECK_THROWS_AS(mem.alloc(600 << 10), LimitError);
  CHECK_THROWS_WITH(mem.alloc(600 << 10),
                    Contains("a device allocation of 614400 bytes, with 614400 bytes already allocated") &&
                        Contains("(limit device_memory_bytes = 1048576; raise it with --limit device_memory_bytes=N)"));
  CHECK(mem.bytes_allocated() == 600u << 10);
  CHECK(mem.allocation_count() == 1);
  // Sizes near 2^64 do not wrap around the check.
  CHECK_THROWS_AS(check_device_memory(600 << 10, ~0ull - 1000), LimitError);
  mem.free(first);  // freed memory counts no more
  CHECK(mem.bytes_allocated() == 0);
  mem.alloc(1 << 20);
  limits() = saved;
}

TEST_CASE("units: sizes of 2^64 bytes or more are refused and not wrapped", "[units]") {
  // Sizes pass through a double: the largest one below 2^64 is 2^64 - 2048.
  CHECK(parse_size("0xfffffffffffff800") == 0xfffffffffffff800ull);
  CHECK_THROWS_WITH(parse_size("0xffffffffffffffff"), Contains("sizes must be below 2^64 bytes"));
  CHECK_THROWS_WITH(parse_size("0x10000000000000000"), Contains("more than 64 bits"));
  CHECK_THROWS_WITH(parse_size("16 EiB"), Contains("unknown unit"));
  CHECK_THROWS_WITH(parse_size("99999999 TiB"), Contains("sizes must be below 2^64 bytes"));
  CHECK_THROWS_WITH(parse_size("18446744073709551616 B"), Contains("sizes must be below 2^64 bytes"));
}

TEST_CASE("output files: a failed write leaves the earlier file as it was and no temporary file", "[output]") {
  const std::string dir = fresh_dir("full");
  const std::string file = dir + "/stats.json";
  std::ofstream(file) << "{\"earlier\": true}\n";
  // A file-size limit makes the write fail part-way, as a full disk does.
  std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = {4096, 4096};
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  CHECK_THROWS_WITH(write_file_atomically(file, std::string(100000, 'x'), true, "statistics file"),
                    Contains("cannot write statistics file " + file) && Contains("any earlier file is unchanged"));
  CHECK(read_all(file) == "{\"earlier\": true}\n");
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += e.path().filename() != "stats.json";
  CHECK(entries == 0);
}

TEST_CASE("output files: written whole and never over an existing file without force", "[output]") {
  const std::string dir = fresh_dir("write");
  const std::string file = dir + "/out.json";
  write_file_atomically(file, "first\n", false, "statistics file");
  CHECK(read_all(file) == "first\n");
  CHECK_THROWS_WITH(write_file_atomically(file, "second\n", false, "statistics file"), Contains("already exists"));
  write_file_atomically(file, "second\n", true, "statistics file");
  CHECK(read_all(file) == "second\n");
  CHECK((std::filesystem::status(file).permissions() & std::filesystem::perms::others_read) !=
        std::filesystem::perms::none);
}

TEST_CASE("output files: paths are checked before a run", "[output]") {
  const std::string dir = fresh_dir("check");
  CHECK_NOTHROW(check_output_path(dir + "/new.json", false, "statistics file"));
  CHECK_THROWS_WITH(check_output_path(dir, true, "statistics file"), Contains("is a directory"));
  CHECK_THROWS_WITH(check_output_path(dir + "/no/such/dir/x.json", true, "statistics file"),
                    Contains("cannot create a file in " + dir + "/no/such/dir"));
  CHECK_THROWS_WITH(check_output_path(std::string("a\0b", 3), true, "statistics file"), Contains("NUL byte"));
  std::ofstream(dir + "/old.json") << "x";
  CHECK_THROWS_AS(check_output_path(dir + "/old.json", false, "statistics file"), UsageError);
  CHECK_NOTHROW(check_output_path(dir + "/old.json", true, "statistics file"));
  CHECK(read_all(dir + "/old.json") == "x");  // checking writes nothing
}

TEST_CASE("warnings: identical ones past the cap are counted and summarised", "[log]") {
  limits().repeated_warnings = 3;
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  for (int i = 0; i < 8; ++i) log_line(LogLevel::Warning, "disp", "same thing");
  log_line(LogLevel::Warning, "disp", "another thing");
  std::ostringstream summary;
  print_repeated_messages(summary);
  std::cerr.rdbuf(old);
  const std::string text = captured.str();
  size_t copies = 0;
  for (size_t p = text.find("disp: same thing"); p != std::string::npos; p = text.find("disp: same thing", p + 1))
    ++copies;
  CHECK(copies == 3);
  CHECK_THAT(text, Contains("the message above repeats") && Contains("--limit repeated_warnings=N"));
  CHECK_THAT(text, Contains("disp: another thing"));
  CHECK(summary.str() == "repeated 8 times (5 not printed): disp: same thing\n");
}
