// The laboratory and the exercises with any configuration: valid ones run (kept small so the fuzzer
// stays fast), oversized ones must be refused before anything is allocated.
#include "fuzz_input.hpp"
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"

using namespace kernel_lens;

namespace {

std::vector<double> bandwidths(FuzzedDataProvider& input) {
  std::vector<double> out(input.ConsumeIntegralInRange<std::size_t>(0, 5));
  for (double& h : out) h = fuzz::bandwidth(input);
  return out;
}

std::uint64_t seed(FuzzedDataProvider& input) {
  return input.ConsumeBool() ? input.ConsumeIntegral<std::uint64_t>()
                             : input.ConsumeIntegralInRange<std::uint64_t>(0, 99);
}

void risk_rows_finite(const std::vector<RiskRow>& rows) {
  for (const auto& row : rows)
    if (!std::isfinite(row.bias2) || !std::isfinite(row.variance) || !std::isfinite(row.mse)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  switch (input.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
    case 1: {
      LabConfig config;
      config.key_seed = seed(input);
      config.observed_seed = seed(input);
      config.monte_carlo_seed = seed(input);
      config.keys = fuzz::count(input, 24);
      config.queries = fuzz::count(input, 24);
      config.worlds = fuzz::count(input, 24);
      config.noise = input.ConsumeBool() ? 0.25 : fuzz::number(input);
      config.bandwidths = bandwidths(input);
      if (input.ConsumeBool()) {
        config.key_low = fuzz::number(input);
        config.key_high = fuzz::number(input);
        config.query_low = fuzz::number(input);
        config.query_high = fuzz::number(input);
      }
      fuzz::refusal_allowed([&] { chapter_dataset(config); });
      fuzz::refusal_allowed([&] { risk_rows_finite(bias_variance_sweep(config)); });
      fuzz::refusal_allowed([&] { risk_rows_finite(exact_risk(config)); });
      break;
    }
    case 2: {
      SelectionConfig config;
      config.seed = seed(input);
      config.train = fuzz::count(input, 16);
      config.validation = fuzz::count(input, 16);
      config.test = fuzz::count(input, 16);
      config.curve_points = fuzz::count(input, 32);
      config.noise = input.ConsumeBool() ? 0.25 : fuzz::number(input);
      config.bandwidths = bandwidths(input);
      if (input.ConsumeBool()) {
        config.key_low = fuzz::number(input);
        config.key_high = fuzz::number(input);
      }
      fuzz::refusal_allowed([&] { bandwidth_selection(config); });
      break;
    }
    case 3: {
      StandardizeConfig config;
      config.seed = seed(input);
      config.keys = fuzz::count(input, 24);
      config.queries = fuzz::count(input, 12);
      config.noise = input.ConsumeBool() ? 0.25 : fuzz::number(input);
      config.bandwidth = fuzz::bandwidth(input);
      config.feature_scales = {fuzz::number(input), fuzz::number(input)};
      fuzz::refusal_allowed([&] { standardize_exercise(config); });
      break;
    }
    default: {
      const auto n = input.ConsumeIntegralInRange<Eigen::Index>(0, 12);
      const auto d = input.ConsumeIntegralInRange<Eigen::Index>(1, 3);
      const RowMatrix keys = fuzz::matrix(input, n, d);
      const Vector values =
          fuzz::vector(input, input.ConsumeBool() ? n : input.ConsumeIntegralInRange<Eigen::Index>(0, 12));
      const auto kernel = static_cast<Kernel>(input.ConsumeIntegralInRange<int>(0, 3));
      fuzz::refusal_allowed([&] { loo_curve(keys, values, bandwidths(input), kernel); });
      fuzz::refusal_allowed([&] { loo_fit(keys, values, fuzz::bandwidth(input), kernel); });
      fuzz::refusal_allowed([&] {
        // An accepted call on finite keys and values never gives a NaN gradient with a finite risk.
        const LooRiskGradient point = loo_risk_gradient(keys, values, fuzz::bandwidth(input));
        if (std::isfinite(point.risk) && std::isnan(point.gradient)) std::abort();
      });
      fuzz::refusal_allowed([&] {
        loo_descent(keys, values, fuzz::bandwidth(input), fuzz::number(input), fuzz::count(input, 8));
      });
      fuzz::refusal_allowed([&] { linspace(fuzz::number(input), fuzz::number(input), fuzz::count(input, 64)); });
      fuzz::refusal_allowed([&] { truth(fuzz::vector(input, n)); });
    }
  }
  return 0;
}
