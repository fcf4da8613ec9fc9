// Native timing of attention(Q, K, V, h): prints one JSON line per case with the median time.
// Usage: bench_attention [case ...]; a case is "m x n x d:bandwidth:order", e.g.
// "2048x2048x8:0.3:sorted" (keys sorted by their first coordinate, or "unsorted"); inputs uniform
// on [-3, 3].
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_lens/attention.hpp"

namespace {

using kernel_lens::RowMatrix;

struct Case {
  Eigen::Index queries;
  Eigen::Index keys;
  Eigen::Index dimension;
  double bandwidth;
  bool keys_sorted;
};

Case parse_case(const std::string& text) {
  long long m = 0, n = 0, d = 0;
  double h = 0.0;
  char order[16] = {};
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld:%lf:%15s", &m, &n, &d, &h, order) != 5 ||
      (std::string(order) != "sorted" && std::string(order) != "unsorted"))
    throw std::invalid_argument("bad case " + text + " (expected e.g. 2048x2048x8:0.3:sorted)");
  return {m, n, d, h, std::string(order) == "sorted"};
}

/// Rows reordered by their first coordinate (stable).
RowMatrix sorted_rows(const RowMatrix& rows) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(rows.rows()));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Eigen::Index>(i);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return rows(a, 0) < rows(b, 0); });
  RowMatrix out(rows.rows(), rows.cols());
  for (std::size_t i = 0; i < order.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = rows.row(order[i]);
  return out;
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
  const RowMatrix drawn = uniform(c.keys, c.dimension, rng);
  const RowMatrix keys = c.keys_sorted ? sorted_rows(drawn) : drawn;
  const RowMatrix values = uniform(c.keys, 1, rng);
  std::vector<double> times;
  double total = 0.0;
  double checksum = 0.0;
  // One result reused across calls, as a figure redrawing every frame would (and as the wasm
  // driver's `into` arrays): a fresh 32 MB matrix per call would time the page faults instead.
  kernel_lens::AttentionResult result;
  while (times.size() < 5 || (total < 250.0 && times.size() < 2000)) {
    const auto start = std::chrono::steady_clock::now();
    kernel_lens::attention_into(queries, keys, values, c.bandwidth, result);
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
  if (cases.empty()) cases = {"2048x2048x1:0.5:unsorted"};
  for (const auto& name : cases)
    std::printf("{\"case\": \"%s\", \"ms\": %.6f}\n", name.c_str(), median_ms(parse_case(name)));
  return 0;
}
