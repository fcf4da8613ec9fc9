// JavaScript surface of numpy.interp, used to draw the k = q locus of an attention map.
#include "common.hpp"
#include "kernel_lens/interpolation.hpp"

namespace kernel_lens::wasm {
namespace {

val interp_js(const val& x, const val& xp, const val& fp) {
  return to_float64_array(interp(to_eigen_vector(x, "x", Limits::max_rows), to_eigen_vector(xp, "xp", Limits::max_rows), to_eigen_vector(fp, "fp", Limits::max_rows)));
}

val sorted_key_position_js(const val& queries, const val& keys) {
  return to_float64_array(sorted_key_position(to_eigen_vector(queries, "queries", Limits::max_rows), to_eigen_vector(keys, "keys", Limits::max_rows)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(kernel_lens_interpolation) {
  bind_function<interp_js>("interp", "x xp fp");
  bind_function<sorted_key_position_js>("sortedKeyPosition", "queries keys");
}

}  // namespace kernel_lens::wasm
