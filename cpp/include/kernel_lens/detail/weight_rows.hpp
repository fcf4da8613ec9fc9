#pragma once
/// The rows of A one query at a time, shared by `attention` and `attention_map`: each row's
/// squared distances, log-kernel and softmax (and its share of A V) run while the row is in the L1
/// cache. Validates the bandwidth, the score shapes and finite queries and keys on construction.
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/kernels.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens::detail {

class WeightRows {
 public:
  WeightRows(const MatrixRef& queries, const MatrixRef& keys, double bandwidth, Kernel kernel, EmptyRowPolicy empty_rows);

  /// Row r of A into `row` (n). With `values` (a value column, n), returns the row's dot product
  /// with it (taken in the normalising pass on the Gaussian kernel's common path); otherwise 0.
  double fill(Eigen::Index r, RowVectorOut row, const double* values = nullptr);

  /// Row r of A into `row` as fill makes it, bit for bit, and what the attention map keeps of it:
  /// the weights added into `sums` (n), their extremes folded into `range`, their pairwise_sum in
  /// `weight_sum`; returns the dot product with the value column `values` (n). All of it is
  /// taken in one pass (detail::divide_tally): the one that divides by the row's sum on the
  /// Gaussian kernel's common path; a row the general path normalised already is divided by 1.
  double fill_tallied(Eigen::Index r, RowVectorOut row, const double* values, double* sums, ValueRange& range,
                      double& weight_sum);

 private:
  /// The Gaussian kernel's common path up to the normalisation: the row's e^(s - max s) in `row`
  /// and their pairwise sum returned; 0 where the path does not apply (another kernel, a 2h^2
  /// that is not normal, a row without a finite score).
  double gaussian_unnormalised(Eigen::Index r, RowVectorOut row);
  /// Every other case: distances, kernel_weights_row, the empty-row policy.
  void general(Eigen::Index r, RowVectorOut row);

  const MatrixRef& queries_;
  const RowMatrix keys_transposed_;
  Eigen::RowVectorXd distances_;
  double bandwidth_;
  Kernel kernel_;
  EmptyRowPolicy empty_rows_;
  /// 2h^2 where the Gaussian kernel's log-kernel is -D / (2h^2) (log_kernel_inplace: 2h^2 normal);
  /// 0 otherwise (other kernels, and bandwidths whose 2h^2 is subnormal or overflows).
  double gaussian_divisor_ = 0.0;
};

}  // namespace kernel_lens::detail
