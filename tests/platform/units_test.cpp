#include <catch2/catch.hpp>

#include "platform/errors.h"
#include "platform/units.h"

using namespace tessera;

TEST_CASE("units: sizes, frequencies, times and bandwidths convert to base units", "[units]") {
  CHECK(parse_quantity("16 KiB", Quantity::Size) == 16384);
  CHECK(parse_quantity("4MiB", Quantity::Size) == 4194304);
  CHECK(parse_quantity("2 KB", Quantity::Size) == 2000);
  CHECK(parse_quantity("0x1000", Quantity::Size) == 4096);
  CHECK(parse_quantity("1.8 GHz", Quantity::Frequency) == Approx(1.8e9));
  CHECK(parse_quantity("40 ns", Quantity::Time) == Approx(40e-9));
  CHECK(parse_quantity("768 GB/s", Quantity::Bandwidth) == Approx(768e9));
}

TEST_CASE("units: missing, unknown and wrong-kind units are rejected with what was expected", "[units]") {
  CHECK_THROWS_WITH(parse_quantity("16", Quantity::Size), Catch::Contains("missing unit"));
  CHECK_THROWS_WITH(parse_quantity("16 KiB", Quantity::Time), Catch::Contains("unknown unit \"KiB\""));
  CHECK_THROWS_WITH(parse_quantity("fast", Quantity::Frequency), Catch::Contains("no number"));
  CHECK_THROWS_WITH(parse_quantity("", Quantity::Bandwidth), Catch::Contains("empty"));
  CHECK_THROWS_WITH(parse_quantity("-3 ns", Quantity::Time), Catch::Contains("negative"));
  CHECK_THROWS_WITH(parse_size("1.5 B"), Catch::Contains("whole number"));
}

TEST_CASE("units: formatting picks a readable unit", "[units]") {
  CHECK(format_quantity(16384, Quantity::Size) == "16 KiB");
  CHECK(format_quantity(1.8e9, Quantity::Frequency) == "1.8 GHz");
  CHECK(format_quantity(40e-9, Quantity::Time) == "40 ns");
  CHECK(format_quantity(768e9, Quantity::Bandwidth) == "768 GB/s");
}
