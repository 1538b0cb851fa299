// Quantities carry units as distinct types (SUB-16): adding tokens to bytes, or a per-rank amount to a
// per-group one, does not compile. Hand-written (INTERFACES.md); blis-gen's generated types use the
// aliases below for every schema field that states a `unit:`. Depends on nothing of ours (X7).
//
// Representation. Each unit has exactly one representation, fixed by its dimension, so a schema unit
// spelling names exactly one C++ type and no expression mixes an integer and a real representation of
// the same unit:
//   - bytes, tokens, count hold std::int64_t. They count discrete things whose sums and capacity
//     comparisons must be exact; a double would round above 2^53 and could not refuse an overflow.
//   - seconds, flops, bytes_per_s, flops_per_s, ratio hold double. They are results of pricing formulas
//     (quotients, rates times efficiencies) or figures beyond int64 (a run's FLOPs), and are never
//     compared for exact capacity.
// A schema `int` field may therefore carry only an integer unit and a `number` field only a real one.
//
// Failure. Integer arithmetic never wraps and no operation silently rounds: overflow throws
// std::overflow_error; division by zero (any representation), a count below one in a scope conversion,
// and an integer division that is not exact throw std::domain_error. Operators cannot return an error
// value, so they throw; the messages name the unit and the operands. In a constant expression the same
// refusals are compile errors.
//
// The set of units is the schema language's (schemas/README.md) and no larger. There is deliberately no
// per-token unit (bytes per token): the schema cannot state one, and a per-token size is a Bytes value
// that is scaled by a token count through an explicit `tokens.value()`.
//
// Operations (all constexpr unless noted):
//   construction    explicit only: Bytes{4096}, Seconds{0.5}; Bytes{} is zero. An integer unit accepts
//                   integers only (out-of-range ones throw), a real unit integers or reals; never bool.
//   .value()        the raw number.
//   same unit       + - += -= unary -, == <=> (same unit and scope only), a / b -> Ratio.
//   scalar          q * n, n * q, q / n, *=, /= with a raw number (integer units: integers only, and
//                   q / n must be exact); q * Count, Count * q, q / Count likewise.
//   integer units   floor_div(a, b), ceil_div(a, b) -> Count (b > 0): the only rounding division.
//   real units      q * Ratio, Ratio * q, q / Ratio (e.g. a rate derated by an efficiency); Ratio * Ratio.
//   pricing         Flops / FlopsPerS -> Seconds, Bytes / BytesPerS -> Seconds (operands of one scope;
//                   the scope cancels), Flops / Seconds -> FlopsPerS, Bytes / Seconds -> BytesPerS,
//                   FlopsPerS * Seconds -> Flops (Seconds unscoped; the amount's scope is kept).
//                   BytesPerS * Seconds is absent: it would have to round to whole bytes.
//   scope           to_node(per_rank, Count ranks_per_node), to_group(per_rank, Count ranks_in_group)
//                   multiply; to_rank(per_node_or_group, Count ranks) divides exactly. A node and a
//                   group are not nested (a group may be part of a node or span several), so there is
//                   no direct node<->group conversion: go through per-rank. drop_scope(q) and
//                   with_scope<S>(unscoped) relabel without arithmetic, for figures whose scope is a
//                   matter of definition; per-rank to per-group by relabelling takes both steps.
//   names           Q::name() / unit_name(q): the schema spelling, e.g. "bytes/rank";
//                   to_string(q) (not constexpr): e.g. "4096 bytes/rank", reals in shortest round-trip form.
//
// Schema unit spelling -> C++ type blis::units::<Alias> (Alias = CamelCase of the spelling, '/' read as
// "per"), and its representation:
//   bytes              Bytes              int64    bytes_per_s        BytesPerS          double
//   bytes/rank         BytesPerRank       int64    bytes_per_s/rank   BytesPerSPerRank   double
//   bytes/node         BytesPerNode       int64    bytes_per_s/node   BytesPerSPerNode   double
//   bytes/group        BytesPerGroup      int64    bytes_per_s/group  BytesPerSPerGroup  double
//   seconds            Seconds            double   flops_per_s        FlopsPerS          double
//   seconds/rank       SecondsPerRank     double   flops_per_s/rank   FlopsPerSPerRank   double
//   seconds/node       SecondsPerNode     double   flops_per_s/node   FlopsPerSPerNode   double
//   seconds/group      SecondsPerGroup    double   flops_per_s/group  FlopsPerSPerGroup  double
//   tokens             Tokens             int64    ratio              Ratio              double
//   tokens/rank        TokensPerRank      int64    ratio/rank         RatioPerRank       double
//   tokens/node        TokensPerNode      int64    ratio/node         RatioPerNode       double
//   tokens/group       TokensPerGroup     int64    ratio/group        RatioPerGroup      double
//   flops              Flops              double   count              Count              int64
//   flops/rank         FlopsPerRank       double   count/rank         CountPerRank       int64
//   flops/node         FlopsPerNode       double   count/node         CountPerNode       int64
//   flops/group        FlopsPerGroup      double   count/group        CountPerGroup      int64
// tests/unit/units_test.cpp checks every row against Alias::name() and Alias::rep.
#pragma once

