// The attention-map figure's frame: the same numbers as `attention` (outputs, a row, the row-sum
// error), and an image whose every pixel is the palette colour of the mean of its cells.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core_fixture.hpp"
#include "kernel_lens/attention_map.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {

/// Entry k of the palette is (k, 255 - k, k / 2, 255); entry 256 (exact zeros) is (1, 2, 3, 4).
std::vector<std::uint8_t> test_palette() {
  std::vector<std::uint8_t> palette(palette_colours * 4);
  for (std::size_t k = 0; k < 256; ++k) {
    palette[4 * k] = static_cast<std::uint8_t>(k);
    palette[4 * k + 1] = static_cast<std::uint8_t>(255 - k);
    palette[4 * k + 2] = static_cast<std::uint8_t>(k / 2);
    palette[4 * k + 3] = 255;
  }
  palette[4 * 256] = 1;
  palette[4 * 256 + 1] = 2;
  palette[4 * 256 + 2] = 3;
  palette[4 * 256 + 3] = 4;
  return palette;
}

/// The palette level the header documents for a mean `v` on the linear scale.
int linear_level(double v, double low, double high) {
  const double t = high > low ? (v - low) / (high - low) : 1.0;
  return static_cast<int>(std::clamp(std::floor(t * 256.0), 0.0, 255.0));
}

/// Level of pixel (x, y from the top) of `map`: its red byte (the test palette's red is the level).
int pixel_level(const AttentionMap& map, Eigen::Index x, Eigen::Index y_top) {
  return map.image[static_cast<std::size_t>((y_top * map.width + x) * 4)];
}

struct ChapterMap {
  RowMatrix queries, keys, values;
  double bandwidth;
};

ChapterMap chapter_map() {
  const auto& chapter = core_fixture()["chapter"];
  return {matrix(chapter["map"]["queries"], 1), matrix(chapter["chapter_keys"], 1), matrix(chapter["observed_values"], 1),
          chapter["map"]["bandwidth"].get<double>()};
}

}  // namespace

TEST_CASE("the figure's numbers are attention's, bit for bit: outputs, a row, the 2.22e-16 row-sum error",
          "[attention_map][chapter]") {
  const auto data = chapter_map();
  AttentionMapRequest request;
  request.row = 15;
  request.palette = test_palette();
  const auto map = attention_map(data.queries, data.keys, data.values, data.bandwidth, request);
  const auto full = attention(data.queries, data.keys, data.values, data.bandwidth);
  CHECK(map.outputs == full.outputs);
  CHECK(map.row_weights == full.weights.row(15).transpose());
  CHECK(map.max_row_sum_error == max_row_sum_error(full.weights));
  char printed[16];
  std::snprintf(printed, sizeof printed, "%.2e", map.max_row_sum_error);
  CHECK(std::string(printed) == "2.22e-16");
  CHECK(map.low == full.weights.minCoeff());
  CHECK(map.high == full.weights.maxCoeff());
  REQUIRE(map.width == 60);
  REQUIRE(map.height == 31);
  // One pixel per cell, the first query at the bottom.
  for (Eigen::Index r = 0; r < 31; ++r)
    for (Eigen::Index c = 0; c < 60; ++c)
      REQUIRE(pixel_level(map, c, 30 - r) == linear_level(full.weights(r, c), map.low, map.high));
}

