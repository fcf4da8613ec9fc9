#include "kernel_lens/laboratory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/exp_block.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/numpy_random.hpp"
#include "kernel_lens/softmax.hpp"
#include "kernel_lens/work.hpp"

namespace kernel_lens {
namespace {

KERNEL_LENS_COLD void check_range(double low, double high, const char* low_name, const char* high_name, bool strict) {
  if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(high - low) ||
      (strict ? !(low < high) : !(low <= high)))
    throw std::invalid_argument(std::string(low_name) + " and " + high_name +
                                " must be finite with " + low_name + (strict ? " < " : " <= ") +
                                high_name + ", got " + format_number(low) + " and " + format_number(high));
}

/// Rows of queries continued from one directly computed anchor; the recurrence's drift stays
/// near block^2/2 ulps (about 1e-12 relative).
constexpr Eigen::Index recurrence_block = 128;
/// Rows whose unnormalised weights sum below this are recomputed with a shifted exponent (so
/// that squared weights stay far from underflow).
constexpr double smallest_trusted_weight = 1e-100;
/// Cells below e^-42 times a lower bound of their row's largest weight are skipped (< 1e-18 relative).
constexpr double negligible_log_ratio = 42.0;

/// \f$ D = \max_r \min_i |q_r - k_i| \f$ for sorted keys: every row has a key within D.
double farthest_nearest_key(const Vector& sorted_keys, const Vector& queries) {
  double farthest = 0.0;
  for (const double q : queries) {
    const auto* upper = std::lower_bound(sorted_keys.data(), sorted_keys.data() + sorted_keys.size(), q);
    double nearest = std::numeric_limits<double>::infinity();
    if (upper != sorted_keys.data() + sorted_keys.size()) nearest = *upper - q;
    if (upper != sorted_keys.data()) nearest = std::min(nearest, q - *(upper - 1));
    farthest = std::max(farthest, nearest);
  }
  return farthest;
}

/// Unnormalised Gaussian weights g_ri = exp(-(q_r - k_i)^2 t), t = 1/(2h^2), for sorted scalar
/// keys and evenly spaced queries, handed to visit(r, i, g) key by key; negligible cells are
/// skipped. Along a key's column g_{r+1} = g_r rho_r, rho_{r+1} = rho_r gamma with
/// gamma = exp(-2 step^2 t): per block of rows one exp at the row nearest the key and one per
/// direction for the ratio, multiplications elsewhere.
template <class Visit>
void visit_grid_gaussian(const Vector& keys, const Vector& queries, double bandwidth, double farthest,
                           Visit&& visit) {
  const Eigen::Index m = queries.size();
  const double t = 1.0 / (2.0 * bandwidth * bandwidth);
  const double step = m > 1 ? (queries(m - 1) - queries(0)) / static_cast<double>(m - 1) : 0.0;
  const double gamma = detail::exp(-2.0 * step * step * t);
  const double negligible = detail::exp(-farthest * farthest * t - negligible_log_ratio);
  for (Eigen::Index i = 0; i < keys.size(); ++i) {
    const double key = keys(i);
    const double nearest = step > 0.0 ? std::round((key - queries(0)) / step) : 0.0;
    for (Eigen::Index begin = 0; begin < m; begin += recurrence_block) {
      const Eigen::Index end = std::min(m, begin + recurrence_block);
      const auto anchor = static_cast<Eigen::Index>(
          std::clamp(nearest, static_cast<double>(begin), static_cast<double>(end - 1)));
      const double offset = queries(anchor) - key;
      const double peak = detail::exp(-offset * offset * t);
      if (peak < negligible) continue;
      const auto emit = [&](Eigen::Index r, double g) { visit(r, i, g); };
      emit(anchor, peak);
      if (anchor + 1 < end) {
        double ratio = detail::exp(-(2.0 * offset * step + step * step) * t);
        double g = peak;
        for (Eigen::Index r = anchor + 1; r < end && (g *= ratio) >= negligible; ++r) {
          emit(r, g);
          ratio *= gamma;
        }
      }
      if (anchor > begin) {
        double ratio = detail::exp((2.0 * offset * step - step * step) * t);
        double g = peak;
        for (Eigen::Index r = anchor - 1; r >= begin && (g *= ratio) >= negligible; --r) {
          emit(r, g);
          ratio *= gamma;
        }
      }
    }
  }
}

/// A row's weights recomputed as softmax(-(q_r - k)^2 t), for rows whose weights all underflow.
Vector shifted_gaussian_row(const Vector& keys, double query, double bandwidth) {
  const Eigen::ArrayXd scores = -(keys.array() - query).square() / (2.0 * bandwidth * bandwidth);
  return (scores - scores.maxCoeff()).unaryExpr([](double s) { return detail::exp(s); }).matrix();
}

/// Normalised Gaussian weights on the query grid, (m, n), column-major.
Eigen::MatrixXd grid_gaussian_weights(const Vector& keys, const Vector& queries, double bandwidth,
                                      double farthest) {
  Eigen::MatrixXd weights = Eigen::MatrixXd::Zero(queries.size(), keys.size());
  visit_grid_gaussian(keys, queries, bandwidth, farthest,
                      [&](Eigen::Index r, Eigen::Index i, double g) { weights(r, i) = g; });
  Vector sums = weights.rowwise().sum();
  for (Eigen::Index r = 0; r < queries.size(); ++r) {
    if (sums(r) >= smallest_trusted_weight) continue;
    weights.row(r) = shifted_gaussian_row(keys, queries(r), bandwidth).transpose();
    sums(r) = weights.row(r).sum();
  }
  weights.array().colwise() /= sums.array();
  return weights;
}

}  // namespace

