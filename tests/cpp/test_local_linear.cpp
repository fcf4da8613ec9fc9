// Local linear regression as weights on the targets, against NumPy's directly solved weighted
// least squares (tests/fixtures/local_linear.json, scripts/gen_fixtures_local_linear.py).
#include <catch2/catch.hpp>

#include <stdexcept>

#include "core_fixture.hpp"
#include "lab_fixture.hpp"
#include "kernel_lens/local_linear.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {
const nlohmann::json& local_linear_fixture() {
  static const nlohmann::json loaded = load_fixture("local_linear.json");
  return loaded;
}
}  // namespace

TEST_CASE("local linear weights and outputs agree with NumPy's weighted least squares to 1e-10",
          "[local_linear][numpy]") {
  for (const auto& example : local_linear_fixture()["cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const auto p = example["p"].get<Eigen::Index>();
    const RowMatrix queries = matrix(example["queries"], d);
    const RowMatrix keys = matrix(example["keys"], d);
    const auto kernel = parse_kernel(example["kernel"].get<std::string>());
    INFO(example["kernel"].get<std::string>() << ", d = " << d << ", h = " << example["bandwidth"].get<double>());
    const auto result = local_linear(queries, keys, matrix(example["values"], p), example["bandwidth"].get<double>(), kernel);
    CHECK(result.fallback_rows.empty());
    CHECK(max_abs_difference(result.weights, matrix(example["weights"], keys.rows())) < 1e-10);
    CHECK(max_abs_difference(result.outputs, matrix(example["outputs"], p)) < 1e-10);
    for (Eigen::Index r = 0; r < queries.rows(); ++r)
      CHECK(std::abs(result.weights.row(r).sum() - 1.0) < 1e-12 * std::max(1.0, result.weights.row(r).cwiseAbs().sum()));
  }
}

TEST_CASE("at the boundary NW's weights are one-sided and local linear's go negative", "[local_linear]") {
  const auto& example = local_linear_fixture()["boundary"];
  const RowMatrix keys = matrix(example["keys"], 1);
  const auto result = local_linear(matrix(example["queries"], 1), keys, matrix(example["values"], 1),
                                   example["bandwidth"].get<double>());
  CHECK(result.fallback_rows.empty());
  CHECK(max_abs_difference(result.weights, matrix(example["weights"], keys.rows())) < 1e-10);
  CHECK(max_abs_difference(result.outputs, matrix(example["outputs"], 1)) < 1e-10);
  CHECK(result.weights.row(0).minCoeff() < -0.05);  // the edge query: negative weights cancel the slope
  const RowMatrix nw = attention_weights(matrix(example["queries"], 1), keys, example["bandwidth"].get<double>());
  CHECK(nw.minCoeff() >= 0.0);
}

TEST_CASE("a far query that one key dominates falls back to the NW weights and is listed", "[local_linear]") {
  const auto& example = local_linear_fixture()["far"];
  const RowMatrix keys = matrix(example["keys"], 1);
  const RowMatrix queries = matrix(example["queries"], 1);
  const auto result = local_linear(queries, keys, matrix(example["values"], 1), example["bandwidth"].get<double>());
  REQUIRE(result.fallback_rows == std::vector<Eigen::Index>{1});
  const RowMatrix nw = attention_weights(queries, keys, example["bandwidth"].get<double>());
  CHECK(result.weights.row(1) == nw.row(1));
  CHECK(max_abs_difference(result.weights.row(1), matrix(example["nw_weights"], keys.rows()).row(1)) < 1e-12);
}

TEST_CASE("local_linear validates as attention does, and caps d at 8", "[local_linear][validation]") {
  const RowMatrix keys = RowMatrix::Random(12, 9);
  CHECK_THROWS_WITH(local_linear(keys.topRows(2), keys, RowMatrix::Ones(12, 1), 1.0),
                    "d is 9; local linear regression takes at most 8 features");
  const RowMatrix one = RowMatrix::Ones(3, 1);
  CHECK_THROWS_WITH(local_linear(one, one, one, 0.0), Catch::Contains("bandwidth must be positive and finite"));
  CHECK_THROWS_AS(local_linear(RowMatrix::Constant(1, 1, 10.0), RowMatrix::Zero(3, 1), one, 1.0, Kernel::Epanechnikov),
                  std::domain_error);
  // Three identical keys: the line is undetermined everywhere, every row is NW's.
  const auto flat = local_linear(RowMatrix::Constant(2, 1, 0.5), RowMatrix::Zero(3, 1), one, 1.0);
  CHECK(flat.fallback_rows == std::vector<Eigen::Index>{0, 1});
  CHECK(flat.outputs(0, 0) == 1.0);
}

TEST_CASE("smoother_audit: each smoother's exact bias and standard deviation from its weights", "[local_linear]") {
  const auto& example = local_linear_fixture()["boundary"];
  const RowMatrix keys = matrix(example["keys"], 1);
  const RowMatrix queries = Vector::LinSpaced(7, -0.2, 1.2);
  const Vector truth_at_keys = keys.col(0).array().sin();
  const Vector truth_at_queries = queries.col(0).array().sin();
  const double h = example["bandwidth"].get<double>();
  const auto audit = smoother_audit(queries, keys, truth_at_keys, truth_at_queries, 0.25, h);
  const RowMatrix nw = attention_weights(queries, keys, h);
  const RowMatrix line = local_linear(queries, keys, truth_at_keys, h).weights;
  for (Eigen::Index r = 0; r < queries.rows(); ++r) {
    CHECK(audit.nadaraya_watson.bias(r) == Approx(nw.row(r).dot(truth_at_keys) - truth_at_queries(r)).margin(1e-15));
    CHECK(audit.local_linear.bias(r) == Approx(line.row(r).dot(truth_at_keys) - truth_at_queries(r)).margin(1e-15));
    CHECK(audit.nadaraya_watson.sd(r) == Approx(0.25 * std::sqrt(nw.row(r).squaredNorm())).epsilon(1e-14));
    CHECK(audit.local_linear.sd(r) == Approx(0.25 * std::sqrt(line.row(r).squaredNorm())).epsilon(1e-14));
  }
  // Beyond the edges NW is pulled toward the interior (sin is increasing there); the line follows.
  CHECK(std::abs(audit.local_linear.bias(0)) < std::abs(audit.nadaraya_watson.bias(0)));
  CHECK(std::abs(audit.local_linear.bias(6)) < std::abs(audit.nadaraya_watson.bias(6)));
  // A line costs variance: its weights are spread further from the convex ones.
  CHECK(audit.local_linear.sd(0) > audit.nadaraya_watson.sd(0));
  CHECK(audit.fallback_rows.empty());
  CHECK_THROWS_WITH(smoother_audit(queries, keys, truth_at_keys.head(3), truth_at_queries, 0.25, h),
                    Catch::Contains("truthAtKeys has 3 numbers for 11 keys"));
  CHECK_THROWS_WITH(smoother_audit(queries, keys, truth_at_keys, truth_at_queries.head(2), 0.25, h),
                    Catch::Contains("truthAtQueries has 2 numbers for 7 queries"));
  CHECK_THROWS_WITH(smoother_audit(queries, keys, truth_at_keys, truth_at_queries, -1.0, h),
                    Catch::Contains("noise must be a finite standard deviation"));
}

TEST_CASE("band_coverage: the chance a Gaussian band holds the truth, and one curve's share", "[local_linear]") {
  // Expected values from Python: 0.5 * (erfc((|z| - w) / sqrt 2) - erfc((|z| + w) / sqrt 2)).
  Vector truth = Vector::Zero(6);
  Vector sd(6);
  sd << 0.5, 0.5, 0.5, 0.5, 0.0, 0.0;
  Vector bias(6);
  bias << 0.0, 0.5, -1.5, 20.0, 0.0, 0.1;  // z = 0, 1, -3, 40; sd = 0 unbiased and biased
  Vector curve(6);
  curve << 0.9, -1.1, 0.2, 1.0, 0.0, 0.1;  // inside, outside, inside, inside (at the edge), inside, outside
  const auto coverage = band_coverage(curve, truth, bias, sd, 2.0);
  CHECK(coverage.probability(0) == Approx(0.9544997361036416).epsilon(1e-15));
  CHECK(coverage.probability(1) == Approx(0.8399948480369128).epsilon(1e-14));
  CHECK(coverage.probability(2) == Approx(0.1586549672798852).epsilon(1e-14));
  CHECK(coverage.probability(3) < 1e-300);
  CHECK(coverage.probability(4) == 1.0);
  CHECK(coverage.probability(5) == 0.0);
  CHECK(coverage.observed == Approx(4.0 / 6.0).epsilon(1e-15));
  CHECK(coverage.expected == Approx(coverage.probability.mean()).epsilon(1e-15));
  // One sd either side: erf(1 / sqrt 2).
  CHECK(band_coverage(curve.head(1), truth.head(1), bias.head(1), sd.head(1), 1.0).probability(0) ==
        Approx(0.6826894921370859).epsilon(1e-15));

  CHECK_THROWS_WITH(band_coverage(curve, truth.head(5), bias, sd, 2.0), Catch::Contains("truth has 5 numbers for 6 queries"));
  CHECK_THROWS_WITH(band_coverage(curve, truth, bias, -sd.array() - 1.0, 2.0), Catch::Contains("sd[0] must be >= 0, got -1.5"));
  CHECK_THROWS_WITH(band_coverage(curve, truth, bias, sd, 0.0), Catch::Contains("width must be positive and finite, got 0"));
  Vector bad = curve;
  bad(2) = std::nan("");
  CHECK_THROWS_WITH(band_coverage(bad, truth, bias, sd, 2.0), Catch::Contains("curve[2] must be finite"));
  CHECK_THROWS_WITH(band_coverage(Vector(0), Vector(0), Vector(0), Vector(0), 2.0), Catch::Contains("at least one query"));
}