#include <charconv>
#include <compare>
#include <concepts>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace blis::units {

enum class Dim : std::uint8_t { kBytes, kSeconds, kTokens, kFlops, kBytesPerS, kFlopsPerS, kRatio, kCount };
enum class Scope : std::uint8_t { kNone, kRank, kNode, kGroup };

namespace detail {

inline constexpr std::string_view kSpelling[8][4] = {
    {"bytes", "bytes/rank", "bytes/node", "bytes/group"},
    {"seconds", "seconds/rank", "seconds/node", "seconds/group"},
    {"tokens", "tokens/rank", "tokens/node", "tokens/group"},
    {"flops", "flops/rank", "flops/node", "flops/group"},
    {"bytes_per_s", "bytes_per_s/rank", "bytes_per_s/node", "bytes_per_s/group"},
    {"flops_per_s", "flops_per_s/rank", "flops_per_s/node", "flops_per_s/group"},
    {"ratio", "ratio/rank", "ratio/node", "ratio/group"},
    {"count", "count/rank", "count/node", "count/group"},
};

constexpr bool integer_dim(Dim d) { return d == Dim::kBytes || d == Dim::kTokens || d == Dim::kCount; }

template <Dim D>
using RepOf = std::conditional_t<integer_dim(D), std::int64_t, double>;

// Integers other than bool and the character types (std::in_range refuses those).
template <class T>
concept Integer =
    std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool> && !std::same_as<std::remove_cv_t<T>, char> &&
    !std::same_as<std::remove_cv_t<T>, wchar_t> && !std::same_as<std::remove_cv_t<T>, char8_t> &&
    !std::same_as<std::remove_cv_t<T>, char16_t> && !std::same_as<std::remove_cv_t<T>, char32_t>;

// A raw number a quantity of representation Rep may be built from or scaled by.
template <class T, class Rep>
concept RealFor = std::floating_point<T> && std::floating_point<Rep>;
template <class T, class Rep>
concept ScalarFor = Integer<T> || RealFor<T, Rep>;

inline std::string number_text(std::int64_t v) { return std::to_string(v); }

inline std::string number_text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Not constexpr on purpose: reached during constant evaluation, it makes the expression ill-formed.
template <class A, class B>
[[noreturn]] inline void refuse_overflow(std::string_view unit, std::string_view op, A a, B b) {
  throw std::overflow_error("units: " + std::string(unit) + " overflow: " + number_text(a) + " " + std::string(op) +
                            " " + number_text(b));
}

template <class A, class B>
[[noreturn]] inline void refuse_domain(std::string_view unit, std::string_view what, A a, B b) {
  throw std::domain_error("units: " + std::string(unit) + ": " + std::string(what) + ": " + number_text(a) + ", " +
                          number_text(b));
}

template <class T>
[[noreturn]] inline void refuse_range(std::string_view unit, T v) {
  throw std::overflow_error("units: " + std::string(unit) + ": " + std::to_string(v) + " does not fit in int64");
}

template <class Rep, class T>
constexpr Rep to_rep(T v, std::string_view unit) {
  if constexpr (std::integral<Rep>) {
    if (!std::in_range<Rep>(v)) {
      refuse_range(unit, v);
    }
  }
  return static_cast<Rep>(v);
}

constexpr std::int64_t add(std::int64_t a, std::int64_t b, std::string_view unit) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) {
    refuse_overflow(unit, "+", a, b);
  }
  return r;
}

