#include "kernel_lens/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/summation.hpp"

namespace kernel_lens {

KERNEL_LENS_COLD EmptyRowPolicy parse_empty_row_policy(const std::string& name) {
  if (name == "error") return EmptyRowPolicy::Error;
  if (name == "nearest") return EmptyRowPolicy::Nearest;
  throw std::invalid_argument("empty_rows must be \"error\" or \"nearest\", got \"" + name + "\"");
}

double row_sum(const Eigen::Ref<const Eigen::RowVectorXd>& row) {
  return pairwise_sum(row.data(), static_cast<std::size_t>(row.size()));
}

bool softmax_row_inplace(RowVectorOut scores) {
  double* x = scores.data();
  const auto n = static_cast<std::size_t>(scores.size());
  const double shift = detail::max_of(x, n);
  if (shift == -std::numeric_limits<double>::infinity()) return false;
  detail::exp_inplace(x, n, shift);
  detail::divide_inplace(x, n, pairwise_sum(x, n));
  return true;
}

KERNEL_LENS_COLD void check_scores(const MatrixRef& scores, const char* name) {
  if (scores.rows() == 0 || scores.cols() == 0)
    throw std::invalid_argument(std::string(name) + " must have at least one row and one column");
  for (Eigen::Index r = 0; r < scores.rows(); ++r)
    for (Eigen::Index c = 0; c < scores.cols(); ++c) {
      const double x = scores(r, c);
      if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
        throw std::invalid_argument(std::string(name) + "[" + std::to_string(r) + ", " +
                                    std::to_string(c) + "] must be finite or -inf, got " +
                                    (std::isnan(x) ? "nan" : "inf"));
    }
}

void row_softmax_inplace(RowMatrix& scores) {
  check_scores(scores, "scores");
  for (Eigen::Index r = 0; r < scores.rows(); ++r)
    if (!softmax_row_inplace(scores.row(r)))
      throw std::domain_error("scores row " + std::to_string(r) +
                              " has no finite entry (every score is -inf); expected at least one");
}

RowMatrix row_softmax(const MatrixRef& scores) {
  check_scores(scores, "scores");
  check_cells(static_cast<std::size_t>(scores.rows()), static_cast<std::size_t>(scores.cols()), "scores");
  RowMatrix weights = scores;
  row_softmax_inplace(weights);
  return weights;
}

RowMatrix softmax_with_temperature(const MatrixRef& scores, double temperature) {
  check_bandwidth(temperature, "temperature");
  check_scores(scores, "scores");
  check_cells(static_cast<std::size_t>(scores.rows()), static_cast<std::size_t>(scores.cols()), "scores");
  RowMatrix weights = scores / temperature;
  row_softmax_inplace(weights);
  return weights;
}

KERNEL_LENS_COLD RowMatrix naive_normalize(const MatrixRef& log_scores) {
  check_scores(log_scores, "logScores");
  check_cells(static_cast<std::size_t>(log_scores.rows()), static_cast<std::size_t>(log_scores.cols()),
              "logScores");
  RowMatrix weights = log_scores.array().unaryExpr([](double s) { return detail::exp(s); });
  for (Eigen::Index r = 0; r < weights.rows(); ++r) weights.row(r).array() /= row_sum(weights.row(r));
  return weights;
}

KERNEL_LENS_COLD Vector row_sums(const MatrixRef& weights) {
  check_finite(weights, "weights");
  if (weights.rows() == 0) throw std::invalid_argument("weights must have at least one row");
  Vector sums(weights.rows());
  for (Eigen::Index r = 0; r < weights.rows(); ++r) sums(r) = row_sum(weights.row(r));
  return sums;
}

KERNEL_LENS_COLD double max_row_sum_error(const MatrixRef& weights) {
  check_finite(weights, "weights");
  if (weights.rows() == 0) throw std::invalid_argument("weights must have at least one row");
  double worst = 0.0;
  for (Eigen::Index r = 0; r < weights.rows(); ++r)
    worst = std::max(worst, std::abs(row_sum(weights.row(r)) - 1.0));
  return worst;
}

}  // namespace kernel_lens