KERNEL_LENS_COLD void check_seed(std::uint64_t seed, const char* name) {
  if (seed > max_seed)
    throw std::invalid_argument(std::string(name) + " must be an integer from 0 to 2^53 - 1, got " +
                                std::to_string(seed));
}

KERNEL_LENS_COLD void check_at_least(std::size_t count, std::size_t minimum, const char* name) {
  if (count < minimum)
    throw std::invalid_argument(std::string(name) + " must be at least " + std::to_string(minimum) +
                                ", got " + std::to_string(count));
}

KERNEL_LENS_COLD void LabConfig::check() const {
  check_seed(key_seed, "key_seed");
  check_seed(observed_seed, "observed_seed");
  check_seed(monte_carlo_seed, "monte_carlo_seed");
  check_at_least(keys, 1, "keys");
  check_at_least(queries, 1, "queries");
  check_at_least(worlds, 2, "worlds");
  check_size(keys, Limits::max_rows, "keys");
  check_size(queries, Limits::max_rows, "queries");
  check_size(worlds, Limits::max_worlds, "worlds");
  check_cells(queries, keys, "the query x key weight matrix");
  if (keys > Limits::max_draws / worlds)
    throw std::length_error("worlds x keys = " + std::to_string(worlds) + " x " + std::to_string(keys) +
                            " draws; the limit is " + std::to_string(Limits::max_draws));
  if (!std::isfinite(noise) || noise < 0.0)
    throw std::invalid_argument("noise must be finite and >= 0, got " + format_number(noise));
  if (bandwidths.empty()) throw std::invalid_argument("bandwidths must not be empty");
  check_size(bandwidths.size(), Limits::max_bandwidths, "bandwidths");
  for (std::size_t i = 0; i < bandwidths.size(); ++i)
    check_bandwidth(bandwidths[i], ("bandwidths[" + std::to_string(i) + "]").c_str());
  check_range(key_low, key_high, "key_low", "key_high", true);
  check_range(query_low, query_high, "query_low", "query_high", false);
}

RowMatrix as_rows(const Vector& x) { return Eigen::Map<const RowMatrix>(x.data(), x.size(), 1); }

double truth(double x) { return std::sin(1.5 * x) + 0.3 * std::cos(4.0 * x); }

Vector truth(const VectorRef& xs) {
  Vector out(xs.size());
  for (Eigen::Index i = 0; i < xs.size(); ++i) out(i) = truth(xs(i));
  return out;
}

KERNEL_LENS_COLD Vector linspace(double start, double stop, std::size_t count) {
  check_size(count, Limits::max_rows, "count");
  if (!std::isfinite(start) || !std::isfinite(stop))
    throw std::invalid_argument("start and stop must be finite, got " + format_number(start) + " and " +
                                format_number(stop));
  Vector out(static_cast<Eigen::Index>(count));
  if (count == 0) return out;
  if (count == 1) {
    out(0) = start;
    return out;
  }
  const auto intervals = static_cast<double>(count - 1);
  if (std::isfinite(stop - start)) {
    const double step = (stop - start) / intervals;
    for (std::size_t i = 0; i < count; ++i) out(static_cast<Eigen::Index>(i)) = start + static_cast<double>(i) * step;
  } else {
    // stop - start overflows (ends of opposite sign near the largest double): weigh each end
    // separately, start (n-1-i)/(n-1) + stop i/(n-1), where no term exceeds its end.
    const double first = start / intervals;
    const double last = stop / intervals;
    for (std::size_t i = 0; i < count; ++i) {
      const auto k = static_cast<double>(i);
      out(static_cast<Eigen::Index>(i)) = first * (intervals - k) + last * k;
    }
  }
  out(static_cast<Eigen::Index>(count - 1)) = stop;
  return out;
}

