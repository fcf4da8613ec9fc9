#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "kernel_lens/limits.hpp"
#include "kernel_lens/numpy_random.hpp"
#include "lab_fixture.hpp"
#include "ziggurat_published.hpp"

using kernel_lens::NumpyRandom;
using kernel_lens::Vector;
using namespace kernel_lens::testing;

namespace {

/// Index of the first draw whose bits differ, or -1.
long first_mismatch(const Vector& draws, const std::vector<std::uint64_t>& expected) {
  if (static_cast<std::size_t>(draws.size()) != expected.size()) return 0;
  for (Eigen::Index i = 0; i < draws.size(); ++i)
    if (bits_of(draws(i)) != expected[static_cast<std::size_t>(i)]) return static_cast<long>(i);
  return -1;
}

}  // namespace

TEST_CASE("the derived ziggurat tables are NumPy's published ki_double and fi_double, entry for entry", "[random]") {
  const auto& tables = kernel_lens::detail::ziggurat_tables();
  for (int i = 0; i < 256; ++i) {
    INFO("layer " << i);
    CHECK(tables.ki[i] == published_ziggurat_ki[i]);
    CHECK(bits_of(tables.fi[i]) == bits_of(published_ziggurat_fi[i]));
  }
}

TEST_CASE("SeedSequence words match NumPy's generate_state", "[random]") {
  for (const auto& stream : random_fixture()["streams"]) {
    const auto seed = stream["seed"].get<std::uint64_t>();
    INFO("seed " << seed);
    REQUIRE(kernel_lens::seed_sequence_state(seed, 8) == stream["seedSequenceWords"].get<std::vector<std::uint32_t>>());
  }
}

TEST_CASE("consecutive calls reproduce default_rng streams bit for bit", "[random]") {
  for (const auto& stream : random_fixture()["streams"]) {
    const auto seed = stream["seed"].get<std::uint64_t>();
    NumpyRandom rng(seed);
    for (const auto& call : stream["calls"]) {
      const auto method = call["method"].get<std::string>();
      const auto count = call["count"].get<std::size_t>();
      const auto args = call["args"].get<std::vector<double>>();
      Vector draws;
      if (method == "random") draws = rng.random(count);
      else if (method == "uniform") draws = rng.uniform(args[0], args[1], count);
      else if (method == "standardNormal") draws = rng.standard_normal(count);
      else draws = rng.normal(args[0], args[1], count);
      INFO("seed " << seed << ", " << method << "(" << count << ")");
      REQUIRE(first_mismatch(draws, hex_bits(call["hex"].get<std::string>())) == -1);
    }
  }
}

TEST_CASE("long standard_normal streams agree, including every ziggurat tail draw", "[random]") {
  for (const auto& tail : random_fixture()["tails"]) {
    const auto seed = tail["seed"].get<std::uint64_t>();
    const Vector draws = NumpyRandom(seed).standard_normal(tail["count"].get<std::size_t>());
    std::uint64_t checksum = 0;
    for (const double x : draws) checksum += bits_of(x);
    const auto indices = tail["tailIndices"].get<std::vector<long>>();
    const auto expected = hex_bits(tail["tailHex"].get<std::string>());
    INFO("seed " << seed);
    REQUIRE(indices.size() > 50);
    for (std::size_t i = 0; i < indices.size(); ++i) {
      INFO("tail draw " << indices[i]);
      REQUIRE(bits_of(draws(indices[i])) == expected[i]);
    }
    REQUIRE(std::to_string(checksum) == tail["checksum"].get<std::string>());
  }
}

TEST_CASE("numpy_log1p equals the platform log1p NumPy calls on the tail's domain", "[random]") {
#if defined(__x86_64__) && defined(__GLIBC__)
  if (!__builtin_cpu_supports("fma")) return;  // glibc's FMA build is the reference
  NumpyRandom rng(7);
  long mismatches = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    double u = rng.next_double();
    if (i % 3 == 0) u *= 1e-7;
    const double x = -u;
    if (bits_of(kernel_lens::numpy_log1p(x)) != bits_of(std::log1p(x))) ++mismatches;
  }
  REQUIRE(mismatches == 0);
#endif
  REQUIRE(kernel_lens::numpy_log1p(0.0) == 0.0);
  REQUIRE(kernel_lens::numpy_log1p(-1.0) == -HUGE_VAL);
}

TEST_CASE("seeds and sizes are validated", "[random]") {
  REQUIRE_NOTHROW(NumpyRandom(kernel_lens::max_seed));
  REQUIRE_THROWS_AS(NumpyRandom(kernel_lens::max_seed + 1), std::invalid_argument);
  NumpyRandom rng(1);
  REQUIRE_THROWS_AS(rng.normal(0.0, -1.0, 3), std::invalid_argument);
  REQUIRE_THROWS_AS(rng.random(kernel_lens::Limits::max_draws + 1), std::length_error);
  REQUIRE(rng.random(0).size() == 0);
}
