// JavaScript surface of the chapter's sample: chapterDataset(config?), truth(xs), linspace.
#include "config.hpp"
#include "kernel_lens/laboratory.hpp"

namespace kernel_lens::wasm {
namespace {

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
  return to_float64_array(truth(to_eigen_vector(xs, "xs", Limits::max_draws)));
}

val linspace_js(const val& start, const val& stop, const val& count) {
  return to_float64_array(linspace(to_number(start, "start"), to_number(stop, "stop"), to_count(count, "count", 0, Limits::max_rows)));
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_dataset) {
  using namespace kernel_lens::wasm;
  bind_function<chapter_dataset_js>("chapterDataset", "config?");
  bind_function<truth_js>("truth", "xs");
  bind_function<linspace_js>("linspace", "start stop count");
}
