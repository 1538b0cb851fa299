// Unit types (SUB-16): arithmetic, pricing quotients, scope conversions, overflow and domain refusals,
// constant-expression use, and the schema spelling -> alias table of src/contracts/units.h.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "contracts/units.h"

namespace blis::units {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// ---- Constant expressions: everything that can be constexpr is, and is checked at compile time. ----
static_assert(Bytes{} == Bytes{0});
static_assert(Bytes{3} + Bytes{4} == Bytes{7});
static_assert(Tokens{10} - Tokens{15} == Tokens{-5});
static_assert(-Bytes{5} == Bytes{-5});
static_assert(Seconds{1.5} + Seconds{0.5} == Seconds{2.0});
static_assert(Bytes{3} < Bytes{4} && Bytes{4} >= Bytes{4} && Bytes{4} != Bytes{5});
static_assert(Seconds{1} < Seconds{2});
static_assert(Bytes{3} * 4 == Bytes{12} && 4 * Bytes{3} == Bytes{12} && Bytes{12} / 4 == Bytes{3});
static_assert(Seconds{3} * 0.5 == Seconds{1.5} && Seconds{3} / 2 == Seconds{1.5});
static_assert(Bytes{3} * Count{4} == Bytes{12} && Count{4} * Bytes{3} == Bytes{12} && Bytes{12} / Count{4} == Bytes{3});
static_assert(Count{3} * Count{4} == Count{12});
static_assert(Bytes{10} / Bytes{4} == Ratio{2.5});
static_assert(Count{1} / Count{4} == Ratio{0.25});
static_assert(Ratio{0.5} * Ratio{0.5} == Ratio{0.25} && Ratio{0.5} / Ratio{0.25} == Ratio{2.0});
static_assert(FlopsPerS{8.0} * Ratio{0.5} == FlopsPerS{4.0} && Ratio{0.5} * FlopsPerS{8.0} == FlopsPerS{4.0});
static_assert(Seconds{1.0} / Ratio{0.5} == Seconds{2.0});
static_assert(Flops{2e12} / FlopsPerS{1e12} == Seconds{2.0});
static_assert(Bytes{1000} / BytesPerS{500.0} == Seconds{2.0});
static_assert(BytesPerRank{100} / BytesPerSPerRank{50.0} == Seconds{2.0});
static_assert(FlopsPerGroup{6.0} / FlopsPerSPerGroup{3.0} == Seconds{2.0});
static_assert(Bytes{1000} / Seconds{2.0} == BytesPerS{500.0});
static_assert(FlopsPerRank{9.0} / Seconds{3.0} == FlopsPerSPerRank{3.0});
static_assert(FlopsPerSPerNode{4.0} * Seconds{2.0} == FlopsPerNode{8.0});
static_assert(Seconds{2.0} * FlopsPerS{4.0} == Flops{8.0});
static_assert(to_node(BytesPerRank{10}, Count{8}) == BytesPerNode{80});
static_assert(to_group(TokensPerRank{10}, Count{4}) == TokensPerGroup{40});
static_assert(to_rank(BytesPerGroup{80}, Count{8}) == BytesPerRank{10});
static_assert(to_rank(SecondsPerNode{3.0}, Count{2}) == SecondsPerRank{1.5});
static_assert(drop_scope(BytesPerRank{7}) == Bytes{7});
static_assert(with_scope<Scope::kNode>(Bytes{7}) == BytesPerNode{7});
static_assert(floor_div(Bytes{7}, Bytes{2}) == Count{3} && floor_div(Bytes{-7}, Bytes{2}) == Count{-4});
static_assert(ceil_div(Bytes{7}, Bytes{2}) == Count{4} && ceil_div(Bytes{-7}, Bytes{2}) == Count{-3});
static_assert(ceil_div(Tokens{8}, Tokens{2}) == Count{4});
static_assert(Bytes{kMax} - Bytes{1} + Bytes{1} == Bytes{kMax});
static_assert(Bytes{7}.value() == 7 && Seconds{0.25}.value() == 0.25);
static_assert(BytesPerRank::name() == "bytes/rank" && unit_name(FlopsPerSPerNode{}) == "flops_per_s/node");
static_assert(sizeof(Bytes) == sizeof(std::int64_t) && sizeof(Seconds) == sizeof(double));
static_assert(std::is_trivially_copyable_v<Bytes> && std::is_trivially_copyable_v<Seconds>);

// ---- Explicit construction only, and no mixing (the compile-fail twins show the diagnostics). ----
static_assert(std::is_constructible_v<Bytes, std::int64_t> && !std::is_convertible_v<std::int64_t, Bytes>);
static_assert(std::is_constructible_v<Seconds, double> && !std::is_convertible_v<double, Seconds>);
static_assert(!std::is_constructible_v<Bytes, double>, "an integer unit refuses a real");
static_assert(!std::is_constructible_v<Bytes, bool>);
static_assert(!std::is_constructible_v<BytesPerNode, BytesPerRank> &&
              !std::is_assignable_v<BytesPerNode&, BytesPerRank>);
static_assert(!std::is_constructible_v<Bytes, Tokens> && !std::is_convertible_v<Bytes, std::int64_t>);

template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept Multipliable = requires(A a, B b) { a * b; };
template <class A, class B>
concept Divisible = requires(A a, B b) { a / b; };
template <class A, class B>
concept Comparable = requires(A a, B b) { a < b; };

static_assert(Addable<Bytes, Bytes> && !Addable<Bytes, Tokens> && !Addable<Bytes, std::int64_t>);
static_assert(!Addable<BytesPerRank, BytesPerGroup> && !Addable<BytesPerRank, Bytes>);
static_assert(!Comparable<Seconds, Flops> && !Comparable<Seconds, double> && Comparable<Flops, Flops>);
static_assert(!Multipliable<Bytes, double> && !Multipliable<Bytes, Ratio> && !Multipliable<Bytes, Bytes>);
static_assert(!Multipliable<Bytes, Tokens> && !Multipliable<Bytes, CountPerNode> && Multipliable<Seconds, double>);
static_assert(!Multipliable<BytesPerS, Seconds>, "it would have to round to whole bytes");
static_assert(!Divisible<Flops, BytesPerS> && !Divisible<BytesPerRank, BytesPerSPerGroup>);
static_assert(!Divisible<BytesPerRank, BytesPerS> && !Divisible<Bytes, double>);
static_assert(!Divisible<Bytes, SecondsPerRank>);
static_assert(std::is_same_v<decltype(BytesPerRank{} / BytesPerSPerRank{1.0}), Seconds>);
static_assert(std::is_same_v<decltype(BytesPerNode{} / Seconds{1.0}), BytesPerSPerNode>);
static_assert(std::is_same_v<decltype(Tokens{} / Tokens{1}), Ratio>);

// ---- The spelling table of units.h: every schema unit names its alias and representation. ----
template <class Q>
constexpr bool row(std::string_view spelling, bool integer) {
  return Q::name() == spelling && std::is_same_v<typename Q::rep, std::int64_t> == integer &&
         std::is_same_v<typename Q::rep, double> == !integer;
}
static_assert(row<Bytes>("bytes", true) && row<BytesPerRank>("bytes/rank", true) &&
              row<BytesPerNode>("bytes/node", true) && row<BytesPerGroup>("bytes/group", true));
static_assert(row<Seconds>("seconds", false) && row<SecondsPerRank>("seconds/rank", false) &&
              row<SecondsPerNode>("seconds/node", false) && row<SecondsPerGroup>("seconds/group", false));
static_assert(row<Tokens>("tokens", true) && row<TokensPerRank>("tokens/rank", true) &&
              row<TokensPerNode>("tokens/node", true) && row<TokensPerGroup>("tokens/group", true));
static_assert(row<Flops>("flops", false) && row<FlopsPerRank>("flops/rank", false) &&
              row<FlopsPerNode>("flops/node", false) && row<FlopsPerGroup>("flops/group", false));
static_assert(row<BytesPerS>("bytes_per_s", false) && row<BytesPerSPerRank>("bytes_per_s/rank", false) &&
              row<BytesPerSPerNode>("bytes_per_s/node", false) && row<BytesPerSPerGroup>("bytes_per_s/group", false));
static_assert(row<FlopsPerS>("flops_per_s", false) && row<FlopsPerSPerRank>("flops_per_s/rank", false) &&
              row<FlopsPerSPerNode>("flops_per_s/node", false) && row<FlopsPerSPerGroup>("flops_per_s/group", false));
static_assert(row<Ratio>("ratio", false) && row<RatioPerRank>("ratio/rank", false) &&
              row<RatioPerNode>("ratio/node", false) && row<RatioPerGroup>("ratio/group", false));
static_assert(row<Count>("count", true) && row<CountPerRank>("count/rank", true) &&
              row<CountPerNode>("count/node", true) && row<CountPerGroup>("count/group", true));

// ---- Run time: the same operations, and the refusals that cannot happen in a constant expression. ----
TEST(Units, SameUnitArithmeticAndCompoundAssignment) {
  Bytes b{100};
  b += Bytes{28};
  b -= Bytes{64};
  b *= 3;
  b /= 2;
  EXPECT_EQ(b, Bytes{96});
  Seconds s{1.0};
  s *= 2.5;
  s /= 5;
  s += Seconds{0.25};
  EXPECT_EQ(s.value(), 0.75);
  EXPECT_LT(Tokens{1}, Tokens{2});
  EXPECT_EQ(-Seconds{1.5}, Seconds{-1.5});
}

TEST(Units, PricingQuotients) {
  const FlopsPerSPerRank peak{1e15};
  const Ratio efficiency{0.5};
  EXPECT_EQ(FlopsPerRank{1e15} / (peak * efficiency), Seconds{2.0});
  EXPECT_EQ(BytesPerRank{std::int64_t{1} << 40} / BytesPerSPerRank{1099511627776.0}, Seconds{1.0});
  EXPECT_EQ(Flops{6.0} / Seconds{2.0}, FlopsPerS{3.0});
  EXPECT_EQ(FlopsPerS{3.0} * Seconds{2.0}, Flops{6.0});
}

TEST(Units, ScopeConversionsStateTheirCounts) {
  EXPECT_EQ(to_group(BytesPerRank{1024}, Count{8}), BytesPerGroup{8192});
  EXPECT_EQ(to_node(CountPerRank{2}, Count{4}), CountPerNode{8});
  EXPECT_EQ(to_rank(TokensPerNode{12}, Count{4}), TokensPerRank{3});
  EXPECT_EQ(to_rank(FlopsPerSPerGroup{3.0}, Count{2}), FlopsPerSPerRank{1.5});
  EXPECT_THROW(to_group(BytesPerRank{1}, Count{0}), std::domain_error);
  EXPECT_THROW(to_rank(BytesPerGroup{10}, Count{-1}), std::domain_error);
  EXPECT_THROW(to_rank(BytesPerGroup{10}, Count{3}), std::domain_error);  // integer units split exactly
}

TEST(Units, IntegerOverflowIsRefusedNeverWrapped) {
  EXPECT_THROW(Bytes{kMax} + Bytes{1}, std::overflow_error);
  EXPECT_THROW(Bytes{kMin} - Bytes{1}, std::overflow_error);
  EXPECT_THROW(-Tokens{kMin}, std::overflow_error);
  EXPECT_THROW(Bytes{kMax / 2 + 1} * 2, std::overflow_error);
  EXPECT_THROW(3 * Tokens{kMax / 2}, std::overflow_error);
  EXPECT_THROW(Bytes{kMax} * Count{2}, std::overflow_error);
  EXPECT_THROW(Bytes{kMin} / -1, std::overflow_error);
  EXPECT_THROW(to_group(BytesPerRank{kMax}, Count{2}), std::overflow_error);
  EXPECT_THROW(Bytes{std::numeric_limits<std::uint64_t>::max()}, std::overflow_error);
  EXPECT_THROW(Bytes{1} * std::numeric_limits<std::uint64_t>::max(), std::overflow_error);
  Bytes b{kMax};
  EXPECT_THROW(b += Bytes{1}, std::overflow_error);
  EXPECT_EQ(b, Bytes{kMax});  // a refused operation leaves its operand unchanged
  try {
    (void)(BytesPerRank{kMax} + BytesPerRank{2});
    FAIL() << "no overflow refused";
  } catch (const std::overflow_error& e) {
    EXPECT_EQ(std::string_view(e.what()), "units: bytes/rank overflow: 9223372036854775807 + 2");
  }
}

TEST(Units, DivisionRefusesZeroAndSilentRounding) {
  EXPECT_THROW(Bytes{1} / 0, std::domain_error);
  EXPECT_THROW(Bytes{7} / 2, std::domain_error);
  EXPECT_THROW(Bytes{7} / Count{2}, std::domain_error);
  EXPECT_THROW(Seconds{1.0} / 0.0, std::domain_error);
  EXPECT_THROW(Flops{1.0} / FlopsPerS{0.0}, std::domain_error);
  EXPECT_THROW(Bytes{1} / BytesPerS{0.0}, std::domain_error);
  EXPECT_THROW(Bytes{1} / Bytes{0}, std::domain_error);
  EXPECT_THROW(Bytes{1} / Seconds{0.0}, std::domain_error);
  EXPECT_THROW(floor_div(Bytes{1}, Bytes{0}), std::domain_error);
  EXPECT_THROW(ceil_div(Bytes{1}, Bytes{-2}), std::domain_error);
  try {
    (void)(Tokens{7} / 2);
    FAIL() << "no inexact division refused";
  } catch (const std::domain_error& e) {
    EXPECT_EQ(std::string_view(e.what()), "units: tokens: division is not exact (use floor_div or ceil_div): 7, 2");
  }
}

TEST(Units, NamesForMessages) {
  EXPECT_EQ(to_string(BytesPerRank{4096}), "4096 bytes/rank");
  EXPECT_EQ(to_string(Seconds{0.1}), "0.1 seconds");
  EXPECT_EQ(to_string(FlopsPerSPerNode{1e15}), "1e+15 flops_per_s/node");
  EXPECT_EQ(to_string(Ratio{-0.5}), "-0.5 ratio");
  std::ostringstream os;
  os << TokensPerGroup{12} << ", " << Count{3};
  EXPECT_EQ(os.str(), "12 tokens/group, 3 count");
}

}  // namespace
}  // namespace blis::units
