#pragma once
/// The stable row softmax: shift each row by its maximum, exponentiate, normalise.
#include <string>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// What to do with a row whose every score is -inf (no key inside a compact kernel's support).
enum class EmptyRowPolicy {
  Error,    ///< throw std::domain_error naming the row (default)
  Nearest,  ///< fall back to the h -> 0+ limit: all mass on the nearest key(s), ties split
};

/// Parses "error" or "nearest"; throws std::invalid_argument otherwise.
EmptyRowPolicy parse_empty_row_policy(const std::string& name);

/// \f$ \sum_i a_i \f$ of one row in NumPy's pairwise order (see summation.hpp).
double row_sum(const Eigen::Ref<const Eigen::RowVectorXd>& row);

/// \f$ a_i = \exp(s_i - \max_j s_j) / \sum_j \exp(s_j - \max_j s_j) \f$ for one row, in place.
/// Returns false, leaving the row untouched, when every score is -inf. No validation.
bool softmax_row_inplace(RowVectorOut scores);

/// Scores may hold -inf (a zero kernel) but neither NaN nor +inf; throws std::invalid_argument.
void check_scores(const MatrixRef& scores, const char* name);

/// \f$ A_{ri} = \exp(S_{ri} - \max_j S_{rj}) / \sum_j \exp(S_{rj} - \max_j S_{rj}) \f$, in place.
/// Rows of all -inf throw std::domain_error ("scores row r has no finite entry").
void row_softmax_inplace(RowMatrix& scores);
RowMatrix row_softmax(const MatrixRef& scores);
/// rowsoftmax(S / tau) (equation 12.5); tau must be positive and finite.
RowMatrix softmax_with_temperature(const MatrixRef& scores, double temperature);

/// Naive normalisation of directly exponentiated kernels \f$ \kappa / \sum\kappa \f$: the
/// textbook trap. Returns NaN where the denominator underflows to 0; never throws for that.
RowMatrix naive_normalize(const MatrixRef& log_scores);

/// \f$ \sum_i A_{ri} \f$ of every row (m), in NumPy's pairwise order: `weights.sum(axis=1)`.
Vector row_sums(const MatrixRef& weights);

/// \f$ \max_r |\sum_i A_{ri} - 1| \f$: how far the rows are from unit mass.
double max_row_sum_error(const MatrixRef& weights);

}  // namespace kernel_lens
