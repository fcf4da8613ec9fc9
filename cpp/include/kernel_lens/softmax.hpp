#pragma once
/// The stable row softmax: shift each row by its maximum, exponentiate, normalise.
#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// What to do with a row whose every score is -inf (no key inside a compact kernel's support).
enum class EmptyRowPolicy {
  Error,    ///< throw std::domain_error naming the row (default)
  Nearest,  ///< fall back to the h -> 0+ limit: all mass on the nearest key(s), ties split
};

/// \f$ A_{ri} = \exp(S_{ri} - \max_j S_{rj}) / \sum_j \exp(S_{rj} - \max_j S_{rj}) \f$, in place.
/// Rows of all -inf throw std::domain_error ("row r has no finite score").
void row_softmax_inplace(RowMatrix& scores);
RowMatrix row_softmax(const MatrixRef& scores);

/// Naive normalisation of directly exponentiated kernels \f$ \kappa / \sum\kappa \f$: the
/// textbook trap. Returns NaN where the denominator underflows to 0; never throws for that.
RowMatrix naive_normalize(const MatrixRef& log_scores);

}  // namespace kernel_lens
