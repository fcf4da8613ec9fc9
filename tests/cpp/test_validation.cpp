#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core_fixture.hpp"
#include "kernel_lens/attention.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/ols.hpp"

using namespace kernel_lens;
using Catch::Matchers::Contains;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

RowMatrix column(std::initializer_list<double> entries) {
  RowMatrix m(static_cast<Eigen::Index>(entries.size()), 1);
  Eigen::Index i = 0;
  for (double x : entries) m(i++, 0) = x;
  return m;
}
}  // namespace

TEST_CASE("the bandwidth must be positive and finite", "[validation]") {
  const RowMatrix keys = column({1.0, 3.0, 5.0});
  const RowMatrix query = column({3.5});
  for (const double bad : {0.0, -0.6, kInfinity, -kInfinity, kNaN}) {
    INFO("h = " << bad);
    REQUIRE_THROWS_AS_WITH(attention(query, keys, keys, bad), std::invalid_argument,
                           Contains("bandwidth must be positive and finite"));
    REQUIRE_THROWS_AS(log_scores(query, keys, bad), std::invalid_argument);
    REQUIRE_THROWS_AS(temperature_from_bandwidth(bad), std::invalid_argument);
    REQUIRE_THROWS_AS_WITH(bandwidth_from_temperature(bad), std::invalid_argument, Contains("temperature"));
    REQUIRE_THROWS_AS_WITH(softmax_with_temperature(query, bad), std::invalid_argument, Contains("temperature"));
    REQUIRE_THROWS_AS(underflow_report(Vector::Zero(1), keys, bad), std::invalid_argument);
  }
  REQUIRE_THROWS_WITH(attention(query, keys, keys, -0.5), Contains("got -0.5"));
}

TEST_CASE("Q/K dimensions and K/V row counts must agree", "[validation]") {
  const RowMatrix keys = RowMatrix::Zero(3, 2);
  REQUIRE_THROWS_AS_WITH(attention(RowMatrix::Zero(1, 3), keys, RowMatrix::Zero(3, 1), 1.0),
                         std::invalid_argument, Contains("queries have dimension d = 3 but keys have d = 2"));
  REQUIRE_THROWS_AS_WITH(attention(RowMatrix::Zero(1, 2), keys, RowMatrix::Zero(4, 1), 1.0),
                         std::invalid_argument, Contains("values have 4 rows but keys have 3"));
  REQUIRE_THROWS_AS(squared_distances(RowMatrix::Zero(1, 1), keys), std::invalid_argument);
  REQUIRE_THROWS_AS(dot_product_scores(RowMatrix::Zero(1, 1), keys), std::invalid_argument);
  REQUIRE_THROWS_AS_WITH(nearest_key_limit(Vector::Zero(3), keys), std::invalid_argument,
                         Contains("query has 3 entries but keys have d = 2"));
  REQUIRE_THROWS_AS(ols_weights(keys, Vector::Zero(3)), std::invalid_argument);
  REQUIRE_THROWS_AS_WITH(ols_predict(column({0, 1, 2}), Vector::Zero(2), column({1})), std::invalid_argument,
                         Contains("targets have 2 entries but keys have 3 rows"));
}

TEST_CASE("the key set and the query set must not be empty", "[validation]") {
  REQUIRE_THROWS_AS_WITH(attention(column({1.0}), RowMatrix(0, 1), RowMatrix(0, 1), 1.0), std::invalid_argument,
                         Contains("keys must have at least one row"));
  REQUIRE_THROWS_AS_WITH(attention(RowMatrix(0, 1), column({1.0}), column({1.0}), 1.0), std::invalid_argument,
                         Contains("queries must have at least one row"));
  REQUIRE_THROWS_AS(nearest_key_limit(Vector::Zero(1), RowMatrix(0, 1)), std::invalid_argument);
  REQUIRE_THROWS_AS_WITH(uniform_limit(0), std::invalid_argument, Contains("n must be at least 1"));
  REQUIRE_THROWS_AS(row_softmax(RowMatrix(0, 3)), std::invalid_argument);
}