KERNEL_LENS_COLD ChapterDataset chapter_dataset(const LabConfig& config) {
  config.check();
  ChapterDataset data;
  data.keys = NumpyRandom(config.key_seed).uniform(config.key_low, config.key_high, config.keys);
  // A heap sort: the same ascending keys as std::sort (distinct doubles, or equal ones that no
  // reader can tell apart) in a third of the wasm code of an introsort instantiated for them alone.
  std::make_heap(data.keys.begin(), data.keys.end());
  std::sort_heap(data.keys.begin(), data.keys.end());
  data.truth_at_keys = truth(data.keys);
  data.observed_values =
      data.truth_at_keys + NumpyRandom(config.observed_seed).normal(0.0, config.noise, config.keys);
  data.queries = linspace(config.query_low, config.query_high, config.queries);
  data.truth_at_queries = truth(data.queries);
  // Only absurd scales overflow: truth's cos(4x) for |x| above about 4.49e307, the noise near 1e308.
  if (!data.truth_at_keys.allFinite() || !data.truth_at_queries.allFinite())
    throw std::domain_error("truth(x) = sin(1.5x) + 0.3cos(4x) overflows double precision for |x| above about "
                            "4.49e+307; reduce the key and query ranges");
  if (!data.observed_values.allFinite())
    throw std::domain_error("the noisy values overflow double precision at noise " + format_number(config.noise) +
                            "; reduce the noise level");
  return data;
}

namespace {

/// The decomposition overflows only for absurd scales (noise or key ranges near 1e154); say so
/// instead of returning Infinity or NaN.
KERNEL_LENS_COLD std::vector<RiskRow> finite_rows(std::vector<RiskRow> rows) {
  for (const RiskRow& row : rows)
    if (!std::isfinite(row.bias2) || !std::isfinite(row.variance) || !std::isfinite(row.mse))
      throw std::domain_error("the risk at bandwidth " + format_number(row.bandwidth) +
                              " overflows double precision; reduce the noise level or the key and query ranges");
  return rows;
}

}  // namespace

std::vector<RiskRow> bias_variance_sweep(const LabConfig& config) {
  config.check();
  check_work(work::sweep(config), "the bias/variance sweep",
             [&] { return std::string("keys^2 x worlds / 2 for the covariance + bandwidths x queries x keys x (keys + 2) = " +
                 std::to_string(config.keys) + "^2 x " + std::to_string(config.worlds) + " / 2 + " +
                 std::to_string(config.bandwidths.size()) + " x " + std::to_string(config.queries) + " x " +
                 std::to_string(config.keys) + " x " + std::to_string(config.keys + 2)); });
  const ChapterDataset data = chapter_dataset(config);
  /// Y = f(K) + E, E ~ N(0, noise^2), (worlds, keys) drawn row-major.
  RowMatrix responses = NumpyRandom(config.monte_carlo_seed).normal(0.0, config.noise, config.worlds, config.keys);
  responses.rowwise() += data.truth_at_keys.transpose();
  const Vector mean_response = responses.colwise().mean().transpose();
  responses.rowwise() -= mean_response.transpose();
  /// Sigma = Y_c^T Y_c / worlds, (keys, keys).
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Zero(responses.cols(), responses.cols());
  covariance.selfadjointView<Eigen::Lower>().rankUpdate(responses.transpose(),
                                                         1.0 / static_cast<double>(config.worlds));
  covariance.triangularView<Eigen::StrictlyUpper>() = covariance.transpose();

  const auto m = static_cast<double>(data.queries.size());
  const double farthest = farthest_nearest_key(data.keys, data.queries);
  std::vector<RiskRow> rows;
  rows.reserve(config.bandwidths.size());
  Eigen::MatrixXd weighted_covariance(data.queries.size(), data.keys.size());
  for (const double bandwidth : config.bandwidths) {
    const Eigen::MatrixXd weights = grid_gaussian_weights(data.keys, data.queries, bandwidth, farthest);
    const Vector bias = weights * mean_response - data.truth_at_queries;
    weighted_covariance.noalias() = weights * covariance;
    RiskRow row{bandwidth, 2.0 * bandwidth * bandwidth, bias.squaredNorm() / m,
                weighted_covariance.cwiseProduct(weights).sum() / m, 0.0};
    row.mse = row.bias2 + row.variance;
    rows.push_back(row);
  }
  return finite_rows(std::move(rows));
}

