#include "cost/coefficients.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <memory>

#include "contracts/fmath.h"
#include "schema/coefficient-set.h"

namespace blis::cost {
namespace {

namespace s = blis::schema;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

struct MethodRead {
  Method method;
  const s::CoefficientSetFit* fit = nullptr;
};

MethodRead method_of(const s::CoefficientSetMethod& m) {
  if (m.measured) return {Method::measured, &*m.measured};
  if (m.calibrated) return {Method::calibrated, &*m.calibrated};
  if (m.transferred) return {Method::transferred};
  if (m.literature) return {Method::literature};
  if (m.vendor_spec) return {Method::vendor_spec};
  if (m.roofline) return {Method::roofline};
  if (m.assumed) return {Method::assumed};
  return {Method::not_charged};
}

EntryScope scope_of(const s::CoefficientSetScope& sc) {
  EntryScope out;
  if (sc.kernel) {
    KernelScope k{sc.kernel->library, sc.kernel->variant, sc.kernel->code_hashes};
    std::sort(k.code_hashes.begin(), k.code_hashes.end());
    out.kernel = std::move(k);
  }
  out.chip = sc.chip;
  out.dtype = sc.dtype;
  out.model = sc.model;
  out.workload = sc.workload;
  out.fabric = sc.fabric;
  out.span = sc.span;
  out.group_size = sc.group_size;
  out.tp = sc.tp;
  out.ep = sc.ep;
  out.pp = sc.pp;
  out.dp = sc.dp;
  out.cp = sc.cp;
  return out;
}

}  // namespace

int method_rank(Method m) { return m == Method::not_charged ? 7 : static_cast<int>(m); }

std::string_view method_name(Method m) {
  switch (m) {
    case Method::measured: return "measured";
    case Method::calibrated: return "calibrated";
    case Method::transferred: return "transferred";
    case Method::literature: return "literature";
    case Method::vendor_spec: return "vendor_spec";
    case Method::roofline: return "roofline";
    case Method::assumed: return "assumed";
    case Method::not_charged: return "not_charged";
  }
  return "?";
}

bool Entry::unidentified() const {
  if (!has_interval) return false;
  if (!interval_low || !interval_high) return true;
  const double v = value.value_or(0.0);
  return *interval_high - *interval_low > (v < 0 ? -v : v) / 2.0;
}

void Curve::check(const std::string& what) const {
  if (axes.empty()) throw CostError(what + ": curve.axes: a curve needs at least one axis");
  std::size_t n = 1;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const CurveAxis& ax = axes[a];
    const std::string field = what + ": curve.axes[" + std::to_string(a) + "]";
    for (std::size_t b = 0; b < a; ++b)
      if (axes[b].input == ax.input) throw CostError(field + ".input: " + ax.input + " names the same input as axis " + std::to_string(b));
    if (ax.points.size() < 2) throw CostError(field + ".points: " + std::to_string(ax.points.size()) + " point(s); an axis needs at least 2");
    for (std::size_t i = 0; i < ax.points.size(); ++i) {
      if (!std::isfinite(ax.points[i])) throw CostError(field + ".points[" + std::to_string(i) + "]: " + num(ax.points[i]) + " is not finite");
      if (i > 0 && !(ax.points[i] > ax.points[i - 1]))
        throw CostError(field + ".points[" + std::to_string(i) + "]: " + num(ax.points[i]) + " does not exceed the point before it, " +
                        num(ax.points[i - 1]) + ": breakpoints must strictly increase");
    }
    n *= ax.points.size();
  }
  if (values.size() != n)
    throw CostError(what + ": curve.values: " + std::to_string(values.size()) + " values for a grid of " + std::to_string(n) + " points");
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i])) throw CostError(what + ": curve.values[" + std::to_string(i) + "]: " + num(values[i]) + " is not finite");
}