TEST_CASE("every entry must be finite", "[validation]") {
  const RowMatrix keys = column({1.0, 3.0, 5.0});
  RowMatrix bad_keys = keys;
  bad_keys(2, 0) = kNaN;
  REQUIRE_THROWS_AS_WITH(attention(column({0.0}), bad_keys, keys, 1.0), std::invalid_argument,
                         Contains("keys[2, 0] must be finite"));
  REQUIRE_THROWS_AS_WITH(attention(column({kInfinity}), keys, keys, 1.0), std::invalid_argument,
                         Contains("queries[0, 0] must be finite"));
  RowMatrix bad_values = keys;
  bad_values(1, 0) = -kInfinity;
  REQUIRE_THROWS_AS_WITH(attention(column({0.0}), keys, bad_values, 1.0), std::invalid_argument,
                         Contains("values[1, 0] must be finite"));
  REQUIRE_THROWS_AS_WITH(ols_predict(keys, Vector::Constant(3, kNaN), column({0.0})), std::invalid_argument,
                         Contains("targets[0] must be finite"));
  REQUIRE_THROWS_AS_WITH(row_softmax(column({kNaN})), std::invalid_argument,
                         Contains("scores[0, 0] must be finite or -inf"));
  REQUIRE_THROWS_AS_WITH(row_softmax(column({kInfinity})), std::invalid_argument, Contains("got inf"));
  REQUIRE_THROWS_AS(max_row_sum_error(column({kNaN})), std::invalid_argument);
  REQUIRE_THROWS_AS_WITH(underflow_report(Vector::Constant(1, kNaN), keys, 1.0), std::invalid_argument,
                         Contains("query[0] must be finite"));
}

TEST_CASE("size caps are checked before allocating", "[validation]") {
  const RowMatrix wide = RowMatrix::Zero(1, Limits::max_dimension + 1);
  REQUIRE_THROWS_AS_WITH(attention(wide, wide, column({0.0}), 1.0), std::length_error,
                         Contains("queries has 65 columns; the limit is 64"));
  REQUIRE_THROWS_AS_WITH(check_cells(Limits::max_rows, Limits::max_rows, "the weight matrix"), std::length_error,
                         Contains("the limit is 16777216"));
  REQUIRE_THROWS_AS(check_cells(std::size_t{1} << 40, std::size_t{1} << 40, "x"), std::length_error);
  REQUIRE_NOTHROW(check_cells(4096, 4096, "x"));
  REQUIRE_THROWS_AS_WITH(check_size(10, 5, "draws"), std::length_error, Contains("draws has 10 entries"));
  REQUIRE_THROWS_AS(uniform_limit(static_cast<Eigen::Index>(Limits::max_rows) + 1), std::length_error);
}

TEST_CASE("unknown kernel and empty-row policy names are rejected", "[validation]") {
  REQUIRE_THROWS_AS_WITH(parse_kernel("cosine"), std::invalid_argument,
                         Contains("kernel must be one of") && Contains("\"cosine\""));
  REQUIRE_THROWS_AS_WITH(parse_empty_row_policy("skip"), std::invalid_argument,
                         Contains("empty_rows must be \"error\" or \"nearest\""));
  CHECK(parse_empty_row_policy("nearest") == EmptyRowPolicy::Nearest);
}

TEST_CASE("attention and OLS check their work against the budget before computing", "[validation][budget]") {
  // 4,096 queries x 4,096 keys fit the cell cap, but with 64 features and 64 value columns the
  // work is 4,096^2 x 129 = 2.2e9, twice the budget.
  const RowMatrix wide = RowMatrix::Zero(4096, 64);
  REQUIRE_THROWS_AS(attention(wide, wide, wide, 1.0), std::length_error);
  REQUIRE_THROWS_WITH(attention(wide, wide, wide, 1.0),
                      Catch::Contains("attention would take 2,164,260,864 kernel evaluations and multiply-adds") &&
                          Catch::Contains("the budget is 1,073,741,824 per call"));
  REQUIRE_THROWS_WITH(ols_weight_matrix(wide, wide), Catch::Contains("the OLS weights would take"));
}
