#include "cost/primitive.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "cost/format.h"

namespace blis::cost {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

const std::vector<FamilyForm> kFamilies = {
    {"gemm", "compute", "roofline_max", {"m", "n", "k"}, {}},
    {"moe.grouped_gemm", "compute", "roofline_max", {"routed_tokens", "active_experts", "n", "k"}, {"experts", "top_k"}},
    {"attention.prefill", "compute", "roofline_max", {"requests", "new_tokens", "cached_tokens", "heads_q", "heads_kv", "head_dim"}, {"window"}},
    {"attention.decode", "memory", "roofline_max", {"requests", "query_tokens", "context_tokens", "heads_q", "heads_kv", "head_dim"}, {"window"}},
    {"attention.mla_prefill", "compute", "roofline_max", {"requests", "new_tokens", "cached_tokens", "heads", "qk_head_dim", "v_head_dim"}, {"window"}},
    {"attention.mla_decode", "memory", "roofline_max", {"requests", "query_tokens", "context_tokens", "heads", "kv_lora_rank", "rope_dim"}, {"window"}},
    {"moe.permute", "memory", "memory_only", {"tokens", "top_k", "hidden", "experts"}, {}},
    {"elementwise.norm", "memory", "memory_only", {"tokens", "hidden"}, {"fused_residual"}},
    {"elementwise.activation", "memory", "memory_only", {"tokens", "width"}, {"gated", "flops_per_element"}},
    {"elementwise.rotary", "memory", "memory_only", {"tokens", "heads_q", "heads_kv", "rotary_dim"}, {}},
    {"kv_cache.write", "memory", "memory_only", {"tokens", "kv_width"}, {}},
    {"embedding", "memory", "memory_only", {"tokens", "hidden"}, {}},
    {"sampling", "memory", "memory_only", {"requests", "vocab"}, {"flops_per_logit"}},
    {"collective.all_reduce", "communication", "link", {"bytes", "group_size"}, {}},
    {"collective.all_gather", "communication", "link", {"bytes", "group_size"}, {}},
    {"collective.reduce_scatter", "communication", "link", {"bytes", "group_size"}, {}},
    {"collective.all_to_all", "communication", "link", {"bytes", "group_size"}, {"experts", "top_k"}},
    {"p2p.send_recv", "communication", "link", {"bytes"}, {}},
    {"kv.transfer", "communication", "link", {"bytes", "blocks"}, {}},
    {"copy.host_to_device", "communication", "link", {"bytes", "blocks"}, {}},
    {"copy.device_to_host", "communication", "link", {"bytes", "blocks"}, {}},
    {"host.step", "host", "host", {"requests", "tokens"}, {}},
    {"host.request", "host", "host", {"prompt_tokens"}, {}},
    {"host.token", "host", "host", {"tokens"}, {}},
    {"host.launch", "host", "host", {"kernels"}, {}},
    {"host.graph_launch", "host", "host", {"graphs"}, {}},
    {"moe.expert_imbalance", "workload", "workload", {"ep", "experts", "top_k"}, {}},
};

// The running price of one call: its lookups and their provenance.
class Pricer {
 public:
  Pricer(const Coefficients& c, const PrimitiveCall& call, const FamilyForm& form) : c_(c), call_(call), form_(form) {}

  const FamilyForm& form() const { return form_; }
  const InputPoint& point() const { return point_; }
  InputPoint& point() { return point_; }

  std::string where() const { return call_.family + " on " + call_.chip; }

  [[noreturn]] void refuse(const std::string& field, double v, const std::string& cause) const {
    throw CostError(where() + ": " + field + " = " + num(v) + ": " + cause);
  }

  double in(const std::string& name) const {
    const auto it = point_.find(name);
    if (it == point_.end()) throw CostError(where() + ": input " + name + " is missing (the family's inputs: " + list(form_.inputs) + ")");
    return it->second;
  }
  bool has(const std::string& name) const { return point_.contains(name); }

  const DataFormat& format(const std::string& role, const std::string& name) const {
    if (name.empty()) throw CostError(where() + ": formats." + role + " is not given, and the family's form reads it");
    try {
      return data_format(name);
    } catch (const std::invalid_argument& e) {
      throw CostError(where() + ": formats." + role + ": " + e.what());
    }
  }

  LookupKey key(const std::optional<std::string>& dtype, bool link) const {
    LookupKey k;
    k.kernel = call_.kernel;
    k.chip = call_.chip;
    k.dtype = dtype;
    k.model = call_.model;
    k.workload = call_.workload;
    k.tp = call_.tp;
    k.ep = call_.ep;
    k.pp = call_.pp;
    k.dp = call_.dp;
    k.cp = call_.cp;
    if (link) {
      k.fabric = call_.fabric;
      k.span = call_.span;
      if (has("group_size")) k.group_size = static_cast<std::int64_t>(in("group_size"));
    }
    return k;
  }

