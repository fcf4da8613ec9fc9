// Native timing of attention(Q, K, V, h): prints one JSON line per case with the median time.
// Usage: bench_attention [case ...], cases "241x60x1", "2048x2048x1", "2048x2048x8" by default.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "kernel_lens/attention.hpp"

namespace {

using kernel_lens::RowMatrix;

struct Case {
  Eigen::Index queries;
  Eigen::Index keys;
  Eigen::Index dimension;
};

Case parse_case(const std::string& text) {
  Case c{};
  long long m = 0, n = 0, d = 0;
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld", &m, &n, &d) != 3) throw std::invalid_argument("bad case " + text);
  c.queries = m;
  c.keys = n;
  c.dimension = d;
  return c;
}

RowMatrix uniform(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> draw(-3.0, 3.0);
  RowMatrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = draw(rng);
  return m;
}

/// Median milliseconds per call over repeated calls filling about a quarter of a second.
double median_ms(const Case& c) {
  std::mt19937_64 rng(605012);
  const RowMatrix queries = uniform(c.queries, c.dimension, rng);
  const RowMatrix keys = uniform(c.keys, c.dimension, rng);
  const RowMatrix values = uniform(c.keys, 1, rng);
  std::vector<double> times;
  double total = 0.0;
  double checksum = 0.0;
  // One result reused across calls, as a figure redrawing every frame would (and as the wasm
  // driver's `into` arrays): a fresh 32 MB matrix per call would time the page faults instead.
  kernel_lens::AttentionResult result;
  while (times.size() < 5 || (total < 250.0 && times.size() < 2000)) {
    const auto start = std::chrono::steady_clock::now();
    kernel_lens::attention_into(queries, keys, values, 0.5, result);
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    checksum += result.outputs(0, 0);
    times.push_back(elapsed.count());
    total += elapsed.count();
  }
  std::sort(times.begin(), times.end());
  if (checksum != checksum) std::fprintf(stderr, "non-finite output\n");
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> cases(argv + 1, argv + argc);
  if (cases.empty()) cases = {"241x60x1", "2048x2048x1", "2048x2048x8"};
  for (const auto& name : cases)
    std::printf("{\"case\": \"%s\", \"ms\": %.6f}\n", name.c_str(), median_ms(parse_case(name)));
  return 0;
}
