#pragma once
/// The chapter's code exercises: 3 (select h when the truth is hidden) and 5 (2-D keys in mixed
/// units, before and after standardising with training-set statistics).
#include <array>
#include <cstdint>
#include <vector>

#include "kernel_lens/laboratory.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// Exercise 3. One fresh sample from default_rng(seed): x = uniform(key_low, key_high, N),
/// y = f(x) + normal(0, noise, N), N = train + validation + test; the first `train` draws train,
/// the next `validation` validate, the last `test` are the sealed test set (each sorted by x).
struct SelectionConfig {
  std::uint64_t seed = 605015;
  std::size_t train = 60;
  std::size_t validation = 40;
  std::size_t test = 40;
  double noise = 0.25;
  std::vector<double> bandwidths = {0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00};
  double key_low = -3.0;
  double key_high = 3.0;
  std::size_t curve_points = 241;  ///< linspace(query_low, query_high, curve_points) for the curves
  double query_low = -2.9;
  double query_high = 2.9;

  /// train >= 2, validation >= 1, test >= 1, their sum <= max_rows, and the LabConfig rules for
  /// the rest; throws std::invalid_argument / std::length_error.
  void check() const;
};

struct SelectionResult {
  Vector train_keys, train_values;            ///< (train)
  Vector validation_keys, validation_values;  ///< (validation)
  Vector test_keys, test_values;              ///< (test)
  std::vector<double> bandwidths;
  Vector training_mse;    ///< resubstitution error on the training set, per bandwidth
  Vector validation_mse;  ///< train -> validation, per bandwidth
  Vector loo_mse;         ///< leave-one-out on the training set, per bandwidth
  std::size_t selected_index = 0;  ///< argmin validation_mse (first on ties)
  double test_mse = 0.0;           ///< train -> sealed test at the selected h, reported once
  std::size_t loo_selected_index = 0;
  double loo_test_mse = 0.0;
  std::size_t truth_index = 0;  ///< grid minimum of the chapter's synthetic-truth audit (same grid, noise)
  double truth_mse = 0.0;       ///< that audit's MSE at truth_index
  double truth_test_mse = 0.0;  ///< train -> sealed test at the audit's h
  Vector curve_queries;         ///< (curve_points)
  Vector truth_curve;           ///< f on curve_queries
  Vector selected_curve;        ///< predictions from the training set at the selected h
  Vector loo_curve;             ///< ... at the leave-one-out choice
  Vector truth_grid_curve;      ///< ... at the audit's grid minimum
};

SelectionResult bandwidth_selection(const SelectionConfig& config);

/// Exercise 5. Natural coordinates u ~ uniform(-3, 3) in both features, keys (keys, 2) then
/// values y = sin(1.5 u1) + 0.3 cos(4 u2) + normal(0, noise), then queries (queries, 2), all from
/// default_rng(seed) in that order; both sets sorted by u1. Reported units: x_j = u_j scale_j.
struct StandardizeConfig {
  std::uint64_t seed = 605016;
  std::size_t keys = 60;
  std::size_t queries = 31;
  double noise = 0.25;
  double bandwidth = 0.5;  ///< the same h in both unit systems
  std::array<double, 2> feature_scales = {1.0, 1000.0};

  /// Scales outside [min, max] overflow (or underflow) double precision once keys are squared.
  static constexpr double max_feature_scale = 1e150;
  static constexpr double min_feature_scale = 1e-150;

  /// keys >= 2, queries >= 1, caps, noise >= 0, h > 0, scales positive and finite and within
  /// [min_feature_scale, max_feature_scale] (std::domain_error naming the overflow).
  void check() const;
};

struct StandardizeResult {
  RowMatrix raw_keys, raw_queries;                    ///< (keys, 2), (queries, 2) in reported units
  RowMatrix standardized_keys, standardized_queries;  ///< (x - mean) / scale
  Vector values;                                      ///< (keys)
  std::array<double, 2> mean{};                       ///< training (key) means per feature
  std::array<double, 2> scale{};                      ///< training standard deviations (ddof 0)
  RowMatrix raw_weights;                              ///< A before standardising, (queries, keys)
  RowMatrix standardized_weights;                     ///< A after, (queries, keys)
  Vector truth_at_queries, raw_predictions, standardized_predictions;  ///< (queries)
  double raw_mse = 0.0, standardized_mse = 0.0;      ///< against the noiseless truth
  /// Share of the summed squared query-key distance owed to each feature.
  std::array<double, 2> raw_distance_share{}, standardized_distance_share{};
};

StandardizeResult standardize_exercise(const StandardizeConfig& config);

/// y = sin(1.5 u1) + 0.3 cos(4 u2) on natural coordinates U:(m, 2).
Vector truth_2d(const MatrixRef& natural);

}  // namespace kernel_lens
