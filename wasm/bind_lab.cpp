// JavaScript surface of the laboratory: the chapter's dataset, the bias/variance audit, exact risk,
// leave-one-out, and exercises 3 and 5. Configs are plain objects; missing fields take defaults.
#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "common.hpp"
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {
namespace {

/// A non-negative integer up to 2^53 - 1 (sizes and seeds); the core checks minima and caps.
std::uint64_t to_integer(const val& v, const char* name) {
  const double x = to_number(v, name);
  if (!std::isfinite(x) || x != std::floor(x) || x < 0.0 || x > static_cast<double>(max_seed))
    throw std::invalid_argument(std::string(name) + " must be an integer from 0 to 2^53 - 1, got " + format_number(x));
  return static_cast<std::uint64_t>(x);
}

std::vector<double> to_numbers(const val& v, const char* name) {
  check_array_like(v, name);
  const auto length = v["length"].as<std::size_t>();
  for (std::size_t i = 0; i < length && v.isArray(); ++i)
    if (!v[i].isNumber()) throw ArgumentTypeError(std::string(name) + "[" + std::to_string(i) + "] must be a number");
  return to_vector(v, name);
}

/// One field of a config object: its JavaScript name and the member it sets, read as the
/// member's type says (a seed, a size, a number, a list of numbers or a pair of numbers).
class Field {
 public:
  Field(const char* name, std::uint64_t* seed) : name(name), kind_(Kind::Seed), target_(seed) {}
  Field(const char* name, std::size_t* size) : name(name), kind_(Kind::Size), target_(size) {}
  Field(const char* name, double* number) : name(name), kind_(Kind::Number), target_(number) {}
  Field(const char* name, std::vector<double>* numbers) : name(name), kind_(Kind::Numbers), target_(numbers) {}
  Field(const char* name, std::array<double, 2>* pair) : name(name), kind_(Kind::Pair), target_(pair) {}

  void read(const val& value) const {
    switch (kind_) {
      case Kind::Seed:
        *static_cast<std::uint64_t*>(target_) = to_integer(value, name);
        break;
      case Kind::Size:
        *static_cast<std::size_t*>(target_) = static_cast<std::size_t>(to_integer(value, name));
        break;
      case Kind::Number:
        *static_cast<double*>(target_) = to_number(value, name);
        break;
      case Kind::Numbers:
        *static_cast<std::vector<double>*>(target_) = to_numbers(value, name);
        break;
      case Kind::Pair: {
        const std::vector<double> pair = to_numbers(value, name);
        if (pair.size() != 2)
          throw std::invalid_argument(std::string(name) + " must have 2 entries, got " + std::to_string(pair.size()));
        *static_cast<std::array<double, 2>*>(target_) = {pair[0], pair[1]};
        break;
      }
    }
  }

  const char* name;

 private:
  enum class Kind { Seed, Size, Number, Numbers, Pair };
  Kind kind_;
  void* target_;
};

/// Reads each own field of `object` into its member; TypeError for a non-object or an unknown
/// field, whose message lists `fields` in their order (alphabetical in every table below).
/// `undefined` means "all defaults".
void read_fields(const val& object, std::initializer_list<Field> fields, const char* what) {
  if (object.isUndefined()) return;
  if (object.isNull() || object.typeOf().as<std::string>() != "object" || object.isArray())
    throw ArgumentTypeError(std::string(what) + " must be a plain object");
  const val names = val::global("Object").call<val>("keys", object);
  const auto count = names["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const auto name = names[i].as<std::string>();
    const auto field = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
    if (field == fields.end()) {
      std::string known;
      for (const Field& f : fields) known += (known.empty() ? "" : ", ") + std::string(f.name);
      throw ArgumentTypeError(std::string(what) + " has an unknown field \"" + name + "\"; expected one of " + known);
    }
    field->read(object[name]);
  }
}

LabConfig to_lab_config(const val& object) {
  LabConfig c;
  read_fields(object,
              {{"bandwidths", &c.bandwidths},
               {"keyHigh", &c.key_high},
               {"keyLow", &c.key_low},
               {"keySeed", &c.key_seed},
               {"keys", &c.keys},
               {"monteCarloSeed", &c.monte_carlo_seed},
               {"noise", &c.noise},
               {"observedSeed", &c.observed_seed},
               {"queries", &c.queries},
               {"queryHigh", &c.query_high},
               {"queryLow", &c.query_low},
               {"worlds", &c.worlds}},
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

val chapter_dataset_js(const val& config) {
  const ChapterDataset data = chapter_dataset(to_lab_config(config));
  val out = val::object();
  set_array(out, "keys", data.keys);
  set_array(out, "observedValues", data.observed_values);
  set_array(out, "queries", data.queries);
  set_array(out, "truthAtKeys", data.truth_at_keys);
  set_array(out, "truthAtQueries", data.truth_at_queries);
  return out;
}

val truth_js(const val& xs) {
  const Vector x = to_eigen_vector(xs, "xs");
  check_size(static_cast<std::size_t>(x.size()), Limits::max_draws, "xs");
  return to_float64_array(truth(x));
}

val linspace_js(const val& start, const val& stop, const val& count) {
  return to_float64_array(linspace(to_number(start, "start"), to_number(stop, "stop"), to_count(count, "count", 0)));
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

val loo_curve_js(const val& keys, const val& values, const val& d, const val& bandwidths, const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  const std::string kernel_name = to_optional_string(kernel, "kernel", "gaussian");
  return to_float64_array(loo_curve(to_matrix(keys, features, "keys"), to_eigen_vector(values, "values"),
                                    to_numbers(bandwidths, "bandwidths"), parse_kernel(kernel_name)));
}

val bandwidth_selection_js(const val& config) {
  SelectionConfig c;
  read_fields(config,
              {{"bandwidths", &c.bandwidths},
               {"curvePoints", &c.curve_points},
               {"keyHigh", &c.key_high},
               {"keyLow", &c.key_low},
               {"noise", &c.noise},
               {"queryHigh", &c.query_high},
               {"queryLow", &c.query_low},
               {"seed", &c.seed},
               {"test", &c.test},
               {"train", &c.train},
               {"validation", &c.validation}},
              "config");
  const SelectionResult r = bandwidth_selection(c);
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
  StandardizeConfig c;
  read_fields(config,
              {{"bandwidth", &c.bandwidth},
               {"featureScales", &c.feature_scales},
               {"keys", &c.keys},
               {"noise", &c.noise},
               {"queries", &c.queries},
               {"seed", &c.seed}},
              "config");
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