constexpr std::int64_t sub(std::int64_t a, std::int64_t b, std::string_view unit) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) {
    refuse_overflow(unit, "-", a, b);
  }
  return r;
}

constexpr std::int64_t mul(std::int64_t a, std::int64_t b, std::string_view unit) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) {
    refuse_overflow(unit, "*", a, b);
  }
  return r;
}

constexpr std::int64_t exact_div(std::int64_t a, std::int64_t b, std::string_view unit) {
  if (b == 0) {
    refuse_domain(unit, "division by zero", a, b);
  }
  if (b == -1) {
    return sub(0, a, unit);  // the one overflowing quotient: INT64_MIN / -1
  }
  if (a % b != 0) {
    refuse_domain(unit, "division is not exact (use floor_div or ceil_div)", a, b);
  }
  return a / b;
}

constexpr double real_div(double a, double b, std::string_view unit) {
  if (b == 0.0) {
    refuse_domain(unit, "division by zero", a, b);
  }
  return a / b;
}

}  // namespace detail

template <Dim D, Scope S = Scope::kNone>
class Quantity {
 public:
  using rep = detail::RepOf<D>;
  static constexpr Dim dim = D;
  static constexpr Scope scope = S;

  static constexpr std::string_view name() { return detail::kSpelling[static_cast<int>(D)][static_cast<int>(S)]; }

  constexpr Quantity() = default;
  template <class T>
  requires detail::ScalarFor<T, rep>
  constexpr explicit Quantity(T v) : v_(detail::to_rep<rep>(v, name())) {}

  constexpr rep value() const { return v_; }

  // Same unit and scope.
  friend constexpr Quantity operator+(Quantity a, Quantity b) {
    if constexpr (std::integral<rep>) {
      return Quantity(detail::add(a.v_, b.v_, name()));
    } else {
      return Quantity(a.v_ + b.v_);
    }
  }
  friend constexpr Quantity operator-(Quantity a, Quantity b) {
    if constexpr (std::integral<rep>) {
      return Quantity(detail::sub(a.v_, b.v_, name()));
    } else {
      return Quantity(a.v_ - b.v_);
    }
  }
  friend constexpr Quantity operator-(Quantity a) {
    if constexpr (std::integral<rep>) {
      return Quantity{} - a;
    } else {
      return Quantity(-a.v_);
    }
  }
  friend constexpr Quantity operator+(Quantity a) { return a; }
  constexpr Quantity& operator+=(Quantity b) { return *this = *this + b; }
  constexpr Quantity& operator-=(Quantity b) { return *this = *this - b; }

  friend constexpr bool operator==(const Quantity&, const Quantity&) = default;
  friend constexpr auto operator<=>(Quantity a, Quantity b) { return a.v_ <=> b.v_; }

  // Same unit and scope: a dimensionless quotient.
  friend constexpr Quantity<Dim::kRatio> operator/(Quantity a, Quantity b) {
    return Quantity<Dim::kRatio>(detail::real_div(static_cast<double>(a.v_), static_cast<double>(b.v_), name()));
  }

