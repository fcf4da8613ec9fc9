#include "kernel_lens/attention_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/detail/weight_rows.hpp"
#include "kernel_lens/limits.hpp"

namespace kernel_lens {

KERNEL_LENS_COLD ColourScale parse_colour_scale(const std::string& name) {
  if (name == "linear") return ColourScale::Linear;
  if (name == "log") return ColourScale::Log;
  throw std::invalid_argument("scale must be \"linear\" or \"log\", got \"" + name + "\"");
}

namespace {

KERNEL_LENS_COLD void check_request(const AttentionMapRequest& request, Eigen::Index m, Eigen::Index n) {
  if (request.row < 0 || request.row >= m)
    throw std::out_of_range("row must be a query row from 0 to " + std::to_string(m - 1) + ", got " +
                            std::to_string(request.row));
  if (request.width < 0 || request.width > n)
    throw std::out_of_range("width must be from 1 to the number of keys (" + std::to_string(n) +
                            "), or 0 for one pixel per key; got " + std::to_string(request.width));
  if (request.height < 0 || request.height > m)
    throw std::out_of_range("height must be from 1 to the number of queries (" + std::to_string(m) +
                            "), or 0 for one pixel per query; got " + std::to_string(request.height));
  if (request.palette.size() != palette_colours * 4)
    throw std::invalid_argument("palette must hold " + std::to_string(palette_colours) + " RGBA colours (" +
                                std::to_string(palette_colours * 4) + " bytes), got " +
                                std::to_string(request.palette.size()) + " bytes");
}

/// Bin of index i when `count` items are split into `bins` consecutive groups: floor(i bins / count).
Eigen::Index bin_of(Eigen::Index i, Eigen::Index bins, Eigen::Index count) {
  return static_cast<Eigen::Index>((static_cast<std::int64_t>(i) * bins) / count);
}

/// ln x of a positive finite x from x = f 2^e, f in [0.5, 1): log1p(f - 1) + e ln 2, where f - 1 is
/// exact. Within a few ulps, enough for colour thresholds; std::log would bring a second copy of
/// a 4 kB table into the wasm module (log1p is there already).
double natural_log(double x) {
  int exponent = 0;
  const double fraction = std::frexp(x, &exponent);
  return std::log1p(fraction - 1.0) + exponent * 0.693147180559945309417232121458176568;
}

/// The palette level 0..255 of a pixel mean `v`, or 256 (the zero colour) where a log scale
/// cannot place it. Linear: floor(256 t) of t = (v - low) / (high - low), clamped. Log: the number
/// of thresholds low (high / low)^(k / 256), k = 1..255, at or below v (one exp per threshold,
/// not per pixel).
class Levels {
 public:
  KERNEL_LENS_COLD Levels(ColourScale scale, double low, double high) : scale_(scale), low_(low), span_(high - low) {
    if (scale != ColourScale::Log) return;
    const double log_low = natural_log(low);
    const double log_span = natural_log(high) - log_low;
    for (int k = 1; k < 256; ++k)
      thresholds_[static_cast<std::size_t>(k)] = log_span > 0.0 ? detail::exp(log_low + log_span * (k / 256.0)) : high;
  }

  int operator()(double v) const {
    if (scale_ == ColourScale::Log) {
      if (!(v > 0.0)) return 256;
      int level = 0;
      for (int step = 128; step > 0; step /= 2)
        if (level + step < 256 && v >= thresholds_[static_cast<std::size_t>(level + step)]) level += step;
      return level;
    }
    const double t = span_ > 0.0 ? (v - low_) / span_ : 1.0;
    const double level = std::floor(t * 256.0);
    return level < 0.0 ? 0 : level > 255.0 ? 255 : static_cast<int>(level);
  }

