// JavaScript surface of the NumPy-exact generator: new NumpyRandom(seed), draws as Float64Arrays.
#include "config.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {
namespace {

NumpyRandom* make_random(val seed) {
  return at_boundary([&] { return new NumpyRandom(to_integer(seed, "seed")); });
}

NumpyRandom* make_random_without_seed() { return make_random(val::undefined()); }

val random_js(NumpyRandom& rng, const val& count) { return to_float64_array(rng.random(to_count(count, "count", 0))); }

val uniform_js(NumpyRandom& rng, const val& low, const val& high, const val& count) {
  return to_float64_array(rng.uniform(to_number(low, "low"), to_number(high, "high"), to_count(count, "count", 0)));
}

val standard_normal_js(NumpyRandom& rng, const val& count) {
  return to_float64_array(rng.standard_normal(to_count(count, "count", 0)));
}

val normal_js(NumpyRandom& rng, const val& loc, const val& scale, const val& count) {
  return to_float64_array(rng.normal(to_number(loc, "loc"), to_number(scale, "scale"), to_count(count, "count", 0)));
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_random) {
  using namespace kernel_lens;
  using namespace kernel_lens::wasm;
  auto cls = emscripten::class_<NumpyRandom>("NumpyRandom");
  cls.constructor(&make_random_without_seed, emscripten::allow_raw_pointers());
  cls.constructor(&make_random, emscripten::allow_raw_pointers());
  method_with_optional_arguments<1, random_js>(cls, "random");
  method_with_optional_arguments<3, uniform_js>(cls, "uniform");
  method_with_optional_arguments<1, standard_normal_js>(cls, "standardNormal");
  method_with_optional_arguments<3, normal_js>(cls, "normal");
}
