// The bindings' argument rules (wasm/rules.hpp, shared with the wasm build): JS numbers as counts,
// sizes and seeds, and flat arrays as rows; the shapes of attention's lists from their lengths
// alone (checked before anything is copied); then a laboratory config filled through those rules,
// as wasm/config.cpp fills it, and checked by the core. (tests/wasm/fuzz.test.mjs fuzzes the
// JavaScript half: argument lists, typed-array kinds, detached and out-of-bounds views and configs
// against every export.)
// Findings: a count that is accepted but differs from its JS number (a wrap), a value outside its
// range, a refusal that is not a std::logic_error with a message.
#include <string>

#include "fuzz_input.hpp"
#include "kernel_lens/laboratory.hpp"
#include "rules.hpp"

using namespace kernel_lens;
using namespace kernel_lens::wasm;

namespace {

/// A JS number that is often near a 32-bit or 53-bit boundary.
double js_number(FuzzedDataProvider& input) {
  switch (input.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return std::ldexp(1.0, input.ConsumeIntegralInRange<int>(0, 64)) + input.ConsumeIntegralInRange<int>(-3, 3);
    case 1:
      return input.ConsumeIntegralInRange<int>(-2, 70);
    default:
      return fuzz::number(input);
  }
}

std::size_t checked_count(double x, const char* name, std::size_t min_value, std::size_t max_value) {
  const std::size_t n = count_from_number(x, name, min_value, max_value);
  if (static_cast<double>(n) != x || n < min_value || n > max_value) std::abort();
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  fuzz::refusal_allowed([&] {
    const auto min_value = input.ConsumeIntegralInRange<std::size_t>(0, 2);
    const auto max_value = input.ConsumeBool() ? Limits::max_dimension : Limits::max_draws;
    checked_count(js_number(input), "count", min_value, max_value);
  });
  fuzz::refusal_allowed([&] {
    const double x = js_number(input);
    const std::uint64_t seed = seed_from_number(x, "seed");
    if (static_cast<double>(seed) != x || seed > max_seed) std::abort();
  });
  fuzz::refusal_allowed([&] {
    const auto length = input.ConsumeIntegral<std::size_t>();
    const auto cols = input.ConsumeIntegralInRange<std::size_t>(0, 70);
    if (rows_from_length(length, cols, "keys") * cols != length) std::abort();
  });
  // The shapes of attention's three lists from their lengths alone, as the bindings check them
  // before copying anything (list_shape, check_attention_shapes on Shapes): an accepted shape fits
  // the caps, and for small lists the data's own check (on matrices) gives the same answer.
  fuzz::refusal_allowed([&] {
    const auto d = input.ConsumeIntegralInRange<std::size_t>(0, 70);
    const auto p = input.ConsumeIntegralInRange<std::size_t>(0, 70);
    Shape shapes[3];
    for (int i = 0; i < 3; ++i) {
      const std::size_t cols = i == 2 ? p : d;
      const std::size_t length = input.ConsumeBool() ? input.ConsumeIntegralInRange<std::size_t>(0, 12)
                                                     : input.ConsumeIntegral<std::uint32_t>();
      shapes[i] = {rows_from_length(length, cols, "list"), cols};
    }
    bool accepted = true;
    try {
      check_attention_shapes(shapes[0], shapes[1], shapes[2]);
    } catch (const std::logic_error&) {
      accepted = false;
    }
    if (accepted && (shapes[0].rows * shapes[1].rows > Limits::max_cells || shapes[1].rows != shapes[2].rows ||
                     shapes[0].rows > Limits::max_rows || d > Limits::max_dimension || p > Limits::max_dimension))
      std::abort();
    if (shapes[0].rows * d + shapes[1].rows * d + shapes[2].rows * p > 4096) return;
    const RowMatrix q = RowMatrix::Zero(static_cast<Eigen::Index>(shapes[0].rows), static_cast<Eigen::Index>(d));
    const RowMatrix k = RowMatrix::Zero(static_cast<Eigen::Index>(shapes[1].rows), static_cast<Eigen::Index>(d));
    const RowMatrix v = RowMatrix::Zero(static_cast<Eigen::Index>(shapes[2].rows), static_cast<Eigen::Index>(p));
    bool data_accepted = true;
    try {
      check_attention_shapes(q, k, v);
    } catch (const std::logic_error&) {
      data_accepted = false;
    }
    if (accepted != data_accepted) std::abort();
    if (!accepted) check_attention_shapes(shapes[0], shapes[1], shapes[2]);
  });
  // A config the way wasm/config.cpp reads one: each field through its rule, then check().
  fuzz::refusal_allowed([&] {
    LabConfig c;
    for (int field = 0; field < 6 && input.remaining_bytes() > 0; ++field) {
      const double x = js_number(input);
      switch (input.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: c.keys = checked_count(x, "keys", 0, max_size); break;
        case 1: c.queries = checked_count(x, "queries", 0, max_size); break;
        case 2: c.worlds = checked_count(x, "worlds", 0, max_size); break;
        case 3: c.key_seed = seed_from_number(x, "key_seed"); break;
        case 4: c.noise = x; break;
        default: c.key_low = x; break;
      }
    }
    c.check();
    if (c.worlds > Limits::max_worlds || c.keys > Limits::max_rows || c.worlds < 2) std::abort();
  });
  return 0;
}