 private:
  ColourScale scale_;
  double low_;
  double span_;
  std::array<double, 256> thresholds_{};
};

/// The strip's sums (n, one per key) folded into the pixel row's columns, and the strip zeroed.
KERNEL_LENS_HOT_LOOP void fold_strip(double* strip, const Eigen::Index* column_start, Eigen::Index width, double* pixel_row) {
  for (Eigen::Index x = 0; x < width; ++x) {
    double s = 0.0;
    for (Eigen::Index c = column_start[x]; c < column_start[x + 1]; ++c) s += strip[c];
    pixel_row[x] = s;
  }
  std::fill(strip, strip + column_start[width], 0.0);
}

/// The image: each pixel's mean weight (its sum over its cells) through the palette.
KERNEL_LENS_HOT_LOOP void colour_pixels(const double* sums, const Eigen::Index* column_start, Eigen::Index m, const Levels& level,
                                        const std::uint8_t* palette, AttentionMap& map) {
  map.image.resize(static_cast<std::size_t>(map.width * map.height) * 4);
  for (Eigen::Index y = 0; y < map.height; ++y) {
    // Pixel row y (from the bottom) covers queries [first, last); cells per pixel differ by column.
    const Eigen::Index first = static_cast<Eigen::Index>((static_cast<std::int64_t>(y) * m + map.height - 1) / map.height);
    const Eigen::Index last = static_cast<Eigen::Index>((static_cast<std::int64_t>(y + 1) * m + map.height - 1) / map.height);
    const double rows = static_cast<double>(last - first);
    std::uint8_t* out = map.image.data() + static_cast<std::size_t>((map.height - 1 - y) * map.width) * 4;
    const double* pixel_sums = sums + y * map.width;
    for (Eigen::Index x = 0; x < map.width; ++x) {
      const double cells = rows * static_cast<double>(column_start[x + 1] - column_start[x]);
      const std::uint8_t* colour = palette + 4 * level(pixel_sums[x] / cells);
      std::copy(colour, colour + 4, out + 4 * x);
    }
  }
}

}  // namespace

/// Called once per map: its own code is compiled for size; the per-row and per-pixel loops are
/// the functions above and those of detail::WeightRows.
KERNEL_LENS_COLD AttentionMap attention_map(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                                            double bandwidth, const AttentionMapRequest& request, Kernel kernel,
                                            EmptyRowPolicy empty_rows) {
  check_attention_inputs(queries, keys, values, bandwidth);
  const Eigen::Index m = queries.rows();
  const Eigen::Index n = keys.rows();
  check_request(request, m, n);
  AttentionMap map;
  map.width = request.width > 0 ? request.width : n;
  map.height = request.height > 0 ? request.height : m;
  map.outputs.resize(m, values.cols());
  map.row_weights.resize(n);

  // Per pixel column, its first key; per pixel, the sum of its cells' weights. The rows of one
  // pixel row arrive one after another: they are added up at full width in `strip`, which is
  // folded into the pixel row's columns once, after its last query.
  std::vector<Eigen::Index> column_start(static_cast<std::size_t>(map.width) + 1);
  for (Eigen::Index x = 0; x <= map.width; ++x)
    column_start[static_cast<std::size_t>(x)] =
        static_cast<Eigen::Index>((static_cast<std::int64_t>(x) * n + map.width - 1) / map.width);
  std::vector<double> sums(static_cast<std::size_t>(map.width * map.height), 0.0);
  std::vector<double> strip(static_cast<std::size_t>(n), 0.0);
  const bool one_per_key = map.width == n;

  constexpr double infinity = std::numeric_limits<double>::infinity();
  detail::ValueRange range{infinity, -infinity, infinity, false};
  const auto cells = static_cast<std::size_t>(n);
  detail::WeightRows rows(queries, keys, bandwidth, kernel, empty_rows);
  const RowMatrix values_transposed = values.transpose();
  Eigen::RowVectorXd weights(n);
  for (Eigen::Index r = 0; r < m; ++r) {
    const Eigen::Index y = bin_of(r, map.height, m);
    double* pixel_row = sums.data() + y * map.width;
    // The row is added into its pixel row (or the strip), its extremes and pairwise sum taken, in
    // the pass that normalises it.
    double weight_sum = 0.0;
    map.outputs(r, 0) = rows.fill_tallied(r, weights, values_transposed.data(), one_per_key ? pixel_row : strip.data(),
                                          range, weight_sum);
    for (Eigen::Index c = 1; c < values.cols(); ++c)
      map.outputs(r, c) = detail::dot(weights.data(), values_transposed.row(c).data(), cells);
    if (r == request.row) std::copy(weights.data(), weights.data() + n, map.row_weights.data());
    map.max_row_sum_error = std::max(map.max_row_sum_error, std::abs(weight_sum - 1.0));
    if (one_per_key || (r + 1 < m && bin_of(r + 1, map.height, m) == y)) continue;
    fold_strip(strip.data(), column_start.data(), map.width, pixel_row);
  }
  map.zeros = range.zero;
  const double lowest = request.scale == ColourScale::Log ? range.smallest_positive : range.lowest;
  if (std::isfinite(lowest) && std::isfinite(range.highest)) {
    map.low = lowest;
    map.high = range.highest;
  }  // else (a log scale over weights that are all 0): the default range [0, 1]

  colour_pixels(sums.data(), column_start.data(), m, Levels(request.scale, map.low, map.high), request.palette.data(), map);
  return map;
}

}  // namespace kernel_lens