TEST_CASE("a smaller image: each pixel the mean weight of the cells it covers", "[attention_map]") {
  const auto data = chapter_map();
  AttentionMapRequest request;
  request.width = 7;   // 60 keys in groups of 8 or 9
  request.height = 4;  // 31 queries in groups of 7 or 8
  request.palette = test_palette();
  const auto map = attention_map(data.queries, data.keys, data.values, data.bandwidth, request);
  const auto full = attention(data.queries, data.keys, data.values, data.bandwidth);
  REQUIRE(map.image.size() == 7 * 4 * 4);
  for (Eigen::Index y = 0; y < 4; ++y)
    for (Eigen::Index x = 0; x < 7; ++x) {
      double sum = 0.0;
      int cells = 0;
      for (Eigen::Index r = 0; r < 31; ++r)
        for (Eigen::Index c = 0; c < 60; ++c)
          if (r * 4 / 31 == y && c * 7 / 60 == x) {
            sum += full.weights(r, c);
            ++cells;
          }
      INFO("pixel " << x << ", " << y << " (from the bottom), " << cells << " cells");
      CHECK(pixel_level(map, x, 3 - y) == linear_level(sum / cells, map.low, map.high));
      CHECK(map.image[static_cast<std::size_t>(((3 - y) * 7 + x) * 4 + 3)] == 255);
    }
}

TEST_CASE("log scale: the range starts at the smallest positive weight, exact zeros take the last colour",
          "[attention_map]") {
  const auto data = chapter_map();
  AttentionMapRequest request;
  request.scale = ColourScale::Log;
  request.palette = test_palette();
  const double h = 0.05;  // far keys underflow to exactly 0
  const auto map = attention_map(data.queries, data.keys, data.values, h, request);
  const auto full = attention(data.queries, data.keys, data.values, h);
  REQUIRE(map.zeros);
  double smallest_positive = 1.0;
  for (Eigen::Index i = 0; i < full.weights.size(); ++i)
    if (full.weights.data()[i] > 0.0) smallest_positive = std::min(smallest_positive, full.weights.data()[i]);
  CHECK(map.low == smallest_positive);
  CHECK(map.high == full.weights.maxCoeff());
  const double span = std::log10(map.high) - std::log10(map.low);
  for (Eigen::Index r = 0; r < 31; ++r)
    for (Eigen::Index c = 0; c < 60; ++c) {
      const double w = full.weights(r, c);
      const std::uint8_t* pixel = map.image.data() + ((30 - r) * 60 + c) * 4;
      if (w == 0.0) {
        REQUIRE(pixel[0] == 1);
        REQUIRE(pixel[3] == 4);
        continue;
      }
      // The thresholds are rounded: the level is floor(256 t) or, at a threshold, its neighbour.
      const double t = (std::log10(w) - std::log10(map.low)) / span;
      const int expected = static_cast<int>(std::clamp(std::floor(t * 256.0), 0.0, 255.0));
      REQUIRE(std::abs(static_cast<int>(pixel[0]) - expected) <= 1);
    }
}

TEST_CASE("attention_map refuses a bad row, image size or palette, and bad inputs as attention does",
          "[attention_map][validation]") {
  const auto data = chapter_map();
  AttentionMapRequest request;
  request.palette = test_palette();
  request.row = 31;
  CHECK_THROWS_WITH(attention_map(data.queries, data.keys, data.values, 0.18, request),
                    "row must be a query row from 0 to 30, got 31");
  request.row = 0;
  request.width = 61;
  CHECK_THROWS_WITH(attention_map(data.queries, data.keys, data.values, 0.18, request),
                    Catch::Contains("width must be from 1 to the number of keys (60)"));
  request.width = 0;
  request.height = -1;
  CHECK_THROWS_AS(attention_map(data.queries, data.keys, data.values, 0.18, request), std::out_of_range);
  request.height = 0;
  request.palette.pop_back();
  CHECK_THROWS_WITH(attention_map(data.queries, data.keys, data.values, 0.18, request),
                    "palette must hold 257 RGBA colours (1028 bytes), got 1027 bytes");
  request.palette = test_palette();
  CHECK_THROWS_WITH(attention_map(data.queries, data.keys, data.values, -1.0, request),
                    Catch::Contains("bandwidth must be positive and finite"));
  CHECK_THROWS_WITH(parse_colour_scale("logarithmic"), "scale must be \"linear\" or \"log\", got \"logarithmic\"");
}
