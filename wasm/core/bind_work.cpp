// JavaScript surface of the core's work formulas (kernel_lens/work.hpp): workOf(fn, sizes, config?)
// answers the work of a call of `fn` from its sizes, in the unit of Limits::max_work, the number
// the core itself checks before it starts. The engine (web/src/engine/cost.ts) reads each call's
// sizes from its arguments and places it on the page or in the worker by this number.
// Every function of both modules has a row here (tests/e2e/engine.test.mjs holds the lists equal).
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "config.hpp"
#include "kernel_lens/work.hpp"

namespace kernel_lens::wasm {
namespace {

using Sizes = std::vector<double>;

/// One function: its name, how many sizes it is given and in what order (for messages), and its work.
struct Formula {
  const char* name;
  const char* sizes;
  std::size_t count;
  double (*work)(const Sizes& s, const val& config);
};

double none(const Sizes&, const val&) { return 0.0; }
double attention_work(const Sizes& s, const val&) { return work::attention(s[0], s[1], s[2], s[3]); }
double scores_work(const Sizes& s, const val&) { return work::scores(s[0], s[1], s[2]); }
double one_query_work(const Sizes& s, const val&) { return work::scores(1.0, s[0], s[1]); }
double linear_work(const Sizes& s, const val&) { return work::linear(s[0]); }
double two_lists_work(const Sizes& s, const val&) { return work::linear(s[0] + s[1]); }

constexpr std::array<Formula, 47> formulas{{
    {"attention", "m n d p", 4, attention_work},
    {"attentionMap", "m n d p", 4, attention_work},
    {"auditWorlds", "curves", 1, [](const Sizes& s, const val& c) { return work::audit_worlds(to_lab_config(c), s[0]); }},
    {"bandCoverage", "count", 1, linear_work},
    {"bandwidthFromTemperature", "", 0, none},
    {"bandwidthSelection", "", 0, [](const Sizes&, const val& c) { return work::selection(to_selection_config(c)); }},
    {"biasVarianceSweep", "", 0, [](const Sizes&, const val& c) { return work::sweep(to_lab_config(c)); }},
    {"chapterConfig", "", 0, none},
    {"chapterDataset", "", 0, [](const Sizes&, const val& c) { return work::dataset(to_lab_config(c)); }},
    {"csvLimits", "", 0, none},
    {"distanceScores", "m n d", 3, scores_work},
    {"dotProductScores", "m n d", 3, scores_work},
    {"exactRisk", "", 0, [](const Sizes&, const val& c) { return work::exact_risk(to_lab_config(c)); }},
    {"gridMinimum", "count", 1, linear_work},
    {"heapBytes", "", 0, none},
    {"histogram", "count", 1, linear_work},
    {"interp", "m n", 2, two_lists_work},
    {"kernelNames", "", 0, none},
    {"labMemoryUsage", "", 0, none},
    {"limits", "", 0, none},
    {"linspace", "count", 1, linear_work},
    {"localLinear", "m n d p", 4, [](const Sizes& s, const val&) { return work::local_linear(s[0], s[1], s[2], s[3]); }},
    {"logScores", "m n d", 3, scores_work},
    {"looCurve", "n d bandwidths", 3, [](const Sizes& s, const val&) { return work::loo(s[0], s[1], s[2]); }},
    {"looDescent", "n d steps", 3, [](const Sizes& s, const val&) { return work::loo_descent(s[0], s[1], s[2]); }},
    {"looFit", "n d", 2, [](const Sizes& s, const val&) { return work::loo(s[0], s[1], 1.0); }},
    {"looRiskGradient", "n d", 2, [](const Sizes& s, const val&) { return work::loo(s[0], s[1], 1.0); }},
    {"maxRowSumError", "count", 1, linear_work},
    {"memoryUsage", "", 0, none},
    {"naiveNormalize", "count", 1, linear_work},
    {"nearestKeyLimit", "n d", 2, one_query_work},
    {"olsPredict", "n d m", 3, [](const Sizes& s, const val&) { return work::ols(s[0], s[1], s[2]); }},
    {"olsWeights", "n d", 2, [](const Sizes& s, const val&) { return work::ols(s[0], s[1], 1.0); }},
    {"parseCsv", "characters", 1, linear_work},
    {"rowSoftmax", "count", 1, linear_work},
    {"rowSums", "count", 1, linear_work},
    {"smootherAudit", "m n d", 3, [](const Sizes& s, const val&) { return work::smoother_audit(s[0], s[1], s[2]); }},
    {"softmaxWithTemperature", "count", 1, linear_work},
    {"sortedKeyPosition", "m n", 2, two_lists_work},
    {"squaredDistances", "m n d", 3, scores_work},
    {"standardizeExercise", "", 0, [](const Sizes&, const val& c) { return work::standardize(to_standardize_config(c)); }},
    {"temperatureFromBandwidth", "", 0, none},
    {"truth", "count", 1, linear_work},
    {"underflowReport", "n d", 2, one_query_work},
    {"uniformLimit", "count", 1, linear_work},
    {"workFormulas", "", 0, none},
    {"workOf", "", 0, none},
}};

const Formula& formula_of(const std::string& fn) {
  for (const Formula& formula : formulas)
    if (fn == formula.name) return formula;
  throw ArgumentTypeError("the core has no function named \"" + fn + "\"");
}

val work_of_js(const val& fn, const val& sizes, const val& config) {
  const Formula& formula = formula_of(to_text(fn, "fn"));
  const Sizes s = to_vector(sizes, "sizes", 8);
  if (s.size() != formula.count)
    throw std::invalid_argument(std::string("sizes must be ") + std::to_string(formula.count) + " counts for " + formula.name +
                                (formula.count > 0 ? std::string(" (") + formula.sizes + ")" : std::string()) + ", got " +
                                std::to_string(s.size()));
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!(s[i] >= 0.0) || !std::isfinite(s[i]))
      throw std::invalid_argument("sizes[" + std::to_string(i) + "] must be a finite count, got " + format_number(s[i]));
  return val(formula.work(s, config));
}

/// The functions with a work formula, each with the names of its sizes.
val work_formulas_js() {
  val out = val::object();
  for (const Formula& formula : formulas) set(out, formula.name, val(std::string(formula.sizes)));
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_work) {
  using namespace kernel_lens::wasm;
  bind_function<work_of_js>("workOf", "fn sizes config?");
  bind_function<work_formulas_js>("workFormulas", "");
}