AuditWorlds audit_worlds(const LabConfig& config, double bandwidth, std::size_t curves, double query) {
  config.check();
  check_bandwidth(bandwidth);
  if (curves > config.worlds || curves > audit_worlds_max_curves)
    throw std::invalid_argument("curves must be at most " + std::to_string(std::min(config.worlds, audit_worlds_max_curves)) +
                                " (the worlds drawn, at most " + std::to_string(audit_worlds_max_curves) + "), got " +
                                std::to_string(curves));
  if (!std::isfinite(query)) throw std::invalid_argument("query must be a finite number, got " + format_number(query));
  check_work(work::audit_worlds(config, static_cast<double>(curves)), "the audit's worlds", [&] {
               return "worlds x keys + (curves + 1) x queries x keys = " + std::to_string(config.worlds) + " x " +
                      std::to_string(config.keys) + " + " + std::to_string(curves + 1) + " x " + std::to_string(config.queries) +
                      " x " + std::to_string(config.keys);
             });
  const ChapterDataset data = chapter_dataset(config);
  /// Y = f(K) + E, drawn exactly as bias_variance_sweep draws it.
  RowMatrix responses = NumpyRandom(config.monte_carlo_seed).normal(0.0, config.noise, config.worlds, config.keys);
  responses.rowwise() += data.truth_at_keys.transpose();
  const Eigen::MatrixXd weights =
      grid_gaussian_weights(data.keys, data.queries, bandwidth, farthest_nearest_key(data.keys, data.queries));
  AuditWorlds worlds;
  const auto count = static_cast<Eigen::Index>(curves);
  const Eigen::Index m = data.queries.size();
  // Dot products rather than matrix products: each new product kind adds its own kernels to the
  // module (2.4 kB gzipped for these two), for a few hundred thousand multiply-adds.
  worlds.curves.resize(count, m);
  for (Eigen::Index w = 0; w < count; ++w)
    for (Eigen::Index r = 0; r < m; ++r) worlds.curves(w, r) = weights.row(r).dot(responses.row(w));
  const Vector mean_response = responses.colwise().mean().transpose();
  worlds.mean_curve = weights * mean_response;
  Eigen::Index r = 0;
  (data.queries.array() - query).abs().minCoeff(&r);
  worlds.at_query.resize(responses.rows());
  for (Eigen::Index w = 0; w < responses.rows(); ++w) worlds.at_query(w) = weights.row(r).dot(responses.row(w));
  const Vector row = weights.row(r).transpose();
  worlds.query = data.queries(r);
  worlds.query_index = static_cast<std::size_t>(r);
  worlds.truth = data.truth_at_queries(r);
  worlds.exact_mean = row.dot(data.truth_at_keys);
  worlds.exact_sd = config.noise * row.norm();
  return worlds;
}

Histogram histogram(const VectorRef& values, std::size_t bins) {
  if (values.size() == 0) throw std::invalid_argument("values must have at least one number");
  check_finite(values, "values");
  if (bins < 1 || bins > 1000) throw std::invalid_argument("bins must be from 1 to 1000, got " + std::to_string(bins));
  double low = values.minCoeff();
  double high = values.maxCoeff();
  if (!(high > low)) {
    low -= 0.5;
    high += 0.5;
  }
  const auto n = static_cast<Eigen::Index>(bins);
  Histogram result{Vector(n + 1), Vector::Zero(n)};
  for (Eigen::Index b = 0; b <= n; ++b)
    result.edges(b) = b == n ? high : low + (high - low) * static_cast<double>(b) / static_cast<double>(n);
  for (const double value : values) {
    // The bin whose [edge_b, edge_b+1) holds the value, found on the edges themselves (the
    // computed position can round across one).
    auto b = std::min<Eigen::Index>(n - 1, static_cast<Eigen::Index>((value - low) / (high - low) * static_cast<double>(n)));
    while (b > 0 && value < result.edges(b)) --b;
    while (b + 1 < n && value >= result.edges(b + 1)) ++b;
    result.counts(b) += 1.0;
  }
  return result;
}

