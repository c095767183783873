// The one translation unit that holds Catch2's main() for every test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
