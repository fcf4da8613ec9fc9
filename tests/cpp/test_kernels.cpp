#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core_fixture.hpp"
#include "kernel_lens/attention.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}

TEST_CASE("kernel names round-trip and compact support is flagged", "[kernels]") {
  REQUIRE(kernel_names() == std::vector<std::string>{"gaussian", "laplacian", "epanechnikov", "tricube"});
  for (const auto& name : kernel_names()) CHECK(kernel_name(parse_kernel(name)) == name);
  CHECK_FALSE(has_compact_support(Kernel::Gaussian));
  CHECK_FALSE(has_compact_support(Kernel::Laplacian));
  CHECK(has_compact_support(Kernel::Epanechnikov));
  CHECK(has_compact_support(Kernel::Tricube));
}

TEST_CASE("squared distances agree with NumPy", "[kernels][random]") {
  for (const auto& example : core_fixture()["attention_cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const RowMatrix keys = matrix(example["keys"], d);
    const RowMatrix distances = squared_distances(matrix(example["queries"], d), keys);
    CHECK(max_abs_difference(distances, matrix(example["squared_distances"], keys.rows())) < 1e-13);
    CHECK(distances.minCoeff() >= 0.0);
  }
}

TEST_CASE("log-scores follow each kernel's formula", "[kernels]") {
  const RowMatrix query = RowMatrix::Zero(1, 1);
  const RowMatrix keys = (RowMatrix(4, 1) << 0.0, 0.5, -1.0, 2.0).finished();
  const double h = 1.0;
  const RowMatrix gaussian = log_scores(query, keys, h, Kernel::Gaussian);
  CHECK(gaussian(0, 0) == 0.0);
  CHECK(gaussian(0, 1) == -0.125);
  CHECK(gaussian(0, 3) == -2.0);
  const RowMatrix laplacian = log_scores(query, keys, h, Kernel::Laplacian);
  CHECK(laplacian(0, 1) == -0.5);
  CHECK(laplacian(0, 3) == -2.0);
  const RowMatrix epanechnikov = log_scores(query, keys, h, Kernel::Epanechnikov);
  CHECK(epanechnikov(0, 1) == Approx(std::log(0.75)).epsilon(1e-15));
  CHECK(epanechnikov(0, 2) == -kInfinity);
  CHECK(epanechnikov(0, 3) == -kInfinity);
  const RowMatrix tricube = log_scores(query, keys, h, Kernel::Tricube);
  CHECK(tricube(0, 1) == Approx(3.0 * std::log(1.0 - 0.125)).epsilon(1e-15));
  CHECK(tricube(0, 2) == -kInfinity);
}

TEST_CASE("the log-kernel identity: normalize(K) equals softmax(log K) at the 1e-17 level",
          "[kernels][chapter]") {
  const auto& chapter = core_fixture()["chapter"];
  const auto& identity = chapter["identity"];
  const RowMatrix keys = matrix(chapter["chapter_keys"], 1);
  const Vector query = Vector::Constant(1, identity["query"].get<double>());
  const auto report = underflow_report(query, keys, identity["bandwidth"].get<double>());
  const Vector expected_log_kernel = vector(identity["log_kernel"]);
  CHECK(((report.log_scores - expected_log_kernel).array().abs() <=
         1e-15 * expected_log_kernel.array().abs())
            .all());
  REQUIRE(report.naive_all_finite);
  REQUIRE(report.max_abs_difference.has_value());
  CHECK(*report.max_abs_difference < 1e-16);
  CHECK(identity["max_abs_difference"].get<double>() < 1e-16);
  CHECK((report.stable_weights - vector(identity["weights"])).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("the far query at 1,000 with h = 0.1 underflows naively and survives stably",
          "[kernels][chapter]") {
  const auto& chapter = core_fixture()["chapter"];
  const auto& far = chapter["far"];
  const RowMatrix keys = matrix(chapter["chapter_keys"], 1);
  const Vector query = Vector::Constant(1, far["query"].get<double>());
  const auto report = underflow_report(query, keys, far["bandwidth"].get<double>());
  CHECK(report.naive_denominator == far["naive_denominator"].get<double>());
  CHECK(report.naive_denominator == 0.0);
  CHECK(report.kernel_values.isZero(0.0));
  CHECK_FALSE(report.naive_all_finite);
  CHECK(std::isnan(report.naive_weights(0)));
  CHECK_FALSE(report.max_abs_difference.has_value());
  CHECK(report.stable_weights.allFinite());
  CHECK(report.stable_sum == Approx(1.0).epsilon(1e-15));
  CHECK(report.nearest_index == far["nearest_index"].get<Eigen::Index>());
  CHECK(fixed4(keys(report.nearest_index, 0)) == "2.9886");
  CHECK((report.stable_weights - vector(far["stable_weights"])).cwiseAbs().maxCoeff() < 1e-15);

  const RowMatrix scores = report.log_scores.transpose();
  CHECK_FALSE(naive_normalize(scores).allFinite());
  CHECK(row_softmax(scores).allFinite());
}

TEST_CASE("the stable softmax handles -inf entries and rejects an all -inf row", "[softmax]") {
  RowMatrix scores(2, 3);
  scores << 0.0, -kInfinity, std::log(3.0), 1000.0, 1000.0, -kInfinity;
  const RowMatrix weights = row_softmax(scores);
  CHECK(weights(0, 0) == Approx(0.25).epsilon(1e-15));
  CHECK(weights(0, 1) == 0.0);
  CHECK(weights(0, 2) == Approx(0.75).epsilon(1e-15));
  CHECK(weights(1, 0) == 0.5);
  CHECK(weights(1, 2) == 0.0);
  CHECK(max_row_sum_error(weights) <= 1e-15);

  RowMatrix empty = RowMatrix::Zero(3, 2);
  empty.row(2).setConstant(-kInfinity);
  REQUIRE_THROWS_AS_WITH(row_softmax(empty), std::domain_error, Catch::Matchers::Contains("scores row 2"));
  const RowMatrix naive = naive_normalize(empty);
  CHECK(std::isnan(naive(2, 0)));
  CHECK(naive(0, 0) == 0.5);
}

TEST_CASE("maxRowSumError measures distance from unit rows", "[softmax]") {
  const RowMatrix weights = (RowMatrix(2, 2) << 0.5, 0.5, 0.25, 0.5).finished();
  CHECK(max_row_sum_error(weights) == 0.25);
}

TEST_CASE("underflow_report refuses a query whose every log-kernel overflows to -inf", "[kernels]") {
  const RowMatrix keys = (RowMatrix(2, 1) << 0.0, 1.0).finished();
  const Vector query = Vector::Constant(1, 1e300);
  REQUIRE_THROWS_AS(underflow_report(query, keys, 1e-10), std::domain_error);
  REQUIRE_THROWS_WITH(underflow_report(query, keys, 1e-10), Catch::Contains("every log-kernel is -inf"));
}

TEST_CASE("a bandwidth whose square overflows still gives finite scores, or a clear refusal", "[kernels]") {
  const RowMatrix keys = (RowMatrix(3, 1) << -8.0, 0.0, 8.0).finished();
  const RowMatrix near = (RowMatrix(1, 1) << 1.0).finished();
  const RowMatrix weights = attention_weights(near, keys, 1e300);
  INFO("h = 1e300 is the h -> infinity limit: every weight 1/n");
  for (Eigen::Index i = 0; i < 3; ++i) CHECK(weights(0, i) == Approx(1.0 / 3.0).epsilon(1e-15));
  const RowMatrix far = (RowMatrix(1, 2) << -45.5, -1.7976931348623157e308).finished();
  const RowMatrix keys2 = RowMatrix::Constant(3, 2, -8.0);
  REQUIRE_THROWS_AS(attention_weights(far, keys2, 4.35e307), std::domain_error);
  REQUIRE_THROWS_WITH(attention_weights(far, keys2, 4.35e307), Catch::Contains("both overflow"));
}
