// JavaScript surface of the NumPy-exact generator: new NumpyRandom(seed), draws as Float64Arrays.
// The constructor is the guarded factory "NumpyRandom$new" (a failing embind constructor would
// throw across wasm frames); boundary.js makes `new NumpyRandom(seed)` call it.
#include "config.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {
namespace {

val make_random(const val& seed) { return val(NumpyRandom(to_seed(seed, "seed"))); }

std::size_t to_draws(const val& count) { return to_count(count, "count", 0, Limits::max_draws); }

val random_js(NumpyRandom& rng, const val& count) { return to_float64_array(rng.random(to_draws(count))); }

val uniform_js(NumpyRandom& rng, const val& low, const val& high, const val& count) {
  return to_float64_array(rng.uniform(to_number(low, "low"), to_number(high, "high"), to_draws(count)));
}

val standard_normal_js(NumpyRandom& rng, const val& count) {
  return to_float64_array(rng.standard_normal(to_draws(count)));
}

val normal_js(NumpyRandom& rng, const val& loc, const val& scale, const val& count) {
  return to_float64_array(rng.normal(to_number(loc, "loc"), to_number(scale, "scale"), to_draws(count)));
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_random) {
  using namespace kernel_lens;
  using namespace kernel_lens::wasm;
  auto cls = emscripten::class_<NumpyRandom>("NumpyRandom");
  add_signature("NumpyRandom", "new", "seed", 1);
  emscripten::function("NumpyRandom$new", &Guarded<make_random>::call);
  bind_method<random_js>(cls, "NumpyRandom", "random", "count");
  bind_method<uniform_js>(cls, "NumpyRandom", "uniform", "low high count");
  bind_method<standard_normal_js>(cls, "NumpyRandom", "standardNormal", "count");
  bind_method<normal_js>(cls, "NumpyRandom", "normal", "loc scale count");
}