  // Looks a coefficient of this family up and records it.
  Resolved get(const std::string& family, const std::string& coefficient, const LookupKey& key, const InputPoint& x) {
    Resolved r = resolve(c_, family + "." + coefficient, key, x);
    record(r);
    return r;
  }
  Resolved get(const std::string& coefficient, const LookupKey& key) { return get(form_.name, coefficient, key, point_); }

  // A peak rate (compute, memory or link) and the efficiency that multiplies it, as one pair. A fitted
  // efficiency (measured, calibrated, or transferred from a fit) is the measured time relative to this
  // very peak (registry/scripts/fitfamily.py divides by the same entry), so the pair is as trusted as the
  // efficiency and the datasheet rate does not lower the price's rank; beside a floor efficiency the rate
  // ranks as itself (a roofline). The rate is listed among the entries used either way.
  std::pair<Resolved, Resolved> rate_pair(const std::string& rate_name, const std::string& efficiency_name, const LookupKey& key) {
    Resolved rate = resolve(c_, form_.name + "." + rate_name, key, point_);
    Resolved eff = resolve(c_, form_.name + "." + efficiency_name, key, point_);
    const bool fitted = eff.method == Method::measured || eff.method == Method::calibrated || eff.method == Method::transferred;
    record(rate, !fitted);
    record(eff);
    return {std::move(rate), std::move(eff)};
  }

  // A rate or an efficiency that divides: charged and positive.
  double divisor(const Resolved& r) const {
    if (!(r.value > 0.0) || !std::isfinite(r.value))
      throw CostError(where() + ": " + r.entry->id + " (" + r.entry->location + ") gives " + r.name + " = " + num(r.value) +
                      ", and the form divides by it: it must be positive and finite");
    return r.value;
  }

  // amount / (rate * efficiency), or 0 when either coefficient is not charged.
  double term(double amount, const Resolved& rate, const Resolved& efficiency) const {
    if (!rate.charged || !efficiency.charged) return 0.0;
    return amount / (divisor(rate) * divisor(efficiency));
  }

  Provenance provenance() const {
    Provenance p = prov_;
    return p;
  }

 private:
  static std::string list(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  }

  void record(const Resolved& r, bool ranks = true) {
    prov_.used.push_back(r.entry->id);
    if (!r.charged) prov_.not_charged.push_back(r.entry->id);
    for (const auto& d : r.displaced) prov_.displaced.push_back(d);
    if (!ranks) return;
    if (prov_.entry.empty() || r.effective_rank > prov_.effective_rank) {
      prov_.effective_rank = r.effective_rank;
      prov_.method = r.method;
      prov_.extrapolated = r.extrapolated;
      prov_.unidentified = r.unidentified;
      prov_.entry = r.entry->id;
    }
  }

