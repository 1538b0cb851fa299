// The two trend tests the steady-state detector applies to a window's batch means Y_1..Y_k (design §8.8:
// "a run whose measured window shows a trend has not settled"; "if the backlog grows, the system is
// overloaded").
#pragma once

#include <span>

namespace blis::sim::analysis {

// Ordinary least-squares slope test: Y_j = a + b j + e_j with e_j independent normal. b is the OLS slope,
// se(b) = s / sqrt(Sxx) with s^2 = RSS / (k - 2) and Sxx = sum (j - (k+1)/2)^2, t = b / se(b), and the
// two-sided p = 2 P(T_{k-2} > |t|). trend = p < level. Valid when the batch means are independent (the
// batch-means correlation check guards that); it detects a window still drifting up or down.
// Degenerate windows: all Y equal gives b = 0, t = 0, p = 1; Y exactly on a line with b != 0 gives
// t = +-infinity, p = 0.
struct SlopeTest {
  double slope = 0.0;  // b, in the series' unit per batch
  double t_statistic = 0.0;
  double degrees_of_freedom = 0.0;  // k - 2
  double p_value = 1.0;             // two-sided
  double level = 0.0;
  bool trend = false;  // p_value < level
};

// Drift test of a random walk with drift on the increments D_j = Y_{j+1} - Y_j, j = 1..k-1: t = Dbar /
// (s_D / sqrt(k - 1)) with s_D the increments' sample standard deviation, and the one-sided p =
// P(T_{k-2} > t). grows = p < level. If the series is a random walk (the backlog of a queue at or above
// capacity, whose batch means are strongly correlated) with no drift, t has exactly the t distribution
// with k - 2 degrees of freedom; a drift upward (overload: arrivals faster than departures) makes it large.
// For a stationary series the increments telescope, Dbar = (Y_k - Y_1) / (k - 1), while s_D stays of the
// order of the series' spread, so t stays small whether or not its batches are correlated: none of the
// 5650 runs below capacity in tests/sim/analysis/detector_error_rates_test.cpp was classed overloaded.
// Degenerate windows (s_D = 0): Dbar > 0 gives t = +infinity, p = 0; Dbar < 0 gives t = -infinity, p = 1;
// Dbar = 0 gives t = 0, p = 1/2.
struct GrowthTest {
  double mean_increment = 0.0;  // Dbar, in the series' unit per batch
  double t_statistic = 0.0;
  double degrees_of_freedom = 0.0;  // k - 2
  double p_value = 1.0;             // one-sided, upward
  double level = 0.0;
  bool grows = false;  // p_value < level
};

// Both refuse (std::invalid_argument) fewer than three values, a NaN or infinite value, and a level
// outside (0, 1).
SlopeTest slope_test(std::span<const double> means, double level);
GrowthTest growth_test(std::span<const double> means, double level);

}  // namespace blis::sim::analysis
