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

/// What one smoother does on a fixed design, exactly (no sampling): at each query r,
/// bias_r = w_r f(K) - f(q_r) and sd_r = sigma ||w_r||, the standard deviation of its prediction
/// when the targets are f(K) plus independent noise of standard deviation sigma
/// (Var f^(q) = sigma^2 sum_i w_i(q)^2).
struct SmootherErrors {
  Vector bias;
  Vector sd;
};
struct SmootherAudit {
  SmootherErrors nadaraya_watson;  ///< w_r = attention's row
  SmootherErrors local_linear;     ///< w_r = local_linear's row (NW's on its fallback rows)
  std::vector<Eigen::Index> fallback_rows;  ///< local_linear's
};

/// Both smoothers' exact bias and standard deviation at Q:(m,d) for keys K:(n,d) whose noiseless
/// targets are `truth_at_keys` (n), against `truth_at_queries` (m), with noise sigma >= 0.
SmootherAudit smoother_audit(const MatrixRef& queries, const MatrixRef& keys, const VectorRef& truth_at_keys,
                             const VectorRef& truth_at_queries, double noise, double bandwidth,
                             Kernel kernel = Kernel::Gaussian);

/// How often a band curve_r +- width sd_r holds the truth. With Gaussian noise a fixed-design
/// smoother's prediction is exactly Gaussian, f^(q_r) ~ N(f(q_r) + bias_r, sd_r^2), so the chance
/// that a fresh sample's band holds the truth at q_r is
/// P_r = Phi(width - |bias_r| / sd_r) - Phi(-width - |bias_r| / sd_r)
/// (erf(width / sqrt 2) = 0.9545 at width 2 when unbiased; 1 or 0 when sd_r = 0, as bias_r is or
/// is not 0). `observed` is what one sample's curve does: the share of queries with
/// |curve_r - truth_r| <= width sd_r.
struct BandCoverage {
  double observed;       ///< share of the queries whose band holds the truth, for `curve`
  double expected;       ///< the mean of `probability` over the queries
  Vector probability;    ///< P_r per query
};

/// curve, truth, bias and sd: one entry per query (at least one, at most Limits::max_rows), all
/// finite, sd >= 0; width positive and finite.
BandCoverage band_coverage(const VectorRef& curve, const VectorRef& truth, const VectorRef& bias, const VectorRef& sd,
                           double width);

/// The reciprocal condition number below which a row falls back to the NW weights.
inline constexpr double local_linear_rcond = 1e-10;
/// The largest feature dimension local_linear accepts.
inline constexpr Eigen::Index local_linear_max_dimension = 8;

}  // namespace kernel_lens
