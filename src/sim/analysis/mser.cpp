#include "sim/analysis/mser.h"

#include <vector>

#include "sim/analysis/checks.h"

namespace blis::sim::analysis {

Mser5 mser5(std::span<const double> series) {
  detail::require_size("mser5", "series", series, 3 * kMserBatchSize,
                       "MSER-5 needs three batches of five so that the searched half leaves two");
  detail::require_finite("mser5", "series", series);
  const std::size_t m = series.size() / kMserBatchSize;
  std::vector<double> z(m);
  for (std::size_t j = 0; j < m; ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < kMserBatchSize; ++i) s += series[j * kMserBatchSize + i];
    z[j] = s / static_cast<double>(kMserBatchSize);
  }
  const std::size_t limit = m / 2;
  // stat[d] = MSER(d) for d = 0..limit, from Welford's running mean and sum of squares over Z_m down to Z_1.
  std::vector<double> stat(limit + 1);
  double running_mean = 0.0;
  double m2 = 0.0;
  for (std::size_t j = m; j-- > 0;) {
    const double count = static_cast<double>(m - j);
    const double delta = z[j] - running_mean;
    running_mean += delta / count;
    m2 += delta * (z[j] - running_mean);
    if (j <= limit) stat[j] = m2 / (count * count);
  }
  Mser5 r;
  r.batches = m;
  r.search_limit = limit;
  r.truncated_batches = 0;
  r.statistic = stat[0];
  for (std::size_t d = 1; d <= limit; ++d) {
    if (stat[d] < r.statistic) {
      r.statistic = stat[d];
      r.truncated_batches = d;
    }
  }
  r.cut = r.truncated_batches * kMserBatchSize;
  r.at_search_limit = r.truncated_batches == limit;
  return r;
}

}  // namespace blis::sim::analysis
