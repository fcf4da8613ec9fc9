#pragma once
/// Fixed (unlearned) kernel attention: A = rowsoftmax(S), outputs = A V (equations 12.6, 12.7).
#include <optional>
#include <type_traits>

#include "kernel_lens/kernels.hpp"
#include "kernel_lens/softmax.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens {

struct AttentionResult {
  RowMatrix weights;  ///< A, (m, n); every row sums to one
  RowMatrix outputs;  ///< A V, (m, p)
};

/// \f$ \mathrm{Attention}_h(Q,K,V) = \mathrm{rowsoftmax}(S)\,V \f$ for Q:(m,d), K:(n,d), V:(n,p).
/// Validates shapes, finiteness, h and size caps (see limits.hpp) before allocating.
AttentionResult attention(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                          double bandwidth, Kernel kernel = Kernel::Gaussian,
                          EmptyRowPolicy empty_rows = EmptyRowPolicy::Error);

/// The same into `result`: its matrices keep their storage when they already have the shapes
/// (m, n) and (m, p), so a caller that recomputes a large map for every frame allocates nothing.
/// Each query's row is finished (distances, log-kernel, softmax, its share of A V) while it is in
/// the L1 cache; the exponentials are detail::exp_inplace's, bit for bit std::exp's in wasm.
void attention_into(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth,
                    AttentionResult& result, Kernel kernel = Kernel::Gaussian,
                    EmptyRowPolicy empty_rows = EmptyRowPolicy::Error);

/// The checks `attention` makes before it allocates anything: bandwidth, shapes, the work budget
/// (limits.hpp) and finite inputs.
void check_attention_inputs(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth);

/// Receives consecutive query rows [first_row, first_row + rows): their weights (rows, n) and
/// outputs (rows, p), valid only during the call. A reference to the caller's callable (any
/// f(first_row, weights, outputs)), not a copy: it must outlive the call it is passed to, as a
/// lambda written in the argument list does. (Not std::function: no allocation, no type-erased
/// copies, and several kB less in the wasm module.)
class AttentionBlockVisitor {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, AttentionBlockVisitor>>>
  AttentionBlockVisitor(F&& visit)  // NOLINT(google-explicit-constructor): used like std::function
      : callable_(const_cast<void*>(static_cast<const void*>(&visit))), call_([](void* callable, Eigen::Index first_row, const MatrixRef& weights,
                                                        const MatrixRef& outputs) {
          (*static_cast<std::remove_reference_t<F>*>(callable))(first_row, weights, outputs);
        }) {}

  void operator()(Eigen::Index first_row, const MatrixRef& weights, const MatrixRef& outputs) const {
    call_(callable_, first_row, weights, outputs);
  }

 private:
  void* callable_;
  void (*call_)(void*, Eigen::Index, const MatrixRef&, const MatrixRef&);
};

/// The same computation handed out `block_rows` query rows at a time, in order, so a caller that
/// copies the results elsewhere (the wasm binding, into JavaScript arrays) never holds the whole
/// (m, n) matrix: the block stays in the cache between its computation and its copy.
void attention_blocks(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth,
                      Kernel kernel, EmptyRowPolicy empty_rows, Eigen::Index block_rows,
                      const AttentionBlockVisitor& visit);

/// Weights only, (m, n). With a compact kernel, a query with no key inside the support throws
/// std::domain_error naming the query row (EmptyRowPolicy::Error) or takes the nearest-key limit.
RowMatrix attention_weights(const MatrixRef& queries, const MatrixRef& keys, double bandwidth,
                            Kernel kernel = Kernel::Gaussian,
                            EmptyRowPolicy empty_rows = EmptyRowPolicy::Error);

/// The mixture \f$ Y = A V \f$ of weights A:(m,n) and values V:(n,p) -> (m,p): entry (r, c) is
/// the dot product of row r of A with column c of V (V is transposed once so both are contiguous).
RowMatrix mix_values(const MatrixRef& weights, const MatrixRef& values);
/// The same for one value column v:(n) -> (m).
Vector mix_value_column(const MatrixRef& weights, const VectorRef& values);

/// \f$ \tau = 2h^2 \f$: the softmax temperature of the unscaled score \f$ s = -\|q-k\|^2 \f$.
double temperature_from_bandwidth(double bandwidth);
/// \f$ h = \sqrt{\tau/2} \f$.
double bandwidth_from_temperature(double temperature);

/// The h -> 0+ limit for one query: mass split equally over the nearest key(s). (n)
Vector nearest_key_limit(const VectorRef& query, const MatrixRef& keys);
/// The h -> infinity limit: every weight 1/n. (n)
Vector uniform_limit(Eigen::Index n);

/// Dot-product scores \f$ q_r^\top k_i \f$, (m, n): the other similarity of section 12.6.
RowMatrix dot_product_scores(const MatrixRef& queries, const MatrixRef& keys);
/// Unscaled distance scores \f$ s_{ri} = -\|q_r - k_i\|^2 \f$, (m, n): with \f$ \tau = 2h^2 \f$,
/// softmax(s / tau) row by row is the Gaussian kernel's normalized weights (section 12.3).
RowMatrix distance_scores(const MatrixRef& queries, const MatrixRef& keys);

/// The far-query trap of section 12.5 for one query and the Gaussian kernel, side by side.
/// Sums run in NumPy's pairwise order, so the measured gaps match the chapter's printout.
struct UnderflowReport {
  Vector log_scores;         ///< \f$ a_i = -\tfrac12\|(q-k_i)/h\|^2 \f$ as the chapter's check writes it, (n)
  Vector kernel_values;      ///< \f$ \kappa_i = \exp(a_i) \f$, exponentiated directly, (n)
  double naive_denominator;  ///< \f$ \sum_i \kappa_i \f$ (0 when every kernel value underflows)
  Vector naive_weights;      ///< \f$ \kappa_i / \sum_j \kappa_j \f$, NaN on 0/0, (n)
  bool naive_all_finite;
  Vector stable_weights;     ///< softmax(a), (n)
  double stable_sum;         ///< \f$ \sum_i \mathrm{softmax}(a)_i \f$
  Eigen::Index nearest_index;  ///< argmax of the stable weights (the nearest key)
  std::optional<double> max_abs_difference;  ///< max |naive - stable|; empty when naive is not finite
};
UnderflowReport underflow_report(const VectorRef& query, const MatrixRef& keys, double bandwidth);

}  // namespace kernel_lens
