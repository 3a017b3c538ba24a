#include "models/mem/backing_store.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "platform/errors.h"

using tessera::BackingStore;

TEST_CASE("backing store: untouched memory reads as zeros without allocating pages", "[mem][backing_store]") {
  BackingStore store(4096);
  std::vector<uint8_t> buf(10000, 0xAB);
  store.read(0x123456789, buf.data(), buf.size());
  for (uint8_t b : buf) REQUIRE(b == 0);
  REQUIRE(store.pages_allocated() == 0);
  store.fill(0x5000, 0, 8192);  // zero fill of untouched pages is free too
  REQUIRE(store.pages_allocated() == 0);
}

TEST_CASE("backing store: writes across page boundaries read back exactly", "[mem][backing_store]") {
  BackingStore store(4096);
  std::vector<uint8_t> data(3 * 4096 + 100);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  const uint64_t addr = 0x10000 - 50;  // starts 50 bytes before a page boundary
  store.write(addr, data.data(), data.size());
  REQUIRE(store.pages_allocated() == 5);  // 50 bytes in the first page, 3 full pages, 50 in the last

  std::vector<uint8_t> back(data.size());
  store.read(addr, back.data(), back.size());
  REQUIRE(back == data);

  // Unaligned window inside: bytes around it are untouched.
  uint8_t window[16];
  store.read(addr + 4090, window, sizeof window);
  REQUIRE(std::memcmp(window, data.data() + 4090, sizeof window) == 0);
  uint8_t before[4];
  store.read(addr - 4, before, 4);
  for (uint8_t b : before) REQUIRE(b == 0);
}

TEST_CASE("backing store: a DMI page pointer and read/write see the same bytes", "[mem][backing_store]") {
  BackingStore store;  // default 64 KiB pages
  REQUIRE(store.page_size() == 65536);
  BackingStore::PageSpan page = store.page(0x2'0000'1234);
  REQUIRE(page.start == 0x2'0000'0000);
  REQUIRE(page.end == 0x2'0000'FFFF);
  page.data[0x1234] = 0x5A;
  page.data[0xFFFF] = 0xC3;
  uint8_t b = 0;
  store.read(0x2'0000'1234, &b, 1);
  REQUIRE(b == 0x5A);
  store.read(0x2'0000'FFFF, &b, 1);
  REQUIRE(b == 0xC3);

  const uint8_t w[2] = {1, 2};
  store.write(0x2'0000'0010, w, 2);
  REQUIRE(page.data[0x10] == 1);
  REQUIRE(page.data[0x11] == 2);
  // Later allocations do not move the page.
  for (uint64_t p = 0; p < 64; ++p) store.fill(p * 65536, 0xEE, 1);
  REQUIRE(store.page(0x2'0000'0000).data == page.data);
}

TEST_CASE("backing store: clear drops every page", "[mem][backing_store]") {
  BackingStore store(1024);
  const uint8_t v = 9;
  store.write(5000, &v, 1);
  REQUIRE(store.pages_allocated() == 1);
  store.clear();
  uint8_t b = 1;
  store.read(5000, &b, 1);
  REQUIRE(b == 0);
  REQUIRE(store.pages_allocated() == 0);
}

TEST_CASE("backing store: a bad page size or a wrapping access is a clear error", "[mem][backing_store]") {
  REQUIRE_THROWS_WITH(BackingStore(3000), Catch::Contains("power of two"));
  REQUIRE_THROWS_AS(BackingStore(32), tessera::UserError);
  BackingStore store(4096);
  uint8_t buf[16] = {};
  REQUIRE_THROWS_WITH(store.write(~uint64_t{0} - 4, buf, 16), Catch::Contains("wraps"));
}
