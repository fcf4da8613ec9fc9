// JavaScript surface of the laboratory: the chapter's dataset, the bias/variance audit, exact risk,
// leave-one-out, and exercises 3 and 5. Configs are plain objects; missing fields take defaults.
#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "common.hpp"
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {
namespace {

using Setter = std::function<void(const val&)>;

/// Applies each own field of `object` through its setter; TypeError for a non-object or an
/// unknown field. `undefined` means "all defaults".
void read_fields(const val& object, const std::map<std::string, Setter>& setters, const char* what) {
  if (object.isUndefined()) return;
  if (object.isNull() || object.typeOf().as<std::string>() != "object" || object.isArray())
    throw ArgumentTypeError(std::string(what) + " must be a plain object");
  const val names = val::global("Object").call<val>("keys", object);
  const auto count = names["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const auto name = names[i].as<std::string>();
    const auto setter = setters.find(name);
    if (setter == setters.end()) {
      std::string known;
      for (const auto& entry : setters) known += (known.empty() ? "" : ", ") + entry.first;
      throw ArgumentTypeError(std::string(what) + " has an unknown field \"" + name + "\"; expected one of " + known);
    }
    setter->second(object[name]);
  }
}

/// A non-negative integer up to 2^53 - 1 (sizes and seeds); the core checks minima and caps.
std::uint64_t to_integer(const val& v, const char* name) {
  const double x = to_number(v, name);
  if (!std::isfinite(x) || x != std::floor(x) || x < 0.0 || x > static_cast<double>(max_seed))
    throw std::invalid_argument(std::string(name) + " must be an integer from 0 to 2^53 - 1, got " + format_number(x));
  return static_cast<std::uint64_t>(x);
}

std::size_t to_size(const val& v, const char* name) { return static_cast<std::size_t>(to_integer(v, name)); }

std::vector<double> to_numbers(const val& v, const char* name) {
  check_array_like(v, name);
  const auto length = v["length"].as<std::size_t>();
  for (std::size_t i = 0; i < length && v.isArray(); ++i)
    if (!v[i].isNumber()) throw ArgumentTypeError(std::string(name) + "[" + std::to_string(i) + "] must be a number");
  return to_vector(v, name);
}

LabConfig to_lab_config(const val& object) {
  LabConfig c;
  read_fields(object,
              {{"keySeed", [&](const val& v) { c.key_seed = to_integer(v, "keySeed"); }},
               {"observedSeed", [&](const val& v) { c.observed_seed = to_integer(v, "observedSeed"); }},
               {"monteCarloSeed", [&](const val& v) { c.monte_carlo_seed = to_integer(v, "monteCarloSeed"); }},
               {"keys", [&](const val& v) { c.keys = to_size(v, "keys"); }},
               {"queries", [&](const val& v) { c.queries = to_size(v, "queries"); }},
               {"worlds", [&](const val& v) { c.worlds = to_size(v, "worlds"); }},
               {"noise", [&](const val& v) { c.noise = to_number(v, "noise"); }},
               {"bandwidths", [&](const val& v) { c.bandwidths = to_numbers(v, "bandwidths"); }},
               {"keyLow", [&](const val& v) { c.key_low = to_number(v, "keyLow"); }},
               {"keyHigh", [&](const val& v) { c.key_high = to_number(v, "keyHigh"); }},
               {"queryLow", [&](const val& v) { c.query_low = to_number(v, "queryLow"); }},
               {"queryHigh", [&](const val& v) { c.query_high = to_number(v, "queryHigh"); }}},
              "config");
  c.check();
  return c;
}

val numbers_array(const std::vector<double>& xs) {
  val out = val::array();
  for (const double x : xs) out.call<void>("push", x);
  return out;
}

val chapter_config_js() {
  const LabConfig c;
  val out = val::object();
  out.set("keySeed", static_cast<double>(c.key_seed));
  out.set("observedSeed", static_cast<double>(c.observed_seed));
  out.set("monteCarloSeed", static_cast<double>(c.monte_carlo_seed));
  out.set("keys", static_cast<double>(c.keys));
  out.set("queries", static_cast<double>(c.queries));
  out.set("worlds", static_cast<double>(c.worlds));
  out.set("noise", c.noise);
  out.set("bandwidths", numbers_array(c.bandwidths));
  out.set("keyLow", c.key_low);
  out.set("keyHigh", c.key_high);
  out.set("queryLow", c.query_low);
  out.set("queryHigh", c.query_high);
  return out;
}

val chapter_dataset_js(val config) {
  return guarded([&] {
    const ChapterDataset data = chapter_dataset(to_lab_config(config));
    val out = val::object();
    out.set("keys", to_float64_array(data.keys));
    out.set("observedValues", to_float64_array(data.observed_values));
    out.set("queries", to_float64_array(data.queries));
    out.set("truthAtKeys", to_float64_array(data.truth_at_keys));
    out.set("truthAtQueries", to_float64_array(data.truth_at_queries));
    return out;
  });
}

val truth_js(val xs) {
  return guarded([&] {
    const Vector x = to_eigen_vector(xs, "xs");
    check_size(static_cast<std::size_t>(x.size()), Limits::max_draws, "xs");
    return to_float64_array(truth(x));
  });
}

val linspace_js(val start, val stop, val count) {
  return guarded([&] {
    return to_float64_array(linspace(to_number(start, "start"), to_number(stop, "stop"), to_count(count, "count", 0)));
  });
}

val risk_rows(const std::vector<RiskRow>& rows) {
  val out = val::array();
  for (const RiskRow& row : rows) {
    val item = val::object();
    item.set("bandwidth", row.bandwidth);
    item.set("tau", row.tau);
    item.set("bias2", row.bias2);
    item.set("variance", row.variance);
    item.set("mse", row.mse);
    out.call<void>("push", item);
  }
  return out;
}

val bias_variance_sweep_js(val config) {
  return guarded([&] { return risk_rows(bias_variance_sweep(to_lab_config(config))); });
}

val exact_risk_js(val config) {
  return guarded([&] { return risk_rows(exact_risk(to_lab_config(config))); });
}

val loo_curve_js(val keys, val values, val d, val bandwidths, val kernel) {
  return guarded([&] {
    const std::size_t features = to_dimension(d, "d");
    const std::string kernel_name = to_optional_string(kernel, "kernel", "gaussian");
    return to_float64_array(loo_curve(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values"),
                                      to_numbers(bandwidths, "bandwidths"), parse_kernel(kernel_name)));
  });
}

val bandwidth_selection_js(val config) {
  return guarded([&] {
    SelectionConfig c;
    read_fields(config,
                {{"seed", [&](const val& v) { c.seed = to_integer(v, "seed"); }},
                 {"train", [&](const val& v) { c.train = to_size(v, "train"); }},
                 {"validation", [&](const val& v) { c.validation = to_size(v, "validation"); }},
                 {"test", [&](const val& v) { c.test = to_size(v, "test"); }},
                 {"noise", [&](const val& v) { c.noise = to_number(v, "noise"); }},
                 {"bandwidths", [&](const val& v) { c.bandwidths = to_numbers(v, "bandwidths"); }},
                 {"keyLow", [&](const val& v) { c.key_low = to_number(v, "keyLow"); }},
                 {"keyHigh", [&](const val& v) { c.key_high = to_number(v, "keyHigh"); }},
                 {"curvePoints", [&](const val& v) { c.curve_points = to_size(v, "curvePoints"); }},
                 {"queryLow", [&](const val& v) { c.query_low = to_number(v, "queryLow"); }},
                 {"queryHigh", [&](const val& v) { c.query_high = to_number(v, "queryHigh"); }}},
                "config");
    const SelectionResult r = bandwidth_selection(c);
    val out = val::object();
    out.set("trainKeys", to_float64_array(r.train_keys));
    out.set("trainValues", to_float64_array(r.train_values));
    out.set("validationKeys", to_float64_array(r.validation_keys));
    out.set("validationValues", to_float64_array(r.validation_values));
    out.set("testKeys", to_float64_array(r.test_keys));
    out.set("testValues", to_float64_array(r.test_values));
    out.set("bandwidths", to_float64_array(r.bandwidths));
    out.set("trainingMse", to_float64_array(r.training_mse));
    out.set("validationMse", to_float64_array(r.validation_mse));
    out.set("looMse", to_float64_array(r.loo_mse));
    out.set("selectedIndex", static_cast<double>(r.selected_index));
    out.set("selectedBandwidth", r.bandwidths[r.selected_index]);
    out.set("testMse", r.test_mse);
    out.set("looSelectedIndex", static_cast<double>(r.loo_selected_index));
    out.set("looBandwidth", r.bandwidths[r.loo_selected_index]);
    out.set("looTestMse", r.loo_test_mse);
    val truth_minimum = val::object();
    truth_minimum.set("index", static_cast<double>(r.truth_index));
    truth_minimum.set("bandwidth", r.bandwidths[r.truth_index]);
    truth_minimum.set("mse", r.truth_mse);
    truth_minimum.set("testMse", r.truth_test_mse);
    out.set("truthGridMinimum", truth_minimum);
    out.set("curveQueries", to_float64_array(r.curve_queries));
    out.set("truthCurve", to_float64_array(r.truth_curve));
    out.set("selectedCurve", to_float64_array(r.selected_curve));
    out.set("looCurve", to_float64_array(r.loo_curve));
    out.set("truthGridCurve", to_float64_array(r.truth_grid_curve));
    return out;
  });
}

val standardize_exercise_js(val config) {
  return guarded([&] {
    StandardizeConfig c;
    read_fields(config,
                {{"seed", [&](const val& v) { c.seed = to_integer(v, "seed"); }},
                 {"keys", [&](const val& v) { c.keys = to_size(v, "keys"); }},
                 {"queries", [&](const val& v) { c.queries = to_size(v, "queries"); }},
                 {"noise", [&](const val& v) { c.noise = to_number(v, "noise"); }},
                 {"bandwidth", [&](const val& v) { c.bandwidth = to_number(v, "bandwidth"); }},
                 {"featureScales",
                  [&](const val& v) {
                    const std::vector<double> scales = to_numbers(v, "featureScales");
                    if (scales.size() != 2)
                      throw std::invalid_argument("featureScales must have 2 entries, got " +
                                                  std::to_string(scales.size()));
                    c.feature_scales = {scales[0], scales[1]};
                  }}},
                "config");
    const StandardizeResult r = standardize_exercise(c);
    const auto pair = [](const std::array<double, 2>& x) { return to_float64_array(x.data(), 2); };
    val out = val::object();
    out.set("keyCount", static_cast<double>(c.keys));
    out.set("queryCount", static_cast<double>(c.queries));
    out.set("bandwidth", c.bandwidth);
    out.set("featureScales", pair(c.feature_scales));
    out.set("rawKeys", to_float64_array(r.raw_keys));
    out.set("rawQueries", to_float64_array(r.raw_queries));
    out.set("standardizedKeys", to_float64_array(r.standardized_keys));
    out.set("standardizedQueries", to_float64_array(r.standardized_queries));
    out.set("values", to_float64_array(r.values));
    out.set("mean", pair(r.mean));
    out.set("scale", pair(r.scale));
    out.set("rawWeights", to_float64_array(r.raw_weights));
    out.set("standardizedWeights", to_float64_array(r.standardized_weights));
    out.set("truthAtQueries", to_float64_array(r.truth_at_queries));
    out.set("rawPredictions", to_float64_array(r.raw_predictions));
    out.set("standardizedPredictions", to_float64_array(r.standardized_predictions));
    out.set("rawMse", r.raw_mse);
    out.set("standardizedMse", r.standardized_mse);
    out.set("rawDistanceShare", pair(r.raw_distance_share));
    out.set("standardizedDistanceShare", pair(r.standardized_distance_share));
    return out;
  });
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_lab) {
  using namespace kernel_lens::wasm;
  emscripten::function("chapterConfig", &chapter_config_js);
  function_with_optional_arguments<1, chapter_dataset_js>("chapterDataset");
  function_with_optional_arguments<1, truth_js>("truth");
  function_with_optional_arguments<3, linspace_js>("linspace");
  function_with_optional_arguments<1, bias_variance_sweep_js>("biasVarianceSweep");
  function_with_optional_arguments<1, exact_risk_js>("exactRisk");
  function_with_optional_arguments<5, loo_curve_js>("looCurve");
  function_with_optional_arguments<1, bandwidth_selection_js>("bandwidthSelection");
  function_with_optional_arguments<1, standardize_exercise_js>("standardizeExercise");
}
