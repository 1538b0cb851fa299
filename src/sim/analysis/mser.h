// MSER-5, the warm-up rule of design §8.8 (White, "An effective truncation heuristic for bias reduction in
// simulation output", Simulation 69(6), 1997; White, Cobb and Spratt, "A comparison of five steady-state
// truncation heuristics", WSC 2000; Franklin and White, "Stationarity tests and MSER-5", WSC 2008).
//
// Definition used here, for observations x_1..x_n (n >= 15):
//   batches     m = floor(n / 5) non-overlapping means of five, Z_j = (x_{5j-4} + ... + x_{5j}) / 5; the last
//               n - 5m observations (fewer than five) enter no batch.
//   statistic   for a truncation of d batches, MSER(d) = sum_{j=d+1..m} (Z_j - Zbar_d)^2 / (m - d)^2, with
//               Zbar_d the mean of Z_{d+1..m}: the variance of the remaining mean's estimate, up to a factor.
//   search      d = 0, 1, ..., floor(m / 2) (the first half of the batches, so at least ceil(m/2) >= 2 batches
//               remain). d* is the d with the smallest MSER(d); on a tie the earliest (smallest d) wins.
//   cut         5 d* observations are discarded from the start.
//   limit       d* = floor(m / 2) means the minimum lies at the end of the searched half, so the true
//               minimum may lie beyond it: the series is too short, or still moving, for MSER-5 to find its
//               warm-up (Franklin and White's reading). This is reported as at_search_limit.
// The sums run in one fixed order (Welford's update over Z_m, Z_{m-1}, ..., Z_1), so the result is the same
// bits everywhere.
#pragma once

#include <cstddef>
#include <span>

namespace blis::sim::analysis {

inline constexpr std::size_t kMserBatchSize = 5;

struct Mser5 {
  std::size_t cut = 0;                // observations discarded from the start: 5 * truncated_batches
  std::size_t batches = 0;            // m = floor(n / 5)
  std::size_t truncated_batches = 0;  // d*
  std::size_t search_limit = 0;       // floor(m / 2), the largest d searched
  double statistic = 0.0;             // MSER(d*)
  bool at_search_limit = false;       // d* == search_limit
};

// MSER-5 of a series. Refuses (std::invalid_argument) fewer than 15 observations (three batches, so that
// the searched half leaves two) and a NaN or infinite value.
Mser5 mser5(std::span<const double> series);

}  // namespace blis::sim::analysis