  // Raw scalars.
  template <class T>
  requires detail::ScalarFor<T, rep>
  friend constexpr Quantity operator*(Quantity q, T n) { return q.scaled(detail::to_rep<rep>(n, name())); }
  template <class T>
  requires detail::ScalarFor<T, rep>
  friend constexpr Quantity operator*(T n, Quantity q) { return q.scaled(detail::to_rep<rep>(n, name())); }
  template <class T>
  requires detail::ScalarFor<T, rep>
  friend constexpr Quantity operator/(Quantity q, T n) { return q.divided(detail::to_rep<rep>(n, name())); }
  template <class T>
  requires detail::ScalarFor<T, rep>
  constexpr Quantity& operator*=(T n) { return *this = *this * n; }
  template <class T>
  requires detail::ScalarFor<T, rep>
  constexpr Quantity& operator/=(T n) { return *this = *this / n; }

  // Helpers for the operators in this header; not part of the interface.
  constexpr Quantity scaled(rep n) const {
    if constexpr (std::integral<rep>) {
      return Quantity(detail::mul(v_, n, name()));
    } else {
      return Quantity(v_ * n);
    }
  }
  constexpr Quantity divided(rep n) const {
    if constexpr (std::integral<rep>) {
      return Quantity(detail::exact_div(v_, n, name()));
    } else {
      return Quantity(detail::real_div(v_, n, name()));
    }
  }

  friend std::ostream& operator<<(std::ostream& os, const Quantity& q) {
    return os << detail::number_text(q.v_) << ' ' << name();
  }

 private:
  rep v_ = 0;
};

// ---- Aliases: blis::units::<Alias> for every schema unit spelling (table above). ----
using Bytes = Quantity<Dim::kBytes>;
using BytesPerRank = Quantity<Dim::kBytes, Scope::kRank>;
using BytesPerNode = Quantity<Dim::kBytes, Scope::kNode>;
using BytesPerGroup = Quantity<Dim::kBytes, Scope::kGroup>;
using Seconds = Quantity<Dim::kSeconds>;
using SecondsPerRank = Quantity<Dim::kSeconds, Scope::kRank>;
using SecondsPerNode = Quantity<Dim::kSeconds, Scope::kNode>;
using SecondsPerGroup = Quantity<Dim::kSeconds, Scope::kGroup>;
using Tokens = Quantity<Dim::kTokens>;
using TokensPerRank = Quantity<Dim::kTokens, Scope::kRank>;
using TokensPerNode = Quantity<Dim::kTokens, Scope::kNode>;
using TokensPerGroup = Quantity<Dim::kTokens, Scope::kGroup>;
using Flops = Quantity<Dim::kFlops>;
using FlopsPerRank = Quantity<Dim::kFlops, Scope::kRank>;
using FlopsPerNode = Quantity<Dim::kFlops, Scope::kNode>;
using FlopsPerGroup = Quantity<Dim::kFlops, Scope::kGroup>;
using BytesPerS = Quantity<Dim::kBytesPerS>;
using BytesPerSPerRank = Quantity<Dim::kBytesPerS, Scope::kRank>;
using BytesPerSPerNode = Quantity<Dim::kBytesPerS, Scope::kNode>;
using BytesPerSPerGroup = Quantity<Dim::kBytesPerS, Scope::kGroup>;
using FlopsPerS = Quantity<Dim::kFlopsPerS>;
using FlopsPerSPerRank = Quantity<Dim::kFlopsPerS, Scope::kRank>;
using FlopsPerSPerNode = Quantity<Dim::kFlopsPerS, Scope::kNode>;
using FlopsPerSPerGroup = Quantity<Dim::kFlopsPerS, Scope::kGroup>;
using Ratio = Quantity<Dim::kRatio>;
using RatioPerRank = Quantity<Dim::kRatio, Scope::kRank>;
using RatioPerNode = Quantity<Dim::kRatio, Scope::kNode>;
using RatioPerGroup = Quantity<Dim::kRatio, Scope::kGroup>;
using Count = Quantity<Dim::kCount>;
using CountPerRank = Quantity<Dim::kCount, Scope::kRank>;
using CountPerNode = Quantity<Dim::kCount, Scope::kNode>;
using CountPerGroup = Quantity<Dim::kCount, Scope::kGroup>;

