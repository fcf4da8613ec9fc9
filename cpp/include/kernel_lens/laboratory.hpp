#pragma once
/// The chapter's bias/variance laboratory (section 12.4): f(x) = sin(1.5x) + 0.3 cos(4x), a fixed
/// design of sorted uniform keys, Gaussian Nadaraya-Watson on a query grid, Monte-Carlo worlds of
/// N(0, noise^2) responses, and the exact (population) decomposition of the same design.
#include <cstdint>
#include <vector>

#include "kernel_lens/kernels.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// Every size, seed and level of the laboratory; the defaults are the chapter's.
struct LabConfig {
  std::uint64_t key_seed = 605012;          ///< keys = sort(uniform(key_low, key_high, keys))
  std::uint64_t observed_seed = 605013;     ///< the one observed sample: f(keys) + normal(0, noise)
  std::uint64_t monte_carlo_seed = 605014;  ///< worlds x keys noise, drawn row-major
  std::size_t keys = 60;
  std::size_t queries = 241;  ///< linspace(query_low, query_high, queries)
  std::size_t worlds = 1000;
  double noise = 0.25;  ///< sigma of the response noise
  std::vector<double> bandwidths = {0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00};
  double key_low = -3.0;
  double key_high = 3.0;
  double query_low = -2.9;
  double query_high = 2.9;

  /// Throws std::invalid_argument (bad value) or std::length_error (over a cap in limits.hpp):
  /// seeds <= 2^53 - 1, keys >= 1, queries >= 1, 2 <= worlds <= max_worlds, worlds * keys <=
  /// max_draws, keys * queries <= max_cells, noise finite and >= 0, 1 <= bandwidths <=
  /// max_bandwidths each positive and finite, finite ranges with low < high (queries: low <= high).
  void check() const;
};

/// seed <= 2^53 - 1, else std::invalid_argument naming it.
void check_seed(std::uint64_t seed, const char* name);
/// count >= minimum, else std::invalid_argument "<name> must be at least <minimum>, got <count>".
void check_at_least(std::size_t count, std::size_t minimum, const char* name);

/// A 1-D vector as n one-feature rows, (n, 1): the shape attention takes for scalar keys.
RowMatrix as_rows(const Vector& x);

/// \f$ f(x) = \sin(1.5x) + 0.3\cos(4x) \f$, elementwise.
double truth(double x);
Vector truth(const VectorRef& xs);

/// numpy.linspace(start, stop, count): start + i (stop - start)/(count - 1), last = stop. Where
/// stop - start overflows (where NumPy gives inf and NaN), start (n-1-i)/(n-1) + stop i/(n-1),
/// finite throughout.
Vector linspace(double start, double stop, std::size_t count);

/// The chapter's dataset: what the page plots. Each vector has the size its name implies.
struct ChapterDataset {
  Vector keys;             ///< sorted, (keys)
  Vector observed_values;  ///< f(keys) + one noise draw, (keys)
  Vector queries;          ///< (queries)
  Vector truth_at_keys;    ///< (keys)
  Vector truth_at_queries; ///< (queries)
};
ChapterDataset chapter_dataset(const LabConfig& config);

/// One row of the audit table.
struct RiskRow {
  double bandwidth;
  double tau;       ///< 2 h^2
  double bias2;     ///< mean_r (mean prediction_r - f(q_r))^2
  double variance;  ///< mean_r variance of prediction_r (ddof 0 / population)
  double mse;       ///< bias2 + variance
};

/// Empirical audit over `worlds` noisy worlds Y (worlds x keys), without the worlds x queries
/// prediction matrix: mean prediction = A ybar, variance_r = w_r^T Sigma w_r with Sigma the
/// responses' ddof-0 covariance (keys x keys), computed once. One row per bandwidth, in order.
std::vector<RiskRow> bias_variance_sweep(const LabConfig& config);

/// The worlds behind one bandwidth's row of the audit, the same worlds bias_variance_sweep draws:
/// the first `curves` worlds' prediction curves over the queries, the mean curve over all worlds
/// (A ybar), and at the grid query nearest to `query` (the lower one on a tie) every world's
/// prediction with that prediction's exact mean and standard deviation on the fixed design
/// (w_r . f(K) and noise ||w_r||), the grid query itself and the truth there.
struct AuditWorlds {
  RowMatrix curves;   ///< (curves, queries)
  Vector mean_curve;  ///< (queries)
  Vector at_query;    ///< (worlds)
  double query = 0.0;  ///< the grid query used
  std::size_t query_index = 0;
  double truth = 0.0;
  double exact_mean = 0.0;
  double exact_sd = 0.0;
};
/// The largest number of curves audit_worlds returns.
inline constexpr std::size_t audit_worlds_max_curves = 200;
/// config.check(), bandwidth positive and finite, curves <= min(worlds, audit_worlds_max_curves),
/// query finite, and worlds x keys + (curves + 1) x queries x keys within Limits::max_work.
AuditWorlds audit_worlds(const LabConfig& config, double bandwidth, std::size_t curves, double query);