std::vector<RiskRow> exact_risk(const LabConfig& config) {
  config.check();
  check_work(work::exact_risk(config), "the exact risk", [&] { return std::string("bandwidths x queries x keys = " + std::to_string(config.bandwidths.size()) + " x " +
                                   std::to_string(config.queries) + " x " + std::to_string(config.keys)); });
  const ChapterDataset data = chapter_dataset(config);
  const Eigen::Index m = data.queries.size();
  const double farthest = farthest_nearest_key(data.keys, data.queries);
  const double noise2 = config.noise * config.noise;
  std::vector<RiskRow> rows;
  rows.reserve(config.bandwidths.size());
  /// Per row: s0 = sum g, s1 = sum g f(k), s2 = sum g^2; then w.f(K) = s1/s0, ||w||^2 = s2/s0^2.
  Eigen::ArrayXd s0(m), s1(m), s2(m);
  for (const double bandwidth : config.bandwidths) {
    s0.setZero();
    s1.setZero();
    s2.setZero();
    visit_grid_gaussian(data.keys, data.queries, bandwidth, farthest,
                                               [&](Eigen::Index r, Eigen::Index i, double g) {
                                                 s0(r) += g;
                                                 s1(r) += g * data.truth_at_keys(i);
                                                 s2(r) += g * g;
                                               });
    for (Eigen::Index r = 0; r < m; ++r) {
      if (s0(r) >= smallest_trusted_weight) continue;
      const Vector g = shifted_gaussian_row(data.keys, data.queries(r), bandwidth);
      s0(r) = g.sum();
      s1(r) = g.dot(data.truth_at_keys);
      s2(r) = g.squaredNorm();
    }
    const Eigen::ArrayXd bias = s1 / s0 - data.truth_at_queries.array();
    RiskRow row{bandwidth, 2.0 * bandwidth * bandwidth, bias.square().mean(),
                noise2 * (s2 / s0.square()).mean(), 0.0};
    row.mse = row.bias2 + row.variance;
    rows.push_back(row);
  }
  return finite_rows(std::move(rows));
}

namespace {

/// Sums of one leave-one-out row at one bandwidth: \f$ S = \sum_j g_j \f$ and
/// \f$ S_v = \sum_j g_j v_j \f$ with g the unnormalised kernel weights relative to the nearest
/// other key (that key has g = 1), so the prediction is S_v / S. `distances` holds D_ij with
/// D_ii = +inf (the left-out point), `roots` their square roots (Laplacian and tricube only),
/// `nearest` and `nearest_root` the row's minima over j != i.
struct LooSums {
  double weights = 0.0;
  double weighted_values = 0.0;
};

/// S and S_v of unnormalised weights g:(n), four running sums each.
LooSums weight_sums(const double* g, const double* values, Eigen::Index n) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  double sv[4] = {0.0, 0.0, 0.0, 0.0};
  Eigen::Index j = 0;
  for (; j + 4 <= n; j += 4)
    for (int k = 0; k < 4; ++k) {
      s[k] += g[j + k];
      sv[k] += g[j + k] * values[j + k];
    }
  for (; j < n; ++j) {
    s[0] += g[j];
    sv[0] += g[j] * values[j];
  }
  return {(s[0] + s[1]) + (s[2] + s[3]), (sv[0] + sv[1]) + (sv[2] + sv[3])};
}

/// Kernel evaluations per block: the block's scratch stays in the L1 cache between the three
/// passes (scores, e^x, sums), however many keys a row has.
constexpr Eigen::Index kLooBlock = 512;

