// The Gaussian rule's leave-one-out risk and its derivative in log h, against NumPy: the risk from
// the full weight matrix, the derivative by central finite differences (tests/fixtures/
// loo_gradient.json, scripts/gen_fixtures_loo_gradient.py).
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "core_fixture.hpp"
#include "lab_fixture.hpp"
#include "kernel_lens/laboratory.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {
const nlohmann::json& loo_gradient_fixture() {
  static const nlohmann::json loaded = load_fixture("loo_gradient.json");
  return loaded;
}

void check_case(const nlohmann::json& example) {
  const auto d = example["d"].get<Eigen::Index>();
  const RowMatrix keys = matrix(example["keys"], d);
  const RowMatrix values = matrix(example["values"], 1);
  const double h = example["bandwidth"].get<double>();
  INFO("d = " << d << ", n = " << keys.rows() << ", h = " << h);
  const LooRiskGradient result = loo_risk_gradient(keys, values.col(0), h);
  const double risk = example["risk"].get<double>();
  const double gradient = example["gradient"].get<double>();
  CHECK(std::abs(result.risk - risk) < 1e-10);
  CHECK(std::abs(result.gradient - gradient) < 1e-6 * std::abs(gradient));
  // The risk is loo_curve's at that bandwidth.
  CHECK(std::abs(result.risk - loo_curve(keys, values.col(0), {h})(0)) < 1e-12 * risk);
}
}  // namespace

TEST_CASE("looRiskGradient on the chapter's sample: NumPy's risk to 1e-10, its finite differences to 1e-6",
          "[loo_gradient][numpy]") {
  for (const auto& example : loo_gradient_fixture()["chapter"]) check_case(example);
}

TEST_CASE("looRiskGradient for random keys with d = 1..3", "[loo_gradient][numpy]") {
  for (const auto& example : loo_gradient_fixture()["cases"]) check_case(example);
}

TEST_CASE("looRiskGradient refuses what looFit refuses", "[loo_gradient]") {
  const RowMatrix keys = (RowMatrix(3, 1) << 0.0, 1.0, 2.0).finished();
  const Vector values = (Vector(3) << 1.0, 2.0, 3.0).finished();
  CHECK_THROWS_AS(loo_risk_gradient(keys, values, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(loo_risk_gradient(keys, values, std::nan("")), std::invalid_argument);
  CHECK_THROWS_AS(loo_risk_gradient(keys.topRows(1), values.head(1), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(loo_risk_gradient(keys, values.head(2), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(loo_risk_gradient(keys, values, 1e-170), std::invalid_argument);
}

TEST_CASE("looDescent follows NumPy's descent on log h and continues bit for bit", "[loo_gradient][numpy]") {
  const auto& descent = loo_gradient_fixture()["descent"];
  const auto& first = loo_gradient_fixture()["chapter"][0];
  const RowMatrix keys = matrix(first["keys"], 1);
  const RowMatrix values = matrix(first["values"], 1);
  const auto steps = descent["steps"].get<std::size_t>();
  const double rate = descent["rate"].get<double>();
  const LooDescent run = loo_descent(keys, values.col(0), descent["start"].get<double>(), rate, steps);
  REQUIRE(run.bandwidths.size() == steps + 1);
  for (std::size_t t = 0; t <= steps; ++t) {
    const auto& expected = descent["trajectory"][t];
    INFO("step " << t);
    CHECK(std::abs(run.bandwidths[t] / expected["bandwidth"].get<double>() - 1.0) < 1e-6);
    CHECK(std::abs(run.risks[t] - expected["risk"].get<double>()) < 1e-8);
    // Each step is loo_risk_gradient's at that h.
    const LooRiskGradient point = loo_risk_gradient(keys, values.col(0), run.bandwidths[t]);
    CHECK(point.risk == run.risks[t]);
    CHECK(point.gradient == run.gradients[t]);
    if (t > 0) CHECK(run.risks[t] < run.risks[t - 1]);
  }
  // Five steps, then seven more from the last h: the twelve-step run exactly.
  const LooDescent head = loo_descent(keys, values.col(0), descent["start"].get<double>(), rate, 5);
  const LooDescent tail = loo_descent(keys, values.col(0), head.bandwidths.back(), rate, 7);
  CHECK(tail.bandwidths.back() == run.bandwidths.back());
}

TEST_CASE("looDescent refuses bad rates, too many steps and a step out of range", "[loo_gradient]") {
  const RowMatrix keys = (RowMatrix(4, 1) << 0.0, 1.0, 2.0, 3.5).finished();
  const Vector values = (Vector(4) << 1.0, -2.0, 3.0, 0.5).finished();
  CHECK_THROWS_AS(loo_descent(keys, values, 1.0, 0.0, 3), std::invalid_argument);
  CHECK_THROWS_AS(loo_descent(keys, values, 1.0, std::nan(""), 3), std::invalid_argument);
  CHECK_THROWS_AS(loo_descent(keys, values, 0.0, 1.0, 3), std::invalid_argument);
  CHECK_THROWS_AS(loo_descent(keys, values, 1.0, 1.0, loo_descent_max_steps + 1), std::invalid_argument);
  CHECK_THROWS_WITH(loo_descent(keys, values, 1.0, 1e6, 5), Catch::Contains("take a smaller rate"));
  CHECK(loo_descent(keys, values, 1.0, 1.0, 0).bandwidths.size() == 1);
}

TEST_CASE("a key whose squared distance overflows adds nothing to the gradient (not 0 * inf)", "[loo_gradient]") {
  // From the first key the last lies 1.6e154 away: its squared distance is +inf, its weight 0.
  const RowMatrix keys = (RowMatrix(4, 1) << -8e153, 0.0, 1.0, 8e153).finished();
  const Vector values = (Vector(4) << 1.0, 2.0, 3.0, 4.0).finished();
  const LooRiskGradient result = loo_risk_gradient(keys, values, 1.0);
  CHECK(std::isfinite(result.risk));
  CHECK(std::isfinite(result.gradient));
}
