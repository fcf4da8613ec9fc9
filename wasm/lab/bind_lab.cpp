// JavaScript surface of the laboratory: its config, the bias/variance audit and its worlds, exact risk,
// leave-one-out (the curve, one fit, the risk's gradient in log h), and exercises 3 and 5. Configs are plain objects; missing fields take defaults.
#include <string>
#include <vector>

#include "config.hpp"
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"

namespace kernel_lens::wasm {
namespace {

val numbers_array(const std::vector<double>& xs) {
  val out = val::array();
  for (const double x : xs) out.call<void>("push", x);
  return out;
}

val chapter_config_js() {
  const LabConfig c;
  val out = val::object();
  set(out, "keySeed", static_cast<double>(c.key_seed));
  set(out, "observedSeed", static_cast<double>(c.observed_seed));
  set(out, "monteCarloSeed", static_cast<double>(c.monte_carlo_seed));
  set(out, "keys", static_cast<double>(c.keys));
  set(out, "queries", static_cast<double>(c.queries));
  set(out, "worlds", static_cast<double>(c.worlds));
  set(out, "noise", c.noise);
  set(out, "bandwidths", numbers_array(c.bandwidths));
  set(out, "keyLow", c.key_low);
  set(out, "keyHigh", c.key_high);
  set(out, "queryLow", c.query_low);
  set(out, "queryHigh", c.query_high);
  return out;
}

val risk_rows(const std::vector<RiskRow>& rows) {
  val out = val::array();
  for (const RiskRow& row : rows) {
    val item = val::object();
    set(item, "bandwidth", row.bandwidth);
    set(item, "tau", row.tau);
    set(item, "bias2", row.bias2);
    set(item, "variance", row.variance);
    set(item, "mse", row.mse);
    out.call<void>("push", item);
  }
  return out;
}

val bias_variance_sweep_js(const val& config) { return risk_rows(bias_variance_sweep(to_lab_config(config))); }

val exact_risk_js(const val& config) { return risk_rows(exact_risk(to_lab_config(config))); }

val audit_worlds_js(const val& config, const val& bandwidth, const val& curves, const val& query) {
  const LabConfig lab = to_lab_config(config);
  const auto worlds = audit_worlds(lab, to_number(bandwidth, "bandwidth"), to_count(curves, "curves", 0, audit_worlds_max_curves),
                                   to_number(query, "query"));
  val out = val::object();
  set_array(out, "curves", worlds.curves);
  set_array(out, "meanCurve", worlds.mean_curve);
  set_array(out, "atQuery", worlds.at_query);
  set(out, "query", worlds.query);
  set(out, "queryIndex", static_cast<double>(worlds.query_index));
  set(out, "truth", worlds.truth);
  set(out, "exactMean", worlds.exact_mean);
  set(out, "exactSd", worlds.exact_sd);
  return out;
}

val histogram_js(const val& values, const val& bins) {
  const auto result = histogram(to_eigen_vector(values, "values", Limits::max_rows), to_count(bins, "bins", 1, 1000));
  val out = val::object();
  set_array(out, "edges", result.edges);
  set_array(out, "counts", result.counts);
  return out;
}

val loo_curve_js(const val& keys, const val& values, const val& d, const val& bandwidths, const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  const std::string kernel_name = to_optional_string(kernel, "kernel", "gaussian");
  return to_float64_array(loo_curve(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values", Limits::max_rows),
                                    to_numbers(bandwidths, "bandwidths", Limits::max_bandwidths), parse_kernel(kernel_name)));
}

val loo_fit_js(const val& keys, const val& values, const val& d, const val& bandwidth, const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  const std::string kernel_name = to_optional_string(kernel, "kernel", "gaussian");
  const LooFit fit = loo_fit(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values", Limits::max_rows),
                             to_number(bandwidth, "bandwidth"), parse_kernel(kernel_name));
  val out = val::object();
  set_array(out, "fitted", fit.fitted);
  set_array(out, "heldOut", fit.held_out);
  set(out, "mse", fit.mse);
  return out;
}

val loo_risk_gradient_js(const val& keys, const val& values, const val& d, const val& bandwidth) {
  const std::size_t features = to_dimension(d, "d");
  const LooRiskGradient result = loo_risk_gradient(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values", Limits::max_rows),
                                                   to_number(bandwidth, "bandwidth"));
  val out = val::object();
  set(out, "risk", result.risk);
  set(out, "gradient", result.gradient);
  return out;
}

val loo_descent_js(const val& keys, const val& values, const val& d, const val& start, const val& rate,
                   const val& steps) {
  const std::size_t features = to_dimension(d, "d");
  const LooDescent descent = loo_descent(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values", Limits::max_rows),
                                         to_number(start, "start"), to_number(rate, "rate"),
                                         to_count(steps, "steps", 0, loo_descent_max_steps));
  val out = val::object();
  set_array(out, "bandwidths", descent.bandwidths.data(), descent.bandwidths.size());
  set_array(out, "risks", descent.risks.data(), descent.risks.size());
  set_array(out, "gradients", descent.gradients.data(), descent.gradients.size());
  return out;
}

val bandwidth_selection_js(const val& config) {
  const SelectionResult r = bandwidth_selection(to_selection_config(config));
  val out = val::object();
  set_array(out, "trainKeys", r.train_keys);
  set_array(out, "trainValues", r.train_values);
  set_array(out, "validationKeys", r.validation_keys);
  set_array(out, "validationValues", r.validation_values);
  set_array(out, "testKeys", r.test_keys);
  set_array(out, "testValues", r.test_values);
  set_array(out, "bandwidths", r.bandwidths);
  set_array(out, "trainingMse", r.training_mse);
  set_array(out, "validationMse", r.validation_mse);
  set_array(out, "looMse", r.loo_mse);
  set(out, "selectedIndex", static_cast<double>(r.selected_index));
  set(out, "selectedBandwidth", r.bandwidths[r.selected_index]);
  set(out, "testMse", r.test_mse);
  set(out, "looSelectedIndex", static_cast<double>(r.loo_selected_index));
  set(out, "looBandwidth", r.bandwidths[r.loo_selected_index]);
  set(out, "looTestMse", r.loo_test_mse);
  val truth_minimum = val::object();
  set(truth_minimum, "index", static_cast<double>(r.truth_index));
  set(truth_minimum, "bandwidth", r.bandwidths[r.truth_index]);
  set(truth_minimum, "mse", r.truth_mse);
  set(truth_minimum, "testMse", r.truth_test_mse);
  set(out, "truthGridMinimum", truth_minimum);
  set_array(out, "curveQueries", r.curve_queries);
  set_array(out, "truthCurve", r.truth_curve);
  set_array(out, "selectedCurve", r.selected_curve);
  set_array(out, "looCurve", r.loo_curve);
  set_array(out, "truthGridCurve", r.truth_grid_curve);
  return out;
}

val standardize_exercise_js(const val& config) {
  const StandardizeConfig c = to_standardize_config(config);
  const StandardizeResult r = standardize_exercise(c);
  val out = val::object();
  set(out, "keyCount", static_cast<double>(c.keys));
  set(out, "queryCount", static_cast<double>(c.queries));
  set(out, "bandwidth", c.bandwidth);
  set_array(out, "featureScales", c.feature_scales);
  set_array(out, "rawKeys", r.raw_keys);
  set_array(out, "rawQueries", r.raw_queries);
  set_array(out, "standardizedKeys", r.standardized_keys);
  set_array(out, "standardizedQueries", r.standardized_queries);
  set_array(out, "values", r.values);
  set_array(out, "mean", r.mean);
  set_array(out, "scale", r.scale);
  set_array(out, "rawWeights", r.raw_weights);
  set_array(out, "standardizedWeights", r.standardized_weights);
  set_array(out, "truthAtQueries", r.truth_at_queries);
  set_array(out, "rawPredictions", r.raw_predictions);
  set_array(out, "standardizedPredictions", r.standardized_predictions);
  set(out, "rawMse", r.raw_mse);
  set(out, "standardizedMse", r.standardized_mse);
  set_array(out, "rawDistanceShare", r.raw_distance_share);
  set_array(out, "standardizedDistanceShare", r.standardized_distance_share);
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_lab) {
  using namespace kernel_lens::wasm;
  bind_function<chapter_config_js>("chapterConfig", "");
  bind_function<bias_variance_sweep_js>("biasVarianceSweep", "config?");
  bind_function<exact_risk_js>("exactRisk", "config?");
  bind_function<audit_worlds_js>("auditWorlds", "config bandwidth curves query");
  bind_function<histogram_js>("histogram", "values bins");
  bind_function<loo_curve_js>("looCurve", "keys values d bandwidths kernel?");
  bind_function<loo_fit_js>("looFit", "keys values d bandwidth kernel?");
  bind_function<loo_risk_gradient_js>("looRiskGradient", "keys values d bandwidth");
  bind_function<loo_descent_js>("looDescent", "keys values d start rate steps");
  bind_function<bandwidth_selection_js>("bandwidthSelection", "config?");
  bind_function<standardize_exercise_js>("standardizeExercise", "config?");
  bind_function<memory_usage>("labMemoryUsage", "");
}
