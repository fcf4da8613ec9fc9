// Native timing of the laboratory: prints one JSON line per case with the median time.
// Cases: "sweep" (the chapter's bias/variance sweep, draws included), "exact200" (exact risk over
// 200 log-spaced bandwidths from 0.02 to 2).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_lens/laboratory.hpp"

namespace {

using kernel_lens::LabConfig;

/// 200 bandwidths 0.02 * 100^(i/199), the grid of the exact-risk curve.
std::vector<double> curve_bandwidths() {
  std::vector<double> h(200);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = 0.02 * std::pow(100.0, static_cast<double>(i) / 199.0);
  return h;
}

/// Median milliseconds per call over repeated calls filling about a quarter of a second.
template <class Run>
double median_ms(Run&& run) {
  std::vector<double> times;
  double total = 0.0;
  double checksum = 0.0;
  while (times.size() < 5 || (total < 250.0 && times.size() < 2000)) {
    const auto start = std::chrono::steady_clock::now();
    checksum += run();
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
    total += elapsed.count();
  }
  if (checksum != checksum) std::fprintf(stderr, "non-finite output\n");
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> cases(argv + 1, argv + argc);
  if (cases.empty()) cases = {"sweep", "exact200"};
  for (const auto& name : cases) {
    double ms = 0.0;
    if (name == "sweep") {
      ms = median_ms([] { return kernel_lens::bias_variance_sweep(LabConfig{})[3].mse; });
    } else if (name == "exact200") {
      LabConfig config;
      config.bandwidths = curve_bandwidths();
      ms = median_ms([&] { return kernel_lens::exact_risk(config)[0].mse; });
    } else {
      std::fprintf(stderr, "unknown case %s\n", name.c_str());
      return 1;
    }
    std::printf("{\"case\": \"%s\", \"ms\": %.6f}\n", name.c_str(), ms);
  }
  return 0;
}