  const Coefficients& c_;
  const PrimitiveCall& call_;
  const FamilyForm& form_;
  InputPoint point_;
  Provenance prov_;
};

const FamilyForm& family_form(const std::string& name) {
  for (const auto& f : kFamilies)
    if (f.name == name) return f;
  std::string known;
  for (const auto& f : kFamilies) known += (known.empty() ? "" : ", ") + f.name;
  throw CostError("family = " + name + ": not a primitive family of registry/families.yaml (known: " + known + ")");
}

// Σ_{i=1..n} min(c + i, w) (w = 0: unbounded): the keys the n new tokens after c cached ones attend to.
double attended(double c, double n, double w) {
  if (w == 0.0 || c + n <= w) return n * (c + (n + 1.0) / 2.0);
  if (c >= w) return n * w;
  const double j = w - c;  // the new tokens whose window still reaches the first key
  return j * c + j * (j + 1.0) / 2.0 + (n - j) * w;
}
// The distinct keys n new tokens after c cached ones read: c + n, or at most w + n - 1 with a window.
double keys_read(double c, double n, double w) {
  if (w == 0.0 || n == 0.0) return c + n;
  return std::min(c + n, w + n - 1.0);
}

// Checks the call's inputs against the family and fills the input point.
void read_inputs(Pricer& p, const PrimitiveCall& call) {
  const FamilyForm& f = p.form();
  std::set<std::string> derived;
  if (is_attention(f.name)) {
    const bool pre = is_prefill(f.name);
    derived = {"requests", pre ? "new_tokens" : "query_tokens", pre ? "cached_tokens" : "context_tokens"};
    if (call.requests.empty()) throw CostError(p.where() + ": requests: none given; an attention call states each request's tokens");
    double tokens = 0, context = 0;
    for (std::size_t i = 0; i < call.requests.size(); ++i) {
      const RequestTokens& r = call.requests[i];
      const std::string at = "requests[" + std::to_string(i) + "]";
      if (r.tokens < 0) p.refuse(at + ".tokens", static_cast<double>(r.tokens), "a token count is zero or more");
      if (r.context < 0) p.refuse(at + ".context", static_cast<double>(r.context), "a token count is zero or more");
      tokens += static_cast<double>(r.tokens);
      context += static_cast<double>(r.context);
    }
    p.point()["requests"] = static_cast<double>(call.requests.size());
    p.point()[pre ? "new_tokens" : "query_tokens"] = tokens;
    p.point()[pre ? "cached_tokens" : "context_tokens"] = context;
  } else if (!call.requests.empty()) {
    throw CostError(p.where() + ": requests: per-request tokens are read only by attention families");
  }
  for (const auto& [name, v] : call.inputs) {
    const bool input = std::find(f.inputs.begin(), f.inputs.end(), name) != f.inputs.end();
    const bool extra = std::find(f.extras.begin(), f.extras.end(), name) != f.extras.end();
    if (derived.contains(name)) p.refuse("inputs." + name, v, "derived from the per-request tokens; do not give it");
    if (!input && !extra) p.refuse("inputs." + name, v, "not an input of " + f.name);
    if (!std::isfinite(v) || v < 0.0) p.refuse("inputs." + name, v, "an input is finite and zero or more");
    p.point()[name] = v;
  }
  for (const auto& name : f.inputs)
    if (!p.has(name)) throw CostError(p.where() + ": inputs." + name + " is missing");
  if (p.has("group_size")) {
    const double n = p.in("group_size");
    if (n < 1.0 || n != static_cast<double>(static_cast<std::int64_t>(n)))
      p.refuse("inputs.group_size", n, "a group has a whole number of ranks, at least one");
  }
  for (const char* flag : {"fused_residual", "gated"})
    if (std::find(f.extras.begin(), f.extras.end(), flag) != f.extras.end()) {
      if (!p.has(flag)) throw CostError(p.where() + ": inputs." + flag + " is missing (0 or 1)");
      const double v = p.in(flag);
      if (v != 0.0 && v != 1.0) p.refuse(std::string("inputs.") + flag, v, "a yes-or-no input is 0 or 1");
    }
  for (const char* count : {"flops_per_element", "flops_per_logit"})
    if (std::find(f.extras.begin(), f.extras.end(), count) != f.extras.end() && !p.has(count))
      throw CostError(p.where() + ": inputs." + count + " is missing");
}

// max_over_mean for the call's workload, or 1 without one.
double imbalance(Pricer& p, const PrimitiveCall& call) {
  if (!call.workload) return 1.0;
  for (const char* need : {"experts", "top_k"})
    if (!p.has(need)) throw CostError(p.where() + ": inputs." + need + " is missing, and the workload's expert imbalance reads it");
  if (!call.ep) throw CostError(p.where() + ": ep is not given, and the workload's expert imbalance reads it");
  InputPoint x{{"ep", static_cast<double>(*call.ep)}, {"experts", p.in("experts")}, {"top_k", p.in("top_k")}};
  LookupKey k = p.key(std::nullopt, false);
  const Resolved r = p.get("moe.expert_imbalance", "max_over_mean", k, x);
  if (!r.charged) return 1.0;
  if (!(r.value >= 1.0) || !std::isfinite(r.value))
    throw CostError(p.where() + ": " + r.entry->id + " gives moe.expert_imbalance.max_over_mean = " + num(r.value) +
                    ": the most-loaded rank's load over the mean is at least 1");
  return r.value;
}

struct Work {
  double flops = 0;
  double bytes = 0;
};

Work roofline_work(Pricer& p, const PrimitiveCall& call, std::string& dtype) {
  const std::string& f = call.family;
  const Formats& fm = call.formats;
  if (f == "gemm" || f == "moe.grouped_gemm") {
    const DataFormat& act = p.format("activation", fm.activation);
    const DataFormat& w = p.format("weight", fm.weight);
    const DataFormat& out = p.format("output", fm.output);
    try {
      dtype = compute_dtype(w, act);
    } catch (const std::invalid_argument& e) {
      throw CostError(p.where() + ": formats.weight: " + e.what());
    }
    const double n = p.in("n"), k = p.in("k");
    if (f == "gemm") {
      const double m = p.in("m");
      return {2.0 * m * n * k, m * k * act.bytes_per_element() + k * n * w.bytes_per_element() + m * n * out.bytes_per_element()};
    }
    const double routed = p.in("routed_tokens"), active = p.in("active_experts");
    return {2.0 * routed * n * k,
            active * n * k * w.bytes_per_element() + routed * (k * act.bytes_per_element() + n * out.bytes_per_element())};
  }
  // Attention: per request, bounded by the window.
  const DataFormat& act = p.format("activation", fm.activation);
  const DataFormat& kv = p.format("kv", fm.kv);
  try {
    dtype = compute_dtype(act, act);
  } catch (const std::invalid_argument& e) {
    throw CostError(p.where() + ": formats.activation: " + e.what());
  }
  const double w = p.has("window") ? p.in("window") : 0.0;
  double att = 0, keys = 0, tokens = 0, context = 0;
  for (const RequestTokens& r : call.requests) {
    const double n = static_cast<double>(r.tokens), c = static_cast<double>(r.context);
    tokens += n;
    if (is_prefill(f)) {
      att += attended(c, n, w);
      keys += keys_read(c, n, w);
    } else {
      const double ctx = w == 0.0 ? c : std::min(c, w);
      att += n * ctx;
      context += ctx;
    }
  }
  if (f == "attention.prefill") {
    const double hq = p.in("heads_q"), hkv = p.in("heads_kv"), d = p.in("head_dim");
    return {4.0 * hq * d * att, 2.0 * hq * d * act.bytes_per_element() * tokens + 2.0 * hkv * d * kv.bytes_per_element() * keys};
  }
  if (f == "attention.decode") {
    const double hq = p.in("heads_q"), hkv = p.in("heads_kv"), d = p.in("head_dim");
    return {4.0 * hq * d * att, 2.0 * hkv * d * kv.bytes_per_element() * context + 2.0 * hq * d * act.bytes_per_element() * tokens};
  }
  if (f == "attention.mla_prefill") {
    const double h = p.in("heads"), qk = p.in("qk_head_dim"), v = p.in("v_head_dim");
    // Σ (cached + 2 new) = Σ (keys read + new) without a window.
    return {2.0 * h * (qk + v) * att, h * (qk + v) * act.bytes_per_element() * (keys + tokens)};
  }
  // attention.mla_decode
  const double h = p.in("heads"), lora = p.in("kv_lora_rank"), rope = p.in("rope_dim");
  return {2.0 * h * (2.0 * lora + rope) * att,
          (lora + rope) * kv.bytes_per_element() * context + h * (2.0 * lora + rope) * act.bytes_per_element() * tokens};
}

Work memory_work(Pricer& p, const PrimitiveCall& call, std::string& dtype) {
  const std::string& f = call.family;
  const Formats& fm = call.formats;
  const DataFormat& act = p.format("activation", fm.activation);
  dtype = std::string(act.compute_dtype);  // a memory-bound lookup may go without one (e.g. fp32 logits)
  const double ba = act.bytes_per_element();
  if (f == "moe.permute") {
    const double t = p.in("tokens"), k = p.in("top_k"), h = p.in("hidden");
    return {t * k * h, 4.0 * t * k * h * ba};
  }
  if (f == "elementwise.norm") {
    const double t = p.in("tokens"), h = p.in("hidden");
    const bool fused = p.in("fused_residual") == 1.0;
    const double bo = p.format("output", fm.output).bytes_per_element();
    const double bw = p.format("weight", fm.weight).bytes_per_element();
    return {4.0 * t * h + (fused ? t * h : 0.0), t * h * (ba + bo) + h * bw + (fused ? 2.0 * t * h * ba : 0.0)};
  }
  if (f == "elementwise.activation") {
    const double t = p.in("tokens"), w = p.in("width");
    const double g = p.in("gated") == 1.0 ? 2.0 : 1.0;
    const double bo = p.format("output", fm.output).bytes_per_element();
    return {t * w * p.in("flops_per_element"), t * w * (g * ba + bo)};
  }
  if (f == "elementwise.rotary") {
    const double t = p.in("tokens"), heads = p.in("heads_q") + p.in("heads_kv"), rd = p.in("rotary_dim");
    return {3.0 * t * heads * rd, 2.0 * t * heads * rd * ba + t * rd * ba};
  }
  if (f == "kv_cache.write") {
    const double t = p.in("tokens"), w = p.in("kv_width");
    return {0.0, t * w * (ba + p.format("kv", fm.kv).bytes_per_element())};
  }
  if (f == "embedding") {
    const double t = p.in("tokens"), h = p.in("hidden");
    return {0.0, t * h * (p.format("weight", fm.weight).bytes_per_element() + ba)};
  }
  // sampling: the logits are read in the activation format.
  const double r = p.in("requests"), v = p.in("vocab");
  return {r * v * p.in("flops_per_logit"), r * v * ba};
}

// The fixed device time per call of a compute or link family (its `latency` coefficient; a floor of 0 s).
double fixed_latency(Pricer& p, const LookupKey& key) {
  const Resolved lat = p.get("latency", key);
  const double latency = lat.charged ? lat.value : 0.0;
  if (!(latency >= 0.0) || !std::isfinite(latency))
    throw CostError(p.where() + ": " + lat.entry->id + " gives latency = " + num(latency) + ": a latency is finite and zero or more");
  return latency;
}

}  // namespace

