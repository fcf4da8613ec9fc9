#include <catch2/catch.hpp>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/kernels.hpp"

using namespace kernel_lens;
using Catch::Matchers::Contains;

namespace {
/// Exercise 4's keys [0, 0, 1] and query 0.
RowMatrix tie_keys() {
  RowMatrix keys(3, 1);
  keys << 0.0, 0.0, 1.0;
  return keys;
}
RowMatrix tie_query() { return RowMatrix::Zero(1, 1); }
}  // namespace

TEST_CASE("exercise 4: shrinking h splits the exact tie (0.5, 0.5, 0)", "[ties]") {
  for (const double h : {0.0625, 1e-6, 1e-150}) {
    INFO("h = " << h);
    const RowMatrix weights = attention(tie_query(), tie_keys(), tie_keys(), h).weights;
    REQUIRE(weights(0, 0) == Approx(0.5).epsilon(1e-15));
    REQUIRE(weights(0, 1) == Approx(0.5).epsilon(1e-15));
    REQUIRE(weights(0, 2) == Approx(0.0).margin(1e-55));
  }
}

TEST_CASE("a positive bandwidth whose square underflows is refused, not turned into NaN", "[ties][validation]") {
  for (const Kernel kernel : {Kernel::Gaussian, Kernel::Epanechnikov}) {
    REQUIRE_THROWS_WITH(attention(tie_query(), tie_keys(), tie_keys(), 1e-200, kernel), Contains("too small"));
    REQUIRE_THROWS_WITH(log_scores(tie_query(), tie_keys(), 1e-200, kernel), Contains("underflows"));
  }
}
