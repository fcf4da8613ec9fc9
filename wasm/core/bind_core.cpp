// JavaScript surface of sections 12.1-12.5: attention, scores, softmax, limits, OLS weights.
#include "common.hpp"
#include "kernel_lens/attention.hpp"
#include "kernel_lens/ols.hpp"

namespace kernel_lens::wasm {
namespace {

Kernel to_kernel(const val& kernel) { return parse_kernel(to_optional_string(kernel, "kernel", "gaussian")); }

val attention_js(const val& queries, const val& keys, const val& values, const val& d, const val& p,
                 const val& bandwidth, const val& kernel, const val& empty_rows) {
  const std::size_t features = to_dimension(d, "d");
  const std::size_t width = to_dimension(p, "p");
  const auto result =
      attention(to_matrix(queries, features, "queries"), to_matrix(keys, features, "keys"),
                to_matrix(values, width, "values"), to_number(bandwidth, "bandwidth"), to_kernel(kernel),
                parse_empty_row_policy(to_optional_string(empty_rows, "emptyRows", "error")));
  val out = val::object();
  set_array(out, "weights", result.weights);
  set_array(out, "outputs", result.outputs);
  return out;
}

val ols_weights_js(const val& keys, const val& query, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  return to_float64_array(ols_weights(to_matrix(keys, features, "keys"), to_eigen_vector(query, "query")));
}

val ols_predict_js(const val& keys, const val& targets, const val& queries, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  const auto result = ols_predict(to_matrix(keys, features, "keys"), to_eigen_vector(targets, "targets"),
                                  to_matrix(queries, features, "queries"));
  val out = val::object();
  set_array(out, "weights", result.weights);
  set_array(out, "predictions", result.predictions);
  return out;
}

val log_scores_js(const val& queries, const val& keys, const val& d, const val& bandwidth, const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  return to_float64_array(log_scores(to_matrix(queries, features, "queries"), to_matrix(keys, features, "keys"),
                                     to_number(bandwidth, "bandwidth"), to_kernel(kernel)));
}

template <RowMatrix (*Scores)(const MatrixRef&, const MatrixRef&)>
val pairwise_js(const val& queries, const val& keys, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  return to_float64_array(Scores(to_matrix(queries, features, "queries"), to_matrix(keys, features, "keys")));
}

val row_softmax_js(const val& scores, const val& n) {
  return to_float64_array(row_softmax(to_matrix(scores, to_count(n, "n", 1, Limits::max_rows), "scores")));
}

val softmax_with_temperature_js(const val& scores, const val& n, const val& temperature) {
  return to_float64_array(
      softmax_with_temperature(to_matrix(scores, to_count(n, "n", 1, Limits::max_rows), "scores"), to_number(temperature, "temperature")));
}

val naive_normalize_js(const val& scores, const val& n) {
  return to_float64_array(naive_normalize(to_matrix(scores, to_count(n, "n", 1, Limits::max_rows), "logScores")));
}

val temperature_from_bandwidth_js(const val& bandwidth) {
  return val(temperature_from_bandwidth(to_number(bandwidth, "bandwidth")));
}

val bandwidth_from_temperature_js(const val& temperature) {
  return val(bandwidth_from_temperature(to_number(temperature, "temperature")));
}

val nearest_key_limit_js(const val& query, const val& keys, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  return to_float64_array(nearest_key_limit(to_eigen_vector(query, "query"), to_matrix(keys, features, "keys")));
}

val uniform_limit_js(const val& n) {
  return to_float64_array(uniform_limit(static_cast<Eigen::Index>(to_count(n, "n", 1, Limits::max_rows))));
}

val max_row_sum_error_js(const val& weights, const val& n) {
  return val(max_row_sum_error(to_matrix(weights, to_count(n, "n", 1, Limits::max_rows), "weights")));
}

val underflow_report_js(const val& query, const val& keys, const val& d, const val& bandwidth) {
  const std::size_t features = to_dimension(d, "d");
  const auto report = underflow_report(to_eigen_vector(query, "query"), to_matrix(keys, features, "keys"),
                                       to_number(bandwidth, "bandwidth"));
  val out = val::object();
  set_array(out, "logScores", report.log_scores);
  set_array(out, "kernelValues", report.kernel_values);
  set(out, "naiveDenominator", report.naive_denominator);
  set_array(out, "naiveWeights", report.naive_weights);
  set(out, "naiveAllFinite", report.naive_all_finite);
  set_array(out, "stableWeights", report.stable_weights);
  set(out, "stableSum", report.stable_sum);
  set(out, "nearestIndex", static_cast<double>(report.nearest_index));
  set(out, "maxAbsDifference", report.max_abs_difference ? val(*report.max_abs_difference) : val::null());
  return out;
}

val kernel_names_js() {
  val names = val::array();
  for (const auto& name : kernel_names()) names.call<void>("push", name);
  return names;
}

val limits_js() {
  val out = val::object();
  set(out, "maxCells", static_cast<double>(Limits::max_cells));
  set(out, "maxRows", static_cast<double>(Limits::max_rows));
  set(out, "maxDimension", static_cast<double>(Limits::max_dimension));
  set(out, "maxWorlds", static_cast<double>(Limits::max_worlds));
  set(out, "maxDraws", static_cast<double>(Limits::max_draws));
  set(out, "maxBandwidths", static_cast<double>(Limits::max_bandwidths));
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_core) {
  using namespace kernel_lens;
  using namespace kernel_lens::wasm;
  bind_function<attention_js>("attention", "queries keys values d p bandwidth kernel? emptyRows?");
  bind_function<ols_weights_js>("olsWeights", "keys query d");
  bind_function<ols_predict_js>("olsPredict", "keys targets queries d");
  bind_function<log_scores_js>("logScores", "queries keys d bandwidth kernel?");
  bind_function<pairwise_js<squared_distances>>("squaredDistances", "queries keys d");
  bind_function<pairwise_js<dot_product_scores>>("dotProductScores", "queries keys d");
  bind_function<pairwise_js<distance_scores>>("distanceScores", "queries keys d");
  bind_function<row_softmax_js>("rowSoftmax", "scores n");
  bind_function<softmax_with_temperature_js>("softmaxWithTemperature", "scores n temperature");
  bind_function<naive_normalize_js>("naiveNormalize", "logScores n");
  bind_function<temperature_from_bandwidth_js>("temperatureFromBandwidth", "bandwidth");
  bind_function<bandwidth_from_temperature_js>("bandwidthFromTemperature", "temperature");
  bind_function<nearest_key_limit_js>("nearestKeyLimit", "query keys d");
  bind_function<uniform_limit_js>("uniformLimit", "n");
  bind_function<max_row_sum_error_js>("maxRowSumError", "weights n");
  bind_function<underflow_report_js>("underflowReport", "query keys d bandwidth");
  bind_function<kernel_names_js>("kernelNames", "");
  bind_function<limits_js>("limits", "");
}
