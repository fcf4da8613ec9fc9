// Built into the wasm build folder (CMakeLists.txt) and run in Node by tests/wasm/exp.test.mjs:
// prints how many of detail::exp_inplace's, detail::exp's and the softmax rows' (exp_shifted_sum) results differ from the wasm build's own
// std::exp.
#include <cstdio>

#include "exp_check.hpp"

int main() {
  for (const double shift : {0.0, 0.75, -3.5}) {
    const auto result = kernel_lens::testing::compare_exp_with_std(1 << 21, shift);
    std::printf("{\"shift\": %g, \"count\": %zu, \"differing\": %zu, \"maxUlps\": %llu, \"scalarDiffering\": %zu, "
                "\"scalarMaxUlps\": %llu, \"rowCount\": %zu, \"rowDiffering\": %zu, \"rowMaxUlps\": %llu, "
                "\"sumRows\": %zu, \"sumRowsDiffering\": %zu}\n",
                shift, result.count, result.differing, static_cast<unsigned long long>(result.max_ulps),
                result.scalar_differing, static_cast<unsigned long long>(result.scalar_max_ulps), result.row_count,
                result.row_differing, static_cast<unsigned long long>(result.row_max_ulps), result.sum_rows,
                result.sum_rows_differing);
  }
  return 0;
}
