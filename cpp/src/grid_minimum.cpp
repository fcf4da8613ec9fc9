#include "kernel_lens/grid_minimum.hpp"

#include <stdexcept>
#include <string>

#include "kernel_lens/limits.hpp"

namespace kernel_lens {

GridMinimum grid_minimum(const std::vector<double>& bandwidths, const VectorRef& risks) {
  if (bandwidths.empty()) throw std::invalid_argument("bandwidths must not be empty");
  check_size(bandwidths.size(), Limits::max_bandwidths, "bandwidths");
  if (static_cast<std::size_t>(risks.size()) != bandwidths.size())
    throw std::invalid_argument("risks must have one entry per bandwidth: expected " +
                                std::to_string(bandwidths.size()) + ", got " + std::to_string(risks.size()));
  for (std::size_t b = 0; b < bandwidths.size(); ++b)
    check_bandwidth(bandwidths[b], ("bandwidths[" + std::to_string(b) + "]").c_str());
  check_finite(risks, "risks");
  Eigen::Index best = 0;
  for (Eigen::Index b = 1; b < risks.size(); ++b)
    if (risks(b) < risks(best)) best = b;
  const auto index = static_cast<std::size_t>(best);
  return {index, bandwidths[index], risks(best)};
}

}  // namespace kernel_lens