double Curve::at(const InputPoint& x, const std::string& what) const {
  // Per axis: the lower grid index and the weight of the upper one (0 at or beyond an end: held).
  std::vector<std::size_t> lower(axes.size());
  std::vector<double> weight(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const CurveAxis& ax = axes[a];
    const auto it = x.find(ax.input);
    if (it == x.end()) throw CostError(what + ": the curve reads input " + ax.input + ", which the lookup does not give");
    double u = it->second;
    if (ax.log2) {
      // A count of zero (an idle rank's call, no context yet) lies below every point: the low end is held.
      if (!(u >= 0.0))
        throw CostError(what + ": input " + ax.input + " = " + num(u) + " is negative, and the curve reads it on a log2 axis");
      u = u > 0.0 ? fmath::log2(u) : -std::numeric_limits<double>::infinity();
    }
    const std::vector<double>& p = ax.points;
    if (u <= p.front()) {
      lower[a] = 0;
      weight[a] = 0.0;
    } else if (u >= p.back()) {
      lower[a] = p.size() - 1;
      weight[a] = 0.0;
    } else {
      std::size_t i = static_cast<std::size_t>(std::upper_bound(p.begin(), p.end(), u) - p.begin()) - 1;
      lower[a] = i;
      weight[a] = (u - p[i]) / (p[i + 1] - p[i]);
    }
  }
  // Sum over the 2^d corners with a non-zero weight, in a fixed order (corner bits, axis 0 highest).
  double sum = 0.0;
  const std::size_t corners = std::size_t{1} << axes.size();
  for (std::size_t c = 0; c < corners; ++c) {
    double w = 1.0;
    std::size_t idx = 0;
    bool skip = false;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const bool upper = ((c >> (axes.size() - 1 - a)) & 1U) != 0;
      if (upper && weight[a] == 0.0) {
        skip = true;
        break;
      }
      w *= upper ? weight[a] : 1.0 - weight[a];
      idx = idx * axes[a].points.size() + lower[a] + (upper ? 1 : 0);
    }
    if (skip || w == 0.0) continue;
    sum += w * values[idx];
  }
  return sum;
}

Coefficients Coefficients::read(RegistryInput input) {
  Coefficients out;
  out.precedence_ = std::move(input.precedence);
  std::vector<std::unique_ptr<s::CoefficientSet>> docs(input.documents.size());
  for (std::size_t i = 0; i < input.entries.size(); ++i) {
    const EntryOrigin& o = input.entries[i];
    if (o.document >= input.documents.size())
      throw CostError("registry input: entry " + o.id + " names document " + std::to_string(o.document) + " of " +
                      std::to_string(input.documents.size()));
    const SetDocument& d = input.documents[o.document];
    if (!docs[o.document]) {
      blis::doc::Diagnostics diags{d.location};
      auto set = s::load_coefficient_set(d.bytes, d.path, diags);
      if (!set) throw CostError(d.location + ": the coefficient-set reader refused it:\n" + diags.str());
      docs[o.document] = std::make_unique<s::CoefficientSet>(std::move(*set));
    }
    const s::CoefficientSet& set = *docs[o.document];
    if (o.entry >= set.entries.size())
      throw CostError("registry input: entry " + o.id + " is entry " + std::to_string(o.entry) + " of " + d.location + ", which has " +
                      std::to_string(set.entries.size()));
    const s::CoefficientSetEntry& e = set.entries[o.entry];
    Entry t;
    t.index = i;
    t.id = o.id;
    t.location = o.location;
    t.set = set.set;
    t.family = set.family;
    t.name = e.name;
    t.coefficient = e.name.size() > set.family.size() + 1 && e.name.compare(0, set.family.size() + 1, set.family + ".") == 0
                        ? e.name.substr(set.family.size() + 1)
                        : throw CostError(o.location + ": name " + e.name + " is not a coefficient of family " + set.family);
    t.value = e.value;
    t.unit = e.unit;
    t.boundary_time = e.boundary.time;
    t.boundary_execution = e.boundary.execution;
    const MethodRead m = method_of(e.method);
    t.method = m.method;
    if (m.fit) {
      t.has_interval = true;
      t.interval_low = m.fit->interval_95.low;
      t.interval_high = m.fit->interval_95.high;
      for (const auto& [k, r] : m.fit->input_range) t.input_range[k] = {r.min, r.max};
    }
    if (t.method != Method::not_charged && !t.value)
      throw CostError(o.location + ": " + o.id + ": value: absent, and only a not_charged entry may leave it out");
    if (e.curve) {
      Curve c;
      for (const auto& ax : e.curve->axes) c.axes.push_back({ax.input, ax.scale == "log2", ax.points});
      c.values = e.curve->values;
      c.check(o.location + ": " + o.id);
      t.curve = std::move(c);
    }
    t.scope = scope_of(e.scope);
    out.entries_.push_back(std::move(t));
  }
  return out;
}

}  // namespace blis::cost
