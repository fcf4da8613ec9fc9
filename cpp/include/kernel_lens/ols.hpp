#pragma once
/// Ordinary least squares as a weighting of the training targets (equation 12.1).
#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// Hat weights \f$ \lambda(q) = \tilde X(\tilde X^\top\tilde X)^{-1}\tilde q \f$ with an intercept
/// column, for keys X:(n,d) and one query q:(d) -> (n). Throws std::domain_error when
/// \f$ \tilde X \f$ is rank-deficient (fewer than d+1 keys, duplicated or collinear keys).
Vector ols_weights(const MatrixRef& keys, const VectorRef& query);

/// The same for many queries Q:(m,d) -> (m, n), one row per query.
RowMatrix ols_weight_matrix(const MatrixRef& keys, const MatrixRef& queries);

struct OlsPrediction {
  RowMatrix weights;   ///< \f$ \Lambda \f$, (m, n), row r is \f$ \lambda(q_r)^\top \f$
  Vector predictions;  ///< \f$ \hat f(q_r) = \lambda(q_r)^\top y \f$, (m)
};
/// OLS predictions written as weighted combinations of the targets y:(n).
OlsPrediction ols_predict(const MatrixRef& keys, const VectorRef& targets, const MatrixRef& queries);

}  // namespace kernel_lens
