// OLS hat weights and predictions over any keys, queries and targets.
#include <cmath>

#include "fuzz_input.hpp"
#include "kernel_lens/ols.hpp"

using namespace kernel_lens;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const auto n = input.ConsumeIntegralInRange<Eigen::Index>(0, 12);
  const auto m = input.ConsumeIntegralInRange<Eigen::Index>(0, 6);
  const auto d = input.ConsumeIntegralInRange<Eigen::Index>(0, 4);
  const auto query_size = input.ConsumeBool() ? d : input.ConsumeIntegralInRange<Eigen::Index>(0, 5);
  const auto target_size = input.ConsumeBool() ? n : input.ConsumeIntegralInRange<Eigen::Index>(0, 13);
  const RowMatrix keys = fuzz::matrix(input, n, d);
  const RowMatrix queries = fuzz::matrix(input, m, d);
  const Vector query = fuzz::vector(input, query_size);
  const Vector targets = fuzz::vector(input, target_size);

  fuzz::refusal_allowed([&] {
    const Vector weights = ols_weights(keys, query);
    fuzz::require_finite(weights);
    if (weights.size() != n) std::abort();
  });
  fuzz::refusal_allowed([&] {
    const auto result = ols_predict(keys, targets, queries);
    fuzz::require_finite(result.weights);
    if (result.weights.rows() != m || result.weights.cols() != n || result.predictions.size() != m) std::abort();
  });
  return 0;
}