/// S and S_v of one row at one bandwidth, block by block. `buffer` (kLooBlock) is scratch space.
LooSums loo_sums(const double* distances, const double* roots, const double* values, Eigen::Index n,
                 double nearest, double nearest_root, double bandwidth, Kernel kernel, double* buffer) {
  const double h2 = bandwidth * bandwidth;
  const double rate = 1.0 / (2.0 * h2);
  const bool gaussian_direct = std::isnormal(2.0 * h2) && std::isnormal(rate);
  const bool epanechnikov_direct = std::isnormal(h2);
  LooSums total;
  for (Eigen::Index start = 0; start < n; start += kLooBlock) {
    const Eigen::Index m = std::min(kLooBlock, n - start);
    const double* d = distances + start;
    const double* r = roots + start;
    switch (kernel) {
      case Kernel::Gaussian:
        if (gaussian_direct) {
          for (Eigen::Index j = 0; j < m; ++j) buffer[j] = (nearest - d[j]) * rate;
        } else {
          // 2h^2 or its reciprocal leaves the normal range: -(sqrt(D - D_min)/h)^2 / 2 stays exact.
          for (Eigen::Index j = 0; j < m; ++j) {
            const double u = std::sqrt(d[j] - nearest) / bandwidth;
            buffer[j] = -0.5 * u * u;
          }
        }
        detail::exp_nonpositive(buffer, m);
        break;
      case Kernel::Laplacian:
        for (Eigen::Index j = 0; j < m; ++j) buffer[j] = -(r[j] - nearest_root) / bandwidth;
        detail::exp_nonpositive(buffer, m);
        break;
      case Kernel::Epanechnikov:
        for (Eigen::Index j = 0; j < m; ++j) {
          const double u2 = epanechnikov_direct ? d[j] / h2 : (r[j] / bandwidth) * (r[j] / bandwidth);
          buffer[j] = u2 < 1.0 ? 1.0 - u2 : 0.0;
        }
        break;
      case Kernel::Tricube:
        for (Eigen::Index j = 0; j < m; ++j) {
          const double u = r[j] / bandwidth;
          const double t = 1.0 - u * u * u;
          buffer[j] = u < 1.0 ? t * t * t : 0.0;
        }
        break;
    }
    const LooSums block = weight_sums(buffer, values + start, m);
    total.weights += block.weights;
    total.weighted_values += block.weighted_values;
  }
  return total;
}

/// The checks loo_curve and loo_fit share.
void check_loo_input(const MatrixRef& keys, const VectorRef& values) {
  check_matrix_shape(keys, "keys");
  check_finite(keys, "keys");
  check_finite(values, "values");
  if (keys.rows() < 2) throw std::invalid_argument("keys must have at least 2 rows for leave-one-out, got " +
                                                    std::to_string(keys.rows()));
  if (values.size() != keys.rows())
    throw std::invalid_argument("values must have one entry per key: expected " + std::to_string(keys.rows()) +
                                ", got " + std::to_string(values.size()));
}

/// Refuses a leave-one-out call whose work (work::loo) exceeds the budget, before it starts.
void check_loo_work(const MatrixRef& keys, std::size_t bandwidths, const char* what) {
  const auto n = static_cast<std::size_t>(keys.rows());
  const auto d = static_cast<std::size_t>(keys.cols());
  check_work(work::loo(static_cast<double>(n), static_cast<double>(d), static_cast<double>(bandwidths)), what, [&] {
    return std::to_string(n) + " keys x " + std::to_string(n) + " keys x (" + std::to_string(d) + " features + " +
           std::to_string(bandwidths) + (bandwidths == 1 ? " bandwidth)" : " bandwidths)");
  });
}

/// A leave-one-out risk overflows only for values near 1e154 or beyond; say so instead of
/// answering Infinity or NaN, as the laboratory's sweeps do.
[[noreturn]] KERNEL_LENS_COLD void refuse_loo_overflow(double bandwidth) {
  throw std::domain_error("the leave-one-out risk at bandwidth " + format_number(bandwidth) +
                          " overflows double precision; rescale the values");
}

void check_loo_bandwidth(double bandwidth) {
  if (bandwidth * bandwidth == 0.0)
    throw std::invalid_argument("bandwidth " + format_number(bandwidth) +
                                " is too small: 2h^2 underflows to 0 and the scores become 0/0");
}

/// One row of squared distances at a time (no n x n matrix): row i's D_ij with D_ii = +inf (the
/// left-out point), their roots for the kernels that need them, and the nearest other key's.
class LooRows {
 public:
  LooRows(const MatrixRef& keys, Kernel kernel)
      : keys_(keys),
        kernel_(kernel),
        transposed_(keys.transpose()),
        need_roots_(kernel != Kernel::Gaussian),
        distances_(keys.rows()),
        roots_(need_roots_ ? keys.rows() : 0),
        buffer_(std::min(kLooBlock, keys.rows())) {}

  void load(Eigen::Index i) {
    squared_distance_row(keys_.row(i), transposed_, distances_);
    distances_(i) = std::numeric_limits<double>::infinity();
    nearest_ = distances_.minCoeff();
    if (!std::isfinite(nearest_))
      throw std::domain_error("every squared distance from key row " + std::to_string(i) +
                              " overflows double precision (the keys lie more than about 1e154 apart); rescale "
                              "the keys");
    if (need_roots_) roots_ = distances_.cwiseSqrt();
    nearest_root_ = std::sqrt(nearest_);
  }

