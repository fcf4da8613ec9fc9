// JavaScript surface of local linear regression (beyond the chapter): localLinear(queries, keys,
// values, d, h, kernel?) -> { weights (m·n), outputs (m·p), fallbackRows }, and smootherAudit, both
// smoothers' exact bias and standard deviation on a fixed design, and bandCoverage, how often a
// band curve ± width·sd holds the truth.
#include <stdexcept>
#include <string>

#include "common.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/local_linear.hpp"

namespace kernel_lens::wasm {
namespace {

val local_linear_js(const val& queries, const val& keys, const val& values, const val& d, const val& bandwidth,
                    const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  const RowMatrix query_rows = to_matrix(queries, features, "queries");
  const RowMatrix key_rows = to_matrix(keys, features, "keys");
  // p, the number of value columns, is the values' count over the keys' (localLinear takes no p).
  const Vector flat = to_eigen_vector(values, "values");
  const auto n = static_cast<std::size_t>(key_rows.rows());
  const auto count = static_cast<std::size_t>(flat.size());
  if (n == 0 || count == 0 || count % n != 0 || count / n > Limits::max_dimension)
    throw std::invalid_argument("values must hold p numbers per key (p from 1 to " + std::to_string(Limits::max_dimension) +
                                ") for the " + std::to_string(n) + " keys, got " + std::to_string(count) + " numbers");
  const RowMatrix value_rows = Eigen::Map<const RowMatrix>(flat.data(), static_cast<Eigen::Index>(n),
                                                           static_cast<Eigen::Index>(count / n));
  const auto result = local_linear(query_rows, key_rows, value_rows, to_number(bandwidth, "bandwidth"),
                                   parse_kernel(to_optional_string(kernel, "kernel", "gaussian")));
  val out = val::object();
  set_array(out, "weights", result.weights);
  set_array(out, "outputs", result.outputs);
  val rows = val::array();
  for (const Eigen::Index r : result.fallback_rows) rows.call<void>("push", static_cast<double>(r));
  out.set("fallbackRows", rows);
  return out;
}

val errors_js(const SmootherErrors& errors) {
  val out = val::object();
  set_array(out, "bias", errors.bias);
  set_array(out, "sd", errors.sd);
  return out;
}

val smoother_audit_js(const val& queries, const val& keys, const val& d, const val& truth_at_keys,
                      const val& truth_at_queries, const val& noise, const val& bandwidth, const val& kernel) {
  const std::size_t features = to_dimension(d, "d");
  const auto audit = smoother_audit(to_matrix(queries, features, "queries"), to_matrix(keys, features, "keys"),
                                    to_eigen_vector(truth_at_keys, "truthAtKeys", Limits::max_rows),
                                    to_eigen_vector(truth_at_queries, "truthAtQueries", Limits::max_rows), to_number(noise, "noise"),
                                    to_number(bandwidth, "bandwidth"),
                                    parse_kernel(to_optional_string(kernel, "kernel", "gaussian")));
  val out = val::object();
  out.set("nadarayaWatson", errors_js(audit.nadaraya_watson));
  out.set("localLinear", errors_js(audit.local_linear));
  val rows = val::array();
  for (const Eigen::Index r : audit.fallback_rows) rows.call<void>("push", static_cast<double>(r));
  out.set("fallbackRows", rows);
  return out;
}

val band_coverage_js(const val& curve, const val& truth, const val& bias, const val& sd, const val& width) {
  const auto coverage = band_coverage(to_eigen_vector(curve, "curve", Limits::max_rows),
                                      to_eigen_vector(truth, "truth", Limits::max_rows),
                                      to_eigen_vector(bias, "bias", Limits::max_rows),
                                      to_eigen_vector(sd, "sd", Limits::max_rows), to_number(width, "width"));
  val out = val::object();
  out.set("observed", coverage.observed);
  out.set("expected", coverage.expected);
  set_array(out, "probability", coverage.probability);
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_local_linear) {
  kernel_lens::wasm::bind_function<kernel_lens::wasm::local_linear_js>("localLinear", "queries keys values d bandwidth kernel?");
  kernel_lens::wasm::bind_function<kernel_lens::wasm::smoother_audit_js>(
      "smootherAudit", "queries keys d truthAtKeys truthAtQueries noise bandwidth kernel?");
  kernel_lens::wasm::bind_function<kernel_lens::wasm::band_coverage_js>("bandCoverage", "curve truth bias sd width");
}