template <Dim D, Scope S>
constexpr std::string_view unit_name(Quantity<D, S>) {
  return Quantity<D, S>::name();
}

template <Dim D, Scope S>
std::string to_string(Quantity<D, S> q) {
  return detail::number_text(q.value()) + " " + std::string(Quantity<D, S>::name());
}

// ---- Constraints of the operations below. ----
namespace detail {
template <Dim D>
inline constexpr bool kInteger = integer_dim(D);
// Count * q and q / Count: any quantity but the plain Count (Count * Count is q * Count, and Count / Count
// is the same-unit quotient, a Ratio).
template <Dim D, Scope S>
inline constexpr bool kCountScales = D != Dim::kCount || S != Scope::kNone;
// q * Ratio: any real unit. Ratio * q and q / Ratio: any real unit but the plain Ratio, likewise.
template <Dim D>
inline constexpr bool kReal = !integer_dim(D);
template <Dim D, Scope S>
inline constexpr bool kRatioScales = !integer_dim(D) && (D != Dim::kRatio || S != Scope::kNone);
// Per-rank amounts add up over a node or a group; ratios do not.
template <Dim D>
inline constexpr bool kSummable = D != Dim::kRatio;
template <Dim D, Scope S>
inline constexpr bool kSplittable = D != Dim::kRatio && (S == Scope::kNode || S == Scope::kGroup);
}  // namespace detail

// ---- Counts and ratios as multipliers (the multiplier is unscoped). ----
template <Dim D, Scope S>
constexpr Quantity<D, S> operator*(Quantity<D, S> q, Count n) {
  return q.scaled(static_cast<typename Quantity<D, S>::rep>(n.value()));
}
template <Dim D, Scope S>
requires detail::kCountScales<D, S>
constexpr Quantity<D, S> operator*(Count n, Quantity<D, S> q) {
  return q.scaled(static_cast<typename Quantity<D, S>::rep>(n.value()));
}
template <Dim D, Scope S>
requires detail::kCountScales<D, S>
constexpr Quantity<D, S> operator/(Quantity<D, S> q, Count n) {
  return q.divided(static_cast<typename Quantity<D, S>::rep>(n.value()));
}

template <Dim D, Scope S>
requires detail::kReal<D>
constexpr Quantity<D, S> operator*(Quantity<D, S> q, Ratio r) { return q.scaled(r.value()); }
template <Dim D, Scope S>
requires detail::kRatioScales<D, S>
constexpr Quantity<D, S> operator*(Ratio r, Quantity<D, S> q) { return q.scaled(r.value()); }
template <Dim D, Scope S>
requires detail::kRatioScales<D, S>
constexpr Quantity<D, S> operator/(Quantity<D, S> q, Ratio r) { return q.divided(r.value()); }

// ---- Rounding divisions of integer units (b > 0): floor and ceiling of a / b. ----
template <Dim D, Scope S>
requires detail::kInteger<D>
constexpr Count floor_div(Quantity<D, S> a, Quantity<D, S> b) {
  if (b.value() <= 0) {
    detail::refuse_domain(Quantity<D, S>::name(), "floor_div needs a positive divisor", a.value(), b.value());
  }
  const std::int64_t q = a.value() / b.value();
  return Count(a.value() % b.value() < 0 ? q - 1 : q);
}
template <Dim D, Scope S>
requires detail::kInteger<D>
constexpr Count ceil_div(Quantity<D, S> a, Quantity<D, S> b) {
  if (b.value() <= 0) {
    detail::refuse_domain(Quantity<D, S>::name(), "ceil_div needs a positive divisor", a.value(), b.value());
  }
  const std::int64_t q = a.value() / b.value();
  return Count(a.value() % b.value() > 0 ? q + 1 : q);
}