/// Equal-width bins from the smallest to the largest value (one unit wide around a single value):
/// edges (bins + 1) and counts (bins); a value on an inner edge counts in the bin above it, the
/// largest in the last bin. values: at least one, all finite; 1 <= bins <= 1000.
struct Histogram {
  Vector edges;
  Vector counts;
};
Histogram histogram(const VectorRef& values, std::size_t bins);

/// Population decomposition of the same design, no sampling:
/// bias2 = mean_r (w_r . f(K) - f(q_r))^2, variance = noise^2 mean_r ||w_r||^2.
std::vector<RiskRow> exact_risk(const LabConfig& config);

/// Leave-one-out MSE per bandwidth for keys K:(n,d) and scalar values (n), n >= 2: each point is
/// predicted from the others (its own score set to -inf, the row renormalised). A bandwidth at
/// which some point has no other key inside a compact kernel's support gives NaN. The rows are
/// streamed (memory O(n)); each row's distances serve every bandwidth; Gaussian and Laplacian
/// scores are taken relative to the nearest other key, so a bandwidth far below the spacing
/// gives the nearest-neighbour answer as attention does, not NaN. Throws std::length_error when
/// its work, n^2 (d + B) for n keys of d features and B bandwidths (work::loo, work.hpp), exceeds
/// Limits::max_work.

Vector loo_curve(const MatrixRef& keys, const VectorRef& values, const std::vector<double>& bandwidths,
                 Kernel kernel = Kernel::Gaussian);

/// One bandwidth's fit of the keys in one pass over the rows (no n x n matrix, half the kernel
/// evaluations of a leave-one-out curve plus an attention call): `fitted` (n) is each key's
/// attention output over all keys, itself included, `held_out` (n) its prediction from the other
/// keys (NaN where a compact kernel leaves it no other key), `mse` the mean squared error of
/// `held_out`, bit for bit loo_curve's value at that bandwidth.
struct LooFit {
  Vector fitted;
  Vector held_out;
  double mse = 0.0;
};
/// The work of loo_fit: n^2 (d + 1).
LooFit loo_fit(const MatrixRef& keys, const VectorRef& values, double bandwidth, Kernel kernel = Kernel::Gaussian);

/// The Gaussian rule's leave-one-out risk at one bandwidth and its exact derivative in log h:
/// \f$ R(h) = \frac1n\sum_i (\hat y_{-i} - y_i)^2 \f$ (loo_curve's value), and with
/// \f$ \partial\log w_{ij}/\partial\log h = D_{ij}/h^2 \f$,
/// \f$ \partial\hat y_{-i}/\partial\log h = \sum_{j\ne i}\alpha_{ij} (D_{ij}/h^2)(y_j - \hat y_{-i}) \f$,
/// \f$ \partial R/\partial\log h = \frac2n\sum_i (\hat y_{-i} - y_i)\,\partial\hat y_{-i}/\partial\log h \f$.
struct LooRiskGradient {
  double risk = 0.0;
  double gradient = 0.0;  ///< dR / d log h
};
/// loo_fit's checks and work (n^2 (d + 1)); keys K:(n,d), n >= 2, scalar values (n).
LooRiskGradient loo_risk_gradient(const MatrixRef& keys, const VectorRef& values, double bandwidth);

/// Gradient descent on log h for the leave-one-out risk: from h_0 = `start`,
/// \f$ \log h_{t+1} = \log h_t - \eta\, \partial R/\partial\log h(h_t) \f$, taken as
/// h_{t+1} = h_t exp(-eta g_t) (so a run continued from its last h repeats a longer run bit for
/// bit). `bandwidths`, `risks` and `gradients` hold h_t, R(h_t) and g_t for t = 0 .. steps.
struct LooDescent {
  std::vector<double> bandwidths;
  std::vector<double> risks;
  std::vector<double> gradients;
};
/// The largest number of steps loo_descent takes in one call.
inline constexpr std::size_t loo_descent_max_steps = 10'000;
/// rate > 0 and finite, steps <= loo_descent_max_steps, (steps + 1) n^2 (d + 1) <= max_work; a
/// step that leaves the bandwidths loo_risk_gradient accepts throws, naming the step.
LooDescent loo_descent(const MatrixRef& keys, const VectorRef& values, double start, double rate, std::size_t steps);

}  // namespace kernel_lens