bool is_attention(const std::string& family) { return family.starts_with("attention."); }
bool is_prefill(const std::string& family) { return family == "attention.prefill" || family == "attention.mla_prefill"; }

const std::vector<FamilyForm>& family_forms() { return kFamilies; }

PrimitivePrice price(const Coefficients& coefficients, const PrimitiveCall& call) {
  const FamilyForm& form = family_form(call.family);
  if (form.form == "workload")
    throw CostError("family = " + call.family + ": a workload property, not a primitive: it is read as the multiplier of " +
                    "moe.grouped_gemm and collective.all_to_all when the call names a workload");
  if (call.chip.empty()) throw CostError(call.family + ": chip is not given");
  Pricer p(coefficients, call, form);
  read_inputs(p, call);
  PrimitivePrice out;
  double seconds = 0.0;
  if (form.form == "roofline_max" || form.form == "memory_only") {
    std::string dtype;
    const Work w = form.form == "roofline_max" ? roofline_work(p, call, dtype) : memory_work(p, call, dtype);
    const LookupKey key = p.key(dtype.empty() ? std::nullopt : std::optional<std::string>(dtype), false);
    double compute = 0.0;
    if (form.form == "roofline_max") {
      const auto [rate, eff] = p.rate_pair("compute_rate", "compute_efficiency", key);
      compute = p.term(w.flops, rate, eff);
    }
    const auto [mrate, meff] = p.rate_pair("memory_rate", "memory_efficiency", key);
    const double memory = p.term(w.bytes, mrate, meff);
    seconds = std::max(compute, memory);
    if (call.family == "moe.grouped_gemm") seconds *= imbalance(p, call);
    if (form.form == "roofline_max") seconds += fixed_latency(p, key);
    out.flops = units::Flops{w.flops};
    out.bytes = w.bytes;
  } else if (form.form == "link") {
    const double s = p.in("bytes");
    double bus = s, flops = 0.0;
    const std::string& f = call.family;
    if (f.starts_with("collective.")) {
      if (!call.span) throw CostError(p.where() + ": span is not given (node, rack or fabric), and a collective's link rate depends on it");
      const double n = p.in("group_size");
      const double share = (n - 1.0) / n;
      bus = (f == "collective.all_reduce" ? 2.0 : 1.0) * share * s;
      if (f == "collective.all_reduce" || f == "collective.reduce_scatter")
        flops = share * s / p.format("activation", call.formats.activation).bytes_per_element();
    } else if ((f == "p2p.send_recv" || f == "kv.transfer") && !call.span) {
      throw CostError(p.where() + ": span is not given (node, rack or fabric), and the link rate depends on it");
    }
    const bool copy = f.starts_with("copy.");
    LookupKey key = p.key(std::nullopt, !copy);
    const auto [rate, eff] = p.rate_pair("link_rate", "link_efficiency", key);
    double transfer = p.term(bus, rate, eff);
    if (f == "collective.all_to_all") transfer *= imbalance(p, call);
    seconds = fixed_latency(p, key) + transfer;
    out.flops = units::Flops{flops};
    out.bytes = bus;
  } else {  // host
    const std::string& f = call.family;
    const double count = f == "host.token"          ? p.in("tokens")
                         : f == "host.launch"       ? p.in("kernels")
                         : f == "host.graph_launch" ? p.in("graphs")
                                                    : 1.0;
    const Resolved t = p.get("time", p.key(std::nullopt, false));
    const double each = t.charged ? t.value : 0.0;
    if (!(each >= 0.0) || !std::isfinite(each))
      throw CostError(p.where() + ": " + t.entry->id + " gives time = " + num(each) + ": a host time is finite and zero or more");
    seconds = each * count;
  }
  out.seconds = units::Seconds{seconds};
  out.provenance = p.provenance();
  return out;
}

}  // namespace blis::cost