  /// Row i's squared distances (D_ii = +inf) and the smallest of them, from the last load.
  const Eigen::RowVectorXd& distances() const { return distances_; }
  double nearest() const { return nearest_; }

  LooSums sums(const double* values, double bandwidth) {
    return loo_sums(distances_.data(), roots_.data(), values, distances_.size(), nearest_, nearest_root_, bandwidth,
                    kernel_, buffer_.data());
  }

  /// The factor that puts loo_sums' weights on the scale where a row's own key weighs 1: they are
  /// taken relative to the nearest other key for the Gaussian and Laplacian (that key weighs 1, the
  /// own key e^{+D_min / 2h^2} resp. e^{+sqrt(D_min) / h}), so the factor is the reciprocal of the
  /// own key's weight; the compact kernels' weights are absolute and the own key has K(0) = 1.
  /// Underflows to 0 when the nearest other key is far beyond the bandwidth: the fit is then the
  /// key's own value, as attention gives.
  double own_key_scale(double bandwidth) const {
    switch (kernel_) {
      case Kernel::Gaussian: {
        const double u = nearest_root_ / bandwidth;
        return detail::exp(-0.5 * u * u);
      }
      case Kernel::Laplacian:
        return detail::exp(-nearest_root_ / bandwidth);
      case Kernel::Epanechnikov:
      case Kernel::Tricube:
        return 1.0;
    }
    return 1.0;
  }

 private:
  const MatrixRef& keys_;
  const Kernel kernel_;
  const RowMatrix transposed_;
  const bool need_roots_;
  Eigen::RowVectorXd distances_;
  Eigen::RowVectorXd roots_;
  Eigen::RowVectorXd buffer_;
  double nearest_ = 0.0;
  double nearest_root_ = 0.0;
};

}  // namespace

Vector loo_curve(const MatrixRef& keys, const VectorRef& values, const std::vector<double>& bandwidths,
                 Kernel kernel) {
  check_loo_input(keys, values);
  if (bandwidths.empty()) throw std::invalid_argument("bandwidths must not be empty");
  check_size(bandwidths.size(), Limits::max_bandwidths, "bandwidths");
  for (std::size_t i = 0; i < bandwidths.size(); ++i)
    check_bandwidth(bandwidths[i], ("bandwidths[" + std::to_string(i) + "]").c_str());
  const auto n = keys.rows();
  check_loo_work(keys, bandwidths.size(), "the leave-one-out curve");
  for (const double bandwidth : bandwidths) check_loo_bandwidth(bandwidth);

  LooRows rows(keys, kernel);
  const Vector contiguous_values = values;
  const auto count = static_cast<Eigen::Index>(bandwidths.size());
  Vector squared_errors = Vector::Zero(count);
  for (Eigen::Index i = 0; i < n; ++i) {
    rows.load(i);
    for (Eigen::Index b = 0; b < count; ++b) {
      if (std::isnan(squared_errors(b))) continue;
      const LooSums sums = rows.sums(contiguous_values.data(), bandwidths[static_cast<std::size_t>(b)]);
      if (!(sums.weights > 0.0)) {
        squared_errors(b) = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      const double residual = sums.weighted_values / sums.weights - values(i);
      squared_errors(b) += residual * residual;
      if (!std::isfinite(squared_errors(b))) refuse_loo_overflow(bandwidths[static_cast<std::size_t>(b)]);
    }
  }
  return squared_errors / static_cast<double>(n);
}

LooFit loo_fit(const MatrixRef& keys, const VectorRef& values, double bandwidth, Kernel kernel) {
  check_loo_input(keys, values);
  check_bandwidth(bandwidth, "bandwidth");
  const auto n = keys.rows();
  check_loo_work(keys, 1, "the leave-one-out fit");
  check_loo_bandwidth(bandwidth);

  LooRows rows(keys, kernel);
  const Vector contiguous_values = values;
  LooFit fit;
  fit.fitted.resize(n);
  fit.held_out.resize(n);
  double squared_errors = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    rows.load(i);
    const LooSums sums = rows.sums(contiguous_values.data(), bandwidth);
    // Held out: the other keys alone. Fitted: the own key joins with its relative weight.
    const double held_out = sums.weights > 0.0 ? sums.weighted_values / sums.weights
                                               : std::numeric_limits<double>::quiet_NaN();
    const double own = rows.own_key_scale(bandwidth);
    fit.held_out(i) = held_out;
    fit.fitted(i) = (values(i) + own * sums.weighted_values) / (1.0 + own * sums.weights);
    const double residual = held_out - values(i);
    squared_errors += residual * residual;
    // (A row without weights is NaN by design; only a residual or a sum that overflows is refused.)
    if (sums.weights > 0.0 && (!std::isfinite(residual * residual) || std::isinf(squared_errors)))
      refuse_loo_overflow(bandwidth);
  }
  fit.mse = squared_errors / static_cast<double>(n);
  return fit;
}