// ---- Pricing: amounts, rates and time. ----
namespace detail {
template <Dim A>
inline constexpr bool kHasRate = A == Dim::kBytes || A == Dim::kFlops;
template <Dim A>
inline constexpr Dim kRateOf = A == Dim::kBytes ? Dim::kBytesPerS : Dim::kFlopsPerS;
}  // namespace detail

// amount / rate of the same scope -> time (the scope cancels).
template <Dim A, Scope S>
requires detail::kHasRate<A>
constexpr Seconds operator/(Quantity<A, S> amount, Quantity<detail::kRateOf<A>, S> rate) {
  return Seconds(detail::real_div(static_cast<double>(amount.value()), rate.value(), Quantity<A, S>::name()));
}

// amount / time -> rate of the amount's scope.
template <Dim A, Scope S>
requires detail::kHasRate<A>
constexpr Quantity<detail::kRateOf<A>, S> operator/(Quantity<A, S> amount, Seconds t) {
  return Quantity<detail::kRateOf<A>, S>(
      detail::real_div(static_cast<double>(amount.value()), t.value(), Quantity<A, S>::name()));
}

// FLOP rate * time -> FLOPs of the rate's scope (bytes would have to round; not provided).
template <Scope S>
constexpr Quantity<Dim::kFlops, S> operator*(Quantity<Dim::kFlopsPerS, S> rate, Seconds t) {
  return Quantity<Dim::kFlops, S>(rate.value() * t.value());
}
template <Scope S>
constexpr Quantity<Dim::kFlops, S> operator*(Seconds t, Quantity<Dim::kFlopsPerS, S> rate) {
  return Quantity<Dim::kFlops, S>(rate.value() * t.value());
}

// ---- Scope conversions, always with the number of ranks stated (at least one). ----
namespace detail {
template <Dim D, Scope To, Scope From>
constexpr Quantity<D, To> scale_up(Quantity<D, From> q, Count ranks) {
  if (ranks.value() < 1) {
    refuse_domain(Quantity<D, To>::name(), "scope conversion needs at least one rank", q.value(), ranks.value());
  }
  return Quantity<D, To>(q.scaled(static_cast<typename Quantity<D, From>::rep>(ranks.value())).value());
}
}  // namespace detail

// per-rank -> per-node: ranks_per_node ranks on the node, each holding q.
template <Dim D>
requires detail::kSummable<D>
constexpr Quantity<D, Scope::kNode> to_node(Quantity<D, Scope::kRank> q, Count ranks_per_node) {
  return detail::scale_up<D, Scope::kNode>(q, ranks_per_node);
}

// per-rank -> per-group: ranks_in_group ranks in the group, each holding q.
template <Dim D>
requires detail::kSummable<D>
constexpr Quantity<D, Scope::kGroup> to_group(Quantity<D, Scope::kRank> q, Count ranks_in_group) {
  return detail::scale_up<D, Scope::kGroup>(q, ranks_in_group);
}

// per-node or per-group -> per-rank, shared evenly by `ranks` ranks; exact for integer units.
template <Dim D, Scope S>
requires detail::kSplittable<D, S>
constexpr Quantity<D, Scope::kRank> to_rank(Quantity<D, S> q, Count ranks) {
  if (ranks.value() < 1) {
    detail::refuse_domain(Quantity<D, S>::name(), "scope conversion needs at least one rank", q.value(), ranks.value());
  }
  return Quantity<D, Scope::kRank>(q.divided(static_cast<typename Quantity<D, S>::rep>(ranks.value())).value());
}

// Relabelling without arithmetic, to or from the unscoped unit only.
template <Dim D, Scope S>
constexpr Quantity<D> drop_scope(Quantity<D, S> q) {
  return Quantity<D>(q.value());
}
template <Scope To, Dim D>
constexpr Quantity<D, To> with_scope(Quantity<D> q) {
  return Quantity<D, To>(q.value());
}

}  // namespace blis::units
