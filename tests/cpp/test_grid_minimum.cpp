#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_lens/grid_minimum.hpp"

using namespace kernel_lens;

namespace {

nlohmann::json grid_fixture() {
  std::ifstream in(std::string(KERNEL_LENS_FIXTURE_DIR) + "/grid_minimum.json");
  return nlohmann::json::parse(in);
}

Vector as_vector(const std::vector<double>& xs) { return Eigen::Map<const Vector>(xs.data(), xs.size()); }

}  // namespace

TEST_CASE("grid minimum matches numpy.argmin on the chapter audit and hand-made curves", "[grid_minimum]") {
  const nlohmann::json fixture = grid_fixture();
  for (const auto& c : fixture["cases"]) {
    INFO(c["name"].get<std::string>());
    const auto bandwidths = c["bandwidths"].get<std::vector<double>>();
    const GridMinimum minimum = grid_minimum(bandwidths, as_vector(c["risks"].get<std::vector<double>>()));
    REQUIRE(minimum.index == c["index"].get<std::size_t>());
    REQUIRE(minimum.bandwidth == c["bandwidth"].get<double>());
    REQUIRE(minimum.risk == c["risk"].get<double>());
  }
}

TEST_CASE("the chapter's audit has its grid minimum at h = 0.18", "[grid_minimum]") {
  const nlohmann::json fixture = grid_fixture();
  const auto& chapter = fixture["cases"][0];
  const GridMinimum minimum = grid_minimum(chapter["bandwidths"].get<std::vector<double>>(),
                                           as_vector(chapter["risks"].get<std::vector<double>>()));
  REQUIRE(minimum.bandwidth == 0.18);
  REQUIRE(minimum.risk == Approx(0.0236).margin(0.00005));
}

TEST_CASE("grid minimum refuses bad grids", "[grid_minimum]") {
  const Vector two = Vector::Constant(2, 1.0);
  REQUIRE_THROWS_AS(grid_minimum({}, Vector()), std::invalid_argument);
  REQUIRE_THROWS_WITH(grid_minimum({0.1}, two), Catch::Contains("one entry per bandwidth"));
  REQUIRE_THROWS_WITH(grid_minimum({0.1, 0.0}, two), Catch::Contains("bandwidths[1]"));
  Vector with_nan = two;
  with_nan(1) = std::nan("");
  REQUIRE_THROWS_WITH(grid_minimum({0.1, 0.2}, with_nan), Catch::Contains("risks"));
  REQUIRE_THROWS_AS(grid_minimum(std::vector<double>(5000, 0.1), Vector::Zero(5000)), std::length_error);
}
