// JavaScript surface of the NumPy-exact generator: new NumpyRandom(seed), draws as Float64Arrays.
#include <cmath>
#include <memory>
#include <utility>

#include "common.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {
namespace {

/// An integer seed in [0, 2^53 - 1]; TypeError for a non-number, RangeError otherwise.
std::uint64_t to_seed(const val& v) {
  const double x = to_number(v, "seed");
  if (!std::isfinite(x) || x != std::floor(x) || x < 0.0 || x > static_cast<double>(max_seed))
    throw std::invalid_argument("seed must be an integer from 0 to 2^53 - 1, got " + format_number(x));
  return static_cast<std::uint64_t>(x);
}

NumpyRandom* make_random(val seed) {
  return at_boundary([&] { return guarded([&] { return new NumpyRandom(to_seed(seed)); }); });
}

NumpyRandom* make_random_without_seed() { return make_random(val::undefined()); }

val random_js(NumpyRandom& rng, val count) {
  return guarded([&] { return to_float64_array(rng.random(to_count(count, "count", 0))); });
}

val uniform_js(NumpyRandom& rng, val low, val high, val count) {
  return guarded([&] {
    return to_float64_array(rng.uniform(to_number(low, "low"), to_number(high, "high"), to_count(count, "count", 0)));
  });
}

val standard_normal_js(NumpyRandom& rng, val count) {
  return guarded([&] { return to_float64_array(rng.standard_normal(to_count(count, "count", 0))); });
}

val normal_js(NumpyRandom& rng, val loc, val scale, val count) {
  return guarded([&] {
    return to_float64_array(rng.normal(to_number(loc, "loc"), to_number(scale, "scale"), to_count(count, "count", 0)));
  });
}

template <auto Method, class Given, class Missing>
struct PaddedMethod;
template <auto Method, std::size_t... G, std::size_t... M>
struct PaddedMethod<Method, std::index_sequence<G...>, std::index_sequence<M...>> {
  static val call(NumpyRandom& rng, ValArgument<G>... given) {
    return at_boundary([&] { return Method(rng, std::move(given)..., ((void)M, val::undefined())...); });
  }
};

/// Registers a method for every call length 0..Arity (missing arguments arrive as undefined and
/// get the method's own TypeError rather than an embind arity error).
template <std::size_t Arity, auto Method, std::size_t... Given>
void bind_method(emscripten::class_<NumpyRandom>& cls, const char* name, std::index_sequence<Given...>) {
  (cls.function(name, &PaddedMethod<Method, std::make_index_sequence<Given>,
                                    std::make_index_sequence<Arity - Given>>::call),
   ...);
}

template <std::size_t Arity, auto Method>
void bind_method(emscripten::class_<NumpyRandom>& cls, const char* name) {
  bind_method<Arity, Method>(cls, name, std::make_index_sequence<Arity + 1>{});
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_random) {
  using namespace kernel_lens;
  using namespace kernel_lens::wasm;
  auto cls = emscripten::class_<NumpyRandom>("NumpyRandom");
  cls.constructor(&make_random_without_seed, emscripten::allow_raw_pointers());
  cls.constructor(&make_random, emscripten::allow_raw_pointers());
  bind_method<1, random_js>(cls, "random");
  bind_method<3, uniform_js>(cls, "uniform");
  bind_method<1, standard_normal_js>(cls, "standardNormal");
  bind_method<3, normal_js>(cls, "normal");
}
