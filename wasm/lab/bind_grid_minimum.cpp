// JavaScript surface of the grid minimum: gridMinimum(bandwidths, risks) -> { index, bandwidth, risk }.
#include "common.hpp"
#include "kernel_lens/grid_minimum.hpp"

namespace kernel_lens::wasm {
namespace {

val grid_minimum_js(const val& bandwidths, const val& risks) {
  const GridMinimum minimum = grid_minimum(to_vector(bandwidths, "bandwidths", Limits::max_bandwidths),
                                              to_eigen_vector(risks, "risks", Limits::max_bandwidths));
  val out = val::object();
  set(out, "index", static_cast<double>(minimum.index));
  set(out, "bandwidth", minimum.bandwidth);
  set(out, "risk", minimum.risk);
  return out;
}

}  // namespace
}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_grid_minimum) {
  kernel_lens::wasm::bind_function<kernel_lens::wasm::grid_minimum_js>("gridMinimum", "bandwidths risks");
}
