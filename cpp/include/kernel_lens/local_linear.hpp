#pragma once
/// Local linear regression written, like Nadaraya–Watson, as weights on the training targets: at
/// each query a kernel-weighted least-squares line instead of a weighted mean. At the edges of the
/// data NW's one-sided weights bend the curve toward the interior; the line's weights cancel that
/// slope and may go negative.
#include <vector>

#include "kernel_lens/attention.hpp"

namespace kernel_lens {

struct LocalLinearResult {
  /// The equivalent-kernel weights, (m, n): row r is \f$ \ell(q_r)^\top = e_1^\top(\tilde X^\top W
  /// \tilde X)^{-1}\tilde X^\top W \f$ with rows \f$ [1, (x_i - q_r)^\top] \f$ of \f$ \tilde X \f$ and
  /// W the kernel's normalised weights at \f$ q_r \f$ (attention's row). Every row sums to one;
  /// entries may be negative.
  RowMatrix weights;
  RowMatrix outputs;  ///< \f$ \ell(q_r)^\top V \f$, (m, p)
  /// Rows where \f$ \tilde X^\top W \tilde X \f$ is numerically singular (see local_linear), which
  /// hold the Nadaraya–Watson weights instead, in increasing order.
  std::vector<Eigen::Index> fallback_rows;
};

/// Local linear weights and outputs for Q:(m,d), K:(n,d), V:(n,p), d <= 8.
///
/// Computed in centred form: with the weighted mean \f$ \mu = \sum_i w_i x_i \f$, the weighted
/// covariance \f$ S = \sum_i w_i (x_i - \mu)(x_i - \mu)^\top \f$ and \f$ \delta = q - \mu \f$,
/// \f$ \ell_i = w_i\,(1 + (x_i - \mu)^\top S^{-1} \delta) \f$, the same weights as the normal
/// equations without forming them. The singularity test: \f$ \tilde X^\top W \tilde X \f$ scaled
/// to a unit diagonal (\f$ D M D \f$ with \f$ D = \operatorname{diag}(M)^{-1/2} \f$) has a
/// reciprocal condition number (smallest over largest eigenvalue) below local_linear_rcond, or S
/// has a zero diagonal entry (all weight on keys that share a coordinate). A far query that one key
/// dominates is the typical case: its line is determined by weights below 1e-100.
/// Validation and caps as `attention`; queries with no key inside a compact kernel's support are
/// refused as `attention` refuses them.
LocalLinearResult local_linear(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                               double bandwidth, Kernel kernel = Kernel::Gaussian);

/// The reciprocal condition number below which a row falls back to the NW weights.
inline constexpr double local_linear_rcond = 1e-10;
/// The largest feature dimension local_linear accepts.
inline constexpr Eigen::Index local_linear_max_dimension = 8;

}  // namespace kernel_lens