LooRiskGradient loo_risk_gradient(const MatrixRef& keys, const VectorRef& values, double bandwidth) {
  check_loo_input(keys, values);
  check_bandwidth(bandwidth, "bandwidth");
  const auto n = keys.rows();
  check_loo_work(keys, 1, "the leave-one-out risk gradient");
  check_loo_bandwidth(bandwidth);

  LooRows rows(keys, Kernel::Gaussian);
  const double h2 = bandwidth * bandwidth;
  Eigen::RowVectorXd weights(n);
  double risk = 0.0;
  double gradient = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    rows.load(i);
    const Eigen::RowVectorXd& distances = rows.distances();
    // Weights relative to the nearest other key (which weighs 1, so the sum is at least 1), and
    // distances shifted by the same D_min: the derivative is a covariance, unchanged by the shift.
    const double nearest = rows.nearest();
    double total = 0.0;
    double weighted_values = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double w = j == i ? 0.0 : detail::exp(-(distances(j) - nearest) / (2.0 * h2));
      weights(j) = w;
      total += w;
      weighted_values += w * values(j);
    }
    const double held_out = weighted_values / total;
    double covariance = 0.0;
    // Keys whose weight underflowed add nothing (and one whose distance overflowed would add 0 * inf).
    for (Eigen::Index j = 0; j < n; ++j)
      if (weights(j) > 0.0) covariance += weights(j) * (distances(j) - nearest) * (values(j) - held_out);
    const double residual = held_out - values(i);
    risk += residual * residual;
    gradient += 2.0 * residual * (covariance / total / h2);
  }
  if (!std::isfinite(risk) || !std::isfinite(gradient)) refuse_loo_overflow(bandwidth);
  return {risk / static_cast<double>(n), gradient / static_cast<double>(n)};
}

KERNEL_LENS_COLD LooDescent loo_descent(const MatrixRef& keys, const VectorRef& values, double start, double rate,
                                        std::size_t steps) {
  check_loo_input(keys, values);
  check_bandwidth(start, "start");
  if (!std::isfinite(rate) || !(rate > 0.0))
    throw std::invalid_argument("rate must be positive and finite, got " + format_number(rate));
  if (steps > loo_descent_max_steps)
    throw std::invalid_argument("steps is " + std::to_string(steps) + "; the limit is " +
                                std::to_string(loo_descent_max_steps));
  const auto n = static_cast<std::size_t>(keys.rows());
  const auto d = static_cast<std::size_t>(keys.cols());
  check_work(work::loo_descent(static_cast<double>(n), static_cast<double>(d), static_cast<double>(steps)), "the gradient descent", [&] {
    return std::to_string(steps + 1) + " steps x " + std::to_string(n) + " keys x " + std::to_string(n) + " keys x (" +
           std::to_string(d) + " features + 1)";
  });

  LooDescent descent;
  descent.bandwidths.reserve(steps + 1);
  descent.risks.reserve(steps + 1);
  descent.gradients.reserve(steps + 1);
  double bandwidth = start;
  for (std::size_t t = 0;; ++t) {
    const LooRiskGradient point = loo_risk_gradient(keys, values, bandwidth);
    descent.bandwidths.push_back(bandwidth);
    descent.risks.push_back(point.risk);
    descent.gradients.push_back(point.gradient);
    if (t == steps) break;
    const double next = bandwidth * detail::exp(-rate * point.gradient);
    if (!std::isfinite(next) || next * next == 0.0 || !std::isfinite(2.0 * next * next))
      throw std::invalid_argument("step " + std::to_string(t + 1) + " takes h from " + format_number(bandwidth) +
                                  " to " + format_number(next) + ", outside the bandwidths the risk is defined for; " +
                                  "take a smaller rate");
    bandwidth = next;
  }
  return descent;
}

}  // namespace kernel_lens
