// Curve evaluation (schema coefficient-set `Curve`): exact at grid points, linear between them in the
// scaled coordinate, ends held; log2 axes read through fmath, hold the low end at zero and refuse a negative input; malformed
// curves refused.
#include <gtest/gtest.h>

#include "cost/coefficients.h"

namespace {

using blis::cost::CostError;
using blis::cost::Curve;

Curve linear1() { return Curve{{{"m", false, {0.0, 10.0, 20.0}}}, {1.0, 3.0, 2.0}}; }

TEST(Curve, OneAxisIsExactAtPointsLinearBetweenAndHeldAtEnds) {
  const Curve c = linear1();
  EXPECT_EQ(c.at({{"m", 0.0}}, "t"), 1.0);
  EXPECT_EQ(c.at({{"m", 10.0}}, "t"), 3.0);
  EXPECT_EQ(c.at({{"m", 20.0}}, "t"), 2.0);
  EXPECT_DOUBLE_EQ(c.at({{"m", 5.0}}, "t"), 2.0);
  EXPECT_DOUBLE_EQ(c.at({{"m", 12.5}}, "t"), 2.75);
  EXPECT_EQ(c.at({{"m", -100.0}}, "t"), 1.0);
  EXPECT_EQ(c.at({{"m", 1e9}}, "t"), 2.0);
}

TEST(Curve, Log2AxisInterpolatesInLog2) {
  const Curve c{{{"k", true, {0.0, 4.0}}}, {0.5, 0.9}};  // k = 1 .. 16
  EXPECT_EQ(c.at({{"k", 1.0}}, "t"), 0.5);
  EXPECT_EQ(c.at({{"k", 16.0}}, "t"), 0.9);
  EXPECT_DOUBLE_EQ(c.at({{"k", 4.0}}, "t"), 0.7);   // log2 4 = 2: halfway
  EXPECT_DOUBLE_EQ(c.at({{"k", 2.0}}, "t"), 0.6);   // a quarter of the way, not 1/15 of it
  EXPECT_EQ(c.at({{"k", 0.5}}, "t"), 0.5);          // log2 0.5 = -1: below the first point, held
  EXPECT_EQ(c.at({{"k", 0.0}}, "t"), 0.5);          // zero (an idle rank's count): below every point, held
  EXPECT_THROW(c.at({{"k", -3.0}}, "t"), CostError);
}

TEST(Curve, TwoAxesAreBilinear) {
  // Row-major, the last axis fastest: v(a_i, b_j) = values[i * 2 + j].
  const Curve c{{{"a", false, {0.0, 1.0}}, {"b", false, {0.0, 2.0}}}, {1.0, 5.0, 3.0, 11.0}};
  EXPECT_EQ(c.at({{"a", 0.0}, {"b", 0.0}}, "t"), 1.0);
  EXPECT_EQ(c.at({{"a", 0.0}, {"b", 2.0}}, "t"), 5.0);
  EXPECT_EQ(c.at({{"a", 1.0}, {"b", 0.0}}, "t"), 3.0);
  EXPECT_EQ(c.at({{"a", 1.0}, {"b", 2.0}}, "t"), 11.0);
  EXPECT_DOUBLE_EQ(c.at({{"a", 0.5}, {"b", 1.0}}, "t"), 5.0);  // the mean of the four corners
  // a = 0.25, b = 1.5: (1-.25)(1-.75)*1 + (1-.25)(.75)*5 + .25(1-.75)*3 + .25*.75*11
  EXPECT_DOUBLE_EQ(c.at({{"a", 0.25}, {"b", 1.5}}, "t"), 0.1875 + 2.8125 + 0.1875 + 2.0625);
  // One axis held at its end, the other interpolated.
  EXPECT_DOUBLE_EQ(c.at({{"a", 7.0}, {"b", 1.0}}, "t"), 7.0);
}

TEST(Curve, RefusesMissingInputsAndMalformedGrids) {
  EXPECT_THROW(linear1().at({{"n", 1.0}}, "t"), CostError);
  EXPECT_NO_THROW(linear1().check("t"));
  EXPECT_THROW((Curve{{{"m", false, {0.0, 0.0}}}, {1.0, 2.0}}).check("t"), CostError);          // not increasing
  EXPECT_THROW((Curve{{{"m", false, {0.0, 1.0}}}, {1.0, 2.0, 3.0}}).check("t"), CostError);     // wrong count
  EXPECT_THROW((Curve{{{"m", false, {0.0}}}, {1.0}}).check("t"), CostError);                    // one point
  EXPECT_THROW((Curve{{{"m", false, {0.0, 1.0}}, {"m", false, {0.0, 1.0}}}, {1, 2, 3, 4}}).check("t"), CostError);
  EXPECT_THROW((Curve{{}, {1.0, 2.0}}).check("t"), CostError);
}

}  // namespace
