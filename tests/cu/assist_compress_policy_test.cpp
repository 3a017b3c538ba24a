// The compression policy of CABA's assist warps (assist_compress_policy.h):
// the static switch by kernel name, and the dynamic saturating counter that
// stops deploying compression assist warps for a kernel whose lines do not
// compress and turns them back on when a re-sampled line compresses.
#include <catch2/catch.hpp>

#include "models/cu/assist_compress_policy.h"

using namespace tessera;

namespace {

CuConfig config(unsigned counter, unsigned sample, const std::string& off = "") {
  CuConfig c = CuConfig::defaults();
  c.assist_warps = true;
  c.assist_compress_counter = counter;
  c.assist_compress_sample = sample;
  c.assist_compress_off = off;
  return c;
}

uint64_t stat(const StatGroup& g, const std::string& name) { return g.counter_value(name); }

}  // namespace

TEST_CASE("compression policy: the static switch skips the named kernels only", "[assist][policy]") {
  StatGroup g("cu");
  AssistCompressPolicy p(g, config(3, 64, "k_random, k_other"));
  CHECK_FALSE(p.deploy("k_random"));
  CHECK_FALSE(p.deploy("k_other"));
  CHECK(p.deploy("k_narrow"));
  CHECK(p.deploy("k_rand"));  // a name's prefix is another kernel
  CHECK(stat(g, "assist_compress_static_skipped") == 2);
  CHECK(kernel_list(" a,b  c,,") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("compression policy: a kernel's incompressible lines turn it off, a compressible sample back on",
          "[assist][policy]") {
  StatGroup g("cu");
  AssistCompressPolicy p(g, config(3, 4));
  // Starts on, at the counter's maximum.
  CHECK(p.counter("k") == 3);
  CHECK(p.deploy("k"));
  // A compressed line keeps it saturated; three uncompressed ones reach zero.
  p.outcome("k", true);
  CHECK(p.counter("k") == 3);
  p.outcome("k", false);
  p.outcome("k", false);
  CHECK(p.deploy("k"));
  p.outcome("k", false);
  CHECK(p.counter("k") == 0);
  CHECK(stat(g, "assist_compress_turned_off") == 1);
  // Off: three stores skipped, the fourth re-samples.
  CHECK_FALSE(p.deploy("k"));
  CHECK_FALSE(p.deploy("k"));
  CHECK_FALSE(p.deploy("k"));
  CHECK(p.deploy("k"));
  CHECK(stat(g, "assist_compress_policy_skipped") == 3);
  CHECK(stat(g, "assist_compress_sampled") == 1);
  // An uncompressed sample leaves it off.
  p.outcome("k", false);
  CHECK(p.counter("k") == 0);
  for (int i = 0; i < 3; ++i) CHECK_FALSE(p.deploy("k"));
  CHECK(p.deploy("k"));
  // A compressed sample turns it back on: every store deployed again.
  p.outcome("k", true);
  CHECK(p.counter("k") == 1);
  CHECK(stat(g, "assist_compress_turned_on") == 1);
  for (int i = 0; i < 10; ++i) CHECK(p.deploy("k"));
  CHECK(stat(g, "assist_compress_policy_skipped") == 6);
  // Another kernel has its own counter.
  CHECK(p.counter("other") == 3);
  CHECK(p.deploy("other"));
}

TEST_CASE("compression policy: a counter maximum of 0 deploys for every store", "[assist][policy]") {
  StatGroup g("cu");
  AssistCompressPolicy p(g, config(0, 1));
  for (int i = 0; i < 20; ++i) {
    CHECK(p.deploy("k"));
    p.outcome("k", false);
  }
  CHECK(stat(g, "assist_compress_policy_skipped") == 0);
  CHECK(stat(g, "assist_compress_turned_off") == 0);
}
