// The single Catch2 main of the test suite.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int, char**) { return 0; }  // never called: tests build their own models

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
