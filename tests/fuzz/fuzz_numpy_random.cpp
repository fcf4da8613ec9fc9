// The NumPy generator: any seed, any sequence of calls, any counts (huge ones must be refused).
#include "fuzz_input.hpp"
#include "kernel_lens/numpy_random.hpp"

using namespace kernel_lens;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const auto seed = input.ConsumeBool() ? input.ConsumeIntegral<std::uint64_t>()
                                        : input.ConsumeIntegralInRange<std::uint64_t>(0, 1u << 20);
  fuzz::refusal_allowed([&] { seed_sequence_state(seed, fuzz::count(input, 16)); });
  fuzz::refusal_allowed([&] {
    NumpyRandom random(seed);
    for (int call = 0; call < 8 && input.remaining_bytes() > 0; ++call) {
      const std::size_t count = fuzz::count(input, 512);
      switch (input.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: {
          const Vector u = random.random(count);
          if ((u.array() < 0.0).any() || (u.array() >= 1.0).any()) std::abort();
          break;
        }
        case 1:
          fuzz::refusal_allowed([&] { random.uniform(fuzz::number(input), fuzz::number(input), count); });
          break;
        case 2:
          fuzz::require_finite(random.standard_normal(count));
          break;
        case 3:
          fuzz::refusal_allowed([&] { random.normal(fuzz::number(input), fuzz::number(input), count); });
          break;
        case 4:
          fuzz::refusal_allowed(
              [&] { random.normal(fuzz::number(input), fuzz::number(input), count, fuzz::count(input, 16)); });
          break;
        default:
          random.next_uint64();
          numpy_log1p(fuzz::number(input));
      }
    }
  });
  return 0;
}
