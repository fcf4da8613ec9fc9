// JavaScript surface of sections 12.1-12.5: attention, scores, softmax, limits, OLS weights.
#include <algorithm>
#include <cmath>

#include "common.hpp"
#include "config.hpp"
#include "kernel_lens/attention.hpp"
#include "kernel_lens/attention_map.hpp"
#include "kernel_lens/ols.hpp"

namespace kernel_lens::wasm {
namespace {

Kernel to_kernel(const val& kernel) { return parse_kernel(to_optional_string(kernel, "kernel", "gaussian")); }

/// A new Float64Array of `count` numbers.
val new_array(std::size_t count) { return val::global("Float64Array").new_(static_cast<double>(count)); }

/// `into.<name>` when it is a Float64Array of exactly `count` numbers; a new array when it is
/// missing; undefined when it is `false` (that result is not wanted); TypeError otherwise.
val destination(const val& into, const char* name, std::size_t count) {
  const val array = into[name];
  if (array.isUndefined()) return new_array(count);
  if (array.isFalse()) return val::undefined();
  const std::string label = std::string("into.") + name;
  reading("into");
  const double length = float64_length(array);
  if (length < 0.0) throw ArgumentTypeError(label + " must be a Float64Array or false");
  if (length != static_cast<double>(count))
    throw ArgumentTypeError(label + " must hold " + std::to_string(count) + " numbers, got " + format_number(length));
  return array;
}

/// Copies `block` (rows from `first_row` on, `width` numbers each) into `destination`, unless the
/// caller asked for that result not to be returned.
void copy_rows(const val& destination, Eigen::Index first_row, std::size_t width, const MatrixRef& block) {
  if (destination.isUndefined()) return;
  copy_into(destination, val(emscripten::typed_memory_view(block.size(), block.data())),
            static_cast<double>(first_row) * static_cast<double>(width));
}

/// With `into` = { weights, outputs } (Float64Arrays of m·n and m·p numbers), the results are
/// copied into those arrays, which are returned: a caller that draws every frame reuses its
/// arrays instead of having new ones allocated (a fresh 32 MB array costs more than the math).
/// A field left out gets a new array; a field set to `false` leaves that result out of the
/// answer: { weights: false } returns the outputs alone, and no (m, n) array is made or filled.
val attention_js(const val& queries, const val& keys, const val& values, const val& d, const val& p,
                 const val& bandwidth, const val& kernel, const val& empty_rows, const val& into) {
  const std::size_t features = to_dimension(d, "d");
  const std::size_t width = to_dimension(p, "p");
  check_attention_shapes(list_shape(queries, features, "queries"), list_shape(keys, features, "keys"),
                         list_shape(values, width, "values"));  // before anything is copied
  const RowMatrix query_rows = to_matrix(queries, features, "queries");
  const RowMatrix key_rows = to_matrix(keys, features, "keys");
  const RowMatrix value_rows = to_matrix(values, width, "values");
  const double h = to_number(bandwidth, "bandwidth");
  check_attention_inputs(query_rows, key_rows, value_rows, h);  // before any array is allocated
  reading(nullptr);
  const auto m = static_cast<std::size_t>(query_rows.rows());
  const auto n = static_cast<std::size_t>(key_rows.rows());
  val weights = val::undefined();
  val outputs = val::undefined();
  if (into.isUndefined()) {
    weights = new_array(m * n);
    outputs = new_array(m * width);
  } else {
    if (into.isNull() || into.typeOf().as<std::string>() != "object" || into.isArray() ||
        val::global("ArrayBuffer").call<bool>("isView", into))
      throw ArgumentTypeError("into must be an object { weights, outputs } of Float64Arrays");
    weights = destination(into, "weights", m * n);
    outputs = destination(into, "outputs", m * width);
  }
  // Blocks of about 1 MB of weights, copied out while they are still in the cache. Each block
  // costs two calls into JavaScript: at 2048 x 2048, 256 calls with 256 kB blocks took about 1 ms
  // of a 15 ms call, 64 calls with 1 MB blocks about a quarter of that (docs/speed.md).
  const auto block_rows = static_cast<Eigen::Index>(std::max<std::size_t>(1, 131072 / std::max<std::size_t>(n, 1)));
  attention_blocks(query_rows, key_rows, value_rows, h, to_kernel(kernel),
                   parse_empty_row_policy(to_optional_string(empty_rows, "emptyRows", "error")), block_rows,
                   [&](Eigen::Index first, const MatrixRef& block_weights, const MatrixRef& block_outputs) {
                     copy_rows(weights, first, n, block_weights);
                     copy_rows(outputs, first, width, block_outputs);
                   });
  val out = val::object();
  if (!weights.isUndefined()) out.set("weights", weights);
  if (!outputs.isUndefined()) out.set("outputs", outputs);
  return out;
}

/// The attention-map figure's frame (attention_map): `view` = { scale?, row?, width?, height?, palette }.
val attention_map_js(const val& queries, const val& keys, const val& values, const val& d, const val& p,
                     const val& bandwidth, const val& view, const val& kernel, const val& empty_rows) {
  const std::size_t features = to_dimension(d, "d");
  const std::size_t width = to_dimension(p, "p");
  check_attention_shapes(list_shape(queries, features, "queries"), list_shape(keys, features, "keys"),
                         list_shape(values, width, "values"));  // before anything is copied
  if (view.isUndefined()) throw ArgumentTypeError("view must be an object { scale?, row?, width?, height?, palette }");
  std::string scale = "linear";
  std::size_t row = 0, pixels_wide = 0, pixels_high = 0;
  std::vector<double> palette;
  read_fields(view, {{"height", &pixels_high}, {"palette", &palette, palette_colours * 4}, {"row", &row}, {"scale", &scale}, {"width", &pixels_wide}},
              "view");
  AttentionMapRequest request;
  request.scale = parse_colour_scale(scale);
  request.row = static_cast<Eigen::Index>(row);
  request.width = static_cast<Eigen::Index>(pixels_wide);
  request.height = static_cast<Eigen::Index>(pixels_high);
  request.palette.reserve(palette.size());
  for (const double byte : palette) {
    if (!(byte >= 0.0 && byte <= 255.0 && byte == std::floor(byte)))
      throw std::invalid_argument("palette entries must be integers from 0 to 255, got " + format_number(byte));
    request.palette.push_back(static_cast<std::uint8_t>(byte));
  }
  const auto map = attention_map(to_matrix(queries, features, "queries"), to_matrix(keys, features, "keys"),
                                 to_matrix(values, width, "values"), to_number(bandwidth, "bandwidth"), request,
                                 to_kernel(kernel), parse_empty_row_policy(to_optional_string(empty_rows, "emptyRows", "error")));
  val out = val::object();
  out.set("image", copy_out(val(emscripten::typed_memory_view(map.image.size(), map.image.data()))));
  set(out, "width", static_cast<double>(map.width));
  set(out, "height", static_cast<double>(map.height));
  set_array(out, "outputs", map.outputs);
  set_array(out, "rowWeights", map.row_weights);
  set(out, "maxRowSumError", map.max_row_sum_error);
  set(out, "low", map.low);
  set(out, "high", map.high);
  set(out, "zeros", map.zeros);
  return out;
}

val ols_weights_js(const val& keys, const val& query, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  return to_float64_array(ols_weights(to_matrix(keys, features, "keys"), to_eigen_vector(query, "query", Limits::max_dimension)));
}

val ols_predict_js(const val& keys, const val& targets, const val& queries, const val& d) {
  const std::size_t features = to_dimension(d, "d");
  const auto result = ols_predict(to_matrix(keys, features, "keys"), to_eigen_vector(targets, "targets", Limits::max_rows),
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
  return to_float64_array(nearest_key_limit(to_eigen_vector(query, "query", Limits::max_dimension), to_matrix(keys, features, "keys")));
}

val uniform_limit_js(const val& n) {
  return to_float64_array(uniform_limit(static_cast<Eigen::Index>(to_count(n, "n", 1, Limits::max_rows))));
}

val row_sums_js(const val& weights, const val& n) {
  return to_float64_array(row_sums(to_matrix(weights, to_count(n, "n", 1, Limits::max_rows), "weights")));
}

val max_row_sum_error_js(const val& weights, const val& n) {
  return val(max_row_sum_error(to_matrix(weights, to_count(n, "n", 1, Limits::max_rows), "weights")));
}

val underflow_report_js(const val& query, const val& keys, const val& d, const val& bandwidth) {
  const std::size_t features = to_dimension(d, "d");
  const auto report = underflow_report(to_eigen_vector(query, "query", Limits::max_dimension), to_matrix(keys, features, "keys"),
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
  set(out, "maxWork", Limits::max_work);
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_core) {
  using namespace kernel_lens;
  using namespace kernel_lens::wasm;
  bind_function<attention_js>("attention", "queries keys values d p bandwidth kernel? emptyRows? into?");
  bind_function<attention_map_js>("attentionMap", "queries keys values d p bandwidth view kernel? emptyRows?");
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
  bind_function<row_sums_js>("rowSums", "weights n");
  bind_function<max_row_sum_error_js>("maxRowSumError", "weights n");
  bind_function<underflow_report_js>("underflowReport", "query keys d bandwidth");
  bind_function<kernel_names_js>("kernelNames", "");
  bind_function<limits_js>("limits", "");
}
