// ParamValues: an instance's own values over the values its type's instances share.
#include <catch2/catch.hpp>

#include "platform/param_values.h"

using namespace tessera;

namespace {

std::shared_ptr<const ParamValues::Map> inherited() {
  return std::make_shared<const ParamValues::Map>(ParamValues::Map{{"size", 4096}, {"ways", 4}});
}

}  // namespace

TEST_CASE("param values: own values take precedence over inherited ones, which are shared", "[params]") {
  const auto shared = inherited();
  ParamValues a(shared), b(shared);
  a.set("ways", 8);
  a.set("label", "x");
  CHECK(a.at("ways") == 8);
  CHECK(b.at("ways") == 4);  // the other instance keeps the shared value
  CHECK(a.at("size") == 4096);
  CHECK(a.count("label") == 1);
  CHECK(b.count("label") == 0);
  CHECK(b.find("label") == nullptr);
  CHECK_THROWS_AS(b.at("label"), std::out_of_range);
  CHECK(a.merged() == ParamValues::Map{{"label", "x"}, {"size", 4096}, {"ways", 8}});
  CHECK(shared->at("ways") == 4);
}

TEST_CASE("param values: erasing an inherited value removes it from this instance only", "[params]") {
  const auto shared = inherited();
  ParamValues a(shared), b(shared);
  a.set("ways", 8);
  a.erase("size");
  CHECK(a.count("size") == 0);
  CHECK(a.at("ways") == 8);
  CHECK(b.at("size") == 4096);
  CHECK(a.merged() == ParamValues::Map{{"ways", 8}});
  a.erase("ways");
  CHECK(a.merged().empty());
}
