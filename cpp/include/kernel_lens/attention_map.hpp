#pragma once
/// What the attention-map figure draws, computed in one pass over the rows of A and nothing
/// more: the image of A at the size it is shown (each pixel the mean weight of the cells it
/// covers, coloured through a palette on a linear or logarithmic scale), A V, the highlighted
/// query's row in full precision, the largest row-sum error and the colour range. The (m, n)
/// weights never leave the core: a 2048 x 2048 map is 32 MB of doubles but a few hundred kB of
/// pixels.
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_lens/attention.hpp"

namespace kernel_lens {

enum class ColourScale { Linear, Log };

/// Parses "linear" or "log"; throws std::invalid_argument otherwise.
ColourScale parse_colour_scale(const std::string& name);

/// Palette entries: 256 colours from the lowest to the highest value, then the colour of cells a
/// logarithmic scale cannot place (exactly 0), each as 4 bytes RGBA.
inline constexpr std::size_t palette_colours = 257;

struct AttentionMapRequest {
  ColourScale scale = ColourScale::Linear;
  /// The highlighted query row, returned in full precision; 0 <= row < m.
  Eigen::Index row = 0;
  /// Image size in pixels: 1 <= width <= n, 1 <= height <= m; 0 means one pixel per key (query).
  Eigen::Index width = 0;
  Eigen::Index height = 0;
  /// palette_colours x 4 bytes (RGBA).
  std::vector<std::uint8_t> palette;
};

struct AttentionMap {
  Eigen::Index width = 0;
  Eigen::Index height = 0;
  /// height x width x 4 bytes RGBA, row-major. Image row 0 is the top: the last queries, so the
  /// first query is at the bottom (the chapter's origin="lower"). Key i falls in pixel column
  /// floor(i width / n) and query r in pixel row floor(r height / m) from the bottom; a pixel's
  /// colour is that of the mean weight of its cells.
  std::vector<std::uint8_t> image;
  RowMatrix outputs;        ///< A V, (m, p)
  Vector row_weights;       ///< row `request.row` of A, (n)
  double max_row_sum_error = 0.0;  ///< max_r |sum_i A_ri - 1|, NumPy's pairwise sums
  /// The colour range of the cells (not of the pixel means): linear, the smallest and largest
  /// weight; log, the smallest positive weight and the largest. A mean v maps to level
  /// floor(256 t), clamped to 0..255, of t = (v - low) / (high - low) (255 when high = low); on
  /// the log scale to the number of thresholds low (high / low)^(k / 256), k = 1..255, at or
  /// below v, that is floor(256 t) of t = log(v / low) / log(high / low) up to the rounding of
  /// the thresholds.
  double low = 0.0;
  double high = 1.0;
  bool zeros = false;  ///< some weight is exactly 0 (underflow); on the log scale such pixels take the last colour
};

/// Validates as `attention` does, then the request (row, sizes, a palette of exactly
/// palette_colours x 4 bytes).
AttentionMap attention_map(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth,
                           const AttentionMapRequest& request, Kernel kernel = Kernel::Gaussian,
                           EmptyRowPolicy empty_rows = EmptyRowPolicy::Error);

}  // namespace kernel_lens
