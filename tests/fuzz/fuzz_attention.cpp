// Attention, scores and softmax over any shapes, values, bandwidths and kernels.
#include <cmath>

#include "fuzz_input.hpp"
#include "kernel_lens/attention.hpp"
#include "kernel_lens/attention_map.hpp"
#include "kernel_lens/kernels.hpp"
#include "kernel_lens/softmax.hpp"

using namespace kernel_lens;

namespace {

/// A successful weight matrix is finite, nonnegative, and every row sums to one.
void require_weights(const RowMatrix& weights) {
  fuzz::require_finite(weights);
  if ((weights.array() < 0.0).any()) std::abort();
  for (Eigen::Index r = 0; r < weights.rows(); ++r)
    if (std::abs(weights.row(r).sum() - 1.0) > 1e-9) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const auto m = input.ConsumeIntegralInRange<Eigen::Index>(0, 12);
  const auto n = input.ConsumeIntegralInRange<Eigen::Index>(0, 12);
  const auto d = input.ConsumeIntegralInRange<Eigen::Index>(0, 4);
  const auto p = input.ConsumeIntegralInRange<Eigen::Index>(0, 3);
  const auto kernel = static_cast<Kernel>(input.ConsumeIntegralInRange<int>(0, 3));
  const auto empty_rows = input.ConsumeBool() ? EmptyRowPolicy::Error : EmptyRowPolicy::Nearest;
  const double h = fuzz::bandwidth(input);
  const RowMatrix queries = fuzz::matrix(input, m, d);
  const RowMatrix keys = fuzz::matrix(input, n, d);
  const RowMatrix values = fuzz::matrix(input, n, p);

  fuzz::refusal_allowed([&] {
    const auto result = attention(queries, keys, values, h, kernel, empty_rows);
    require_weights(result.weights);
    if (result.outputs.rows() != m || result.outputs.cols() != p) std::abort();
    fuzz::require_finite(result.outputs);
  });
  fuzz::refusal_allowed([&] {
    // The figure's frame agrees with attention: outputs, the row, the row-sum error, the range.
    const auto full = attention(queries, keys, values, h, kernel, empty_rows);
    AttentionMapRequest request;
    request.scale = input.ConsumeBool() ? ColourScale::Log : ColourScale::Linear;
    request.row = input.ConsumeIntegralInRange<Eigen::Index>(-1, 12);
    request.width = input.ConsumeIntegralInRange<Eigen::Index>(-1, 13);
    request.height = input.ConsumeIntegralInRange<Eigen::Index>(-1, 13);
    request.palette.assign(palette_colours * 4 - (input.ConsumeBool() ? 1 : 0), 9);
    const auto map = attention_map(queries, keys, values, h, request, kernel, empty_rows);
    if (map.outputs != full.outputs || map.row_weights != full.weights.row(request.row).transpose()) std::abort();
    if (map.max_row_sum_error != max_row_sum_error(full.weights)) std::abort();
    if (map.image.size() != static_cast<std::size_t>(map.width * map.height * 4) || map.width < 1 || map.height < 1)
      std::abort();
    if (!(map.low <= map.high)) std::abort();
  });
  fuzz::refusal_allowed([&] {
    const RowMatrix scores = log_scores(queries, keys, h, kernel);
    if ((scores.array().isNaN()).any() || (scores.array() == std::numeric_limits<double>::infinity()).any())
      std::abort();
    require_weights(row_softmax(scores));
  });
  fuzz::refusal_allowed([&] { require_weights(softmax_with_temperature(queries, h)); });
  fuzz::refusal_allowed([&] { naive_normalize(queries); });
  fuzz::refusal_allowed([&] { max_row_sum_error(queries); });
  fuzz::refusal_allowed([&] { dot_product_scores(queries, keys); });
  fuzz::refusal_allowed([&] { squared_distances(queries, keys); });
  fuzz::refusal_allowed([&] { fuzz::require_finite(uniform_limit(fuzz::count(input, 64))); });
  fuzz::refusal_allowed([&] { temperature_from_bandwidth(h); });
  fuzz::refusal_allowed([&] { bandwidth_from_temperature(h); });
  if (m > 0) {
    const Vector query = queries.row(0).transpose();
    fuzz::refusal_allowed([&] {
      const Vector limit = nearest_key_limit(query, keys);
      fuzz::require_finite(limit);
      if (std::abs(limit.sum() - 1.0) > 1e-12) std::abort();
    });
    fuzz::refusal_allowed([&] {
      const auto report = underflow_report(query, keys, h);
      fuzz::require_finite(report.stable_weights);
    });
  }
  return 0;
}
