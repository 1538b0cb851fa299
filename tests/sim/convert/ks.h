// Kolmogorov-Smirnov statistics and their asymptotic critical values, for the converter tests.
//
// Critical values: the Kolmogorov distribution's upper quantile c(alpha) = sqrt(-ln(alpha / 2) / 2)
// (c(0.01) = 1.6276), giving c / sqrt(n) for one sample of n and c sqrt((n + m) / (n m)) for two samples
// (Smirnov). Both are asymptotic; at the sample sizes used here (1000 and more) they are within a few percent
// of the exact values. For a discrete distribution (token counts, and times on a microsecond grid with
// ties), the continuous critical value makes the test conservative: it rejects less often than alpha.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace blis::test {

inline double ks_c(double alpha) { return std::sqrt(-std::log(alpha / 2) / 2); }
inline double ks_critical(std::size_t n, double alpha) { return ks_c(alpha) / std::sqrt(static_cast<double>(n)); }
inline double ks_critical(std::size_t n, std::size_t m, double alpha) {
  const double a = static_cast<double>(n), b = static_cast<double>(m);
  return ks_c(alpha) * std::sqrt((a + b) / (a * b));
}

// sup |F_n - F| for a continuous F.
inline double ks_one_sample(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

// sup |F_n - F| for an integer-valued F with cdf(k) = P(X <= k), exact: both step functions are constant
// between integers, so the supremum is attained at an integer in [lo - 1, hi] (the sample and the support).
inline double ks_discrete(const std::vector<std::int64_t>& x, const std::function<double(std::int64_t)>& cdf,
                          std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> s = x;
  std::sort(s.begin(), s.end());
  lo = std::min(lo, s.front());
  hi = std::max(hi, s.back());
  const double n = static_cast<double>(s.size());
  double d = 0;
  std::size_t below = 0;  // sample values <= k
  for (std::int64_t k = lo - 1; k <= hi; ++k) {
    while (below < s.size() && s[below] <= k) ++below;
    d = std::max(d, std::abs(static_cast<double>(below) / n - cdf(k)));
  }
  return d;
}

// sup |F_n - G_m| between two samples.
inline double ks_two_sample(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double v = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= v) ++i;
    while (j < b.size() && b[j] <= v) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / static_cast<double>(a.size()) -
                             static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return d;
}

inline double mean_of(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

// Coefficient of variation (sample standard deviation over mean).
inline double cv_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(x.size() - 1)) / m;
}

}  // namespace blis::test
