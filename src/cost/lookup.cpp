#include "cost/lookup.h"

#include <cstdio>

namespace blis::cost {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <class T>
bool same(const std::optional<T>& entry, const std::optional<T>& key) {
  return !entry || (key && *entry == *key);
}

bool kernel_answers(const std::optional<KernelScope>& entry, const std::optional<KernelImpl>& key) {
  if (!entry) return true;
  if (!key || entry->library != key->library || entry->variant != key->variant) return false;
  for (const auto& h : entry->code_hashes)
    if (h == key->code_hash) return true;
  return false;
}

}  // namespace

std::string LookupKey::text() const {
  std::string out = "{";
  auto add = [&](std::string_view k, const std::string& v) { out += (out.size() > 1 ? ", " : "") + std::string(k) + ": " + v; };
  if (kernel) add("kernel", kernel->library + "/" + kernel->variant + "@" + kernel->code_hash);
  add("chip", chip);
  if (dtype) add("dtype", *dtype);
  if (model) add("model", *model);
  if (workload) add("workload", *workload);
  if (fabric) add("fabric", *fabric);
  if (span) add("span", *span);
  if (group_size) add("group_size", std::to_string(*group_size));
  if (tp) add("tp", std::to_string(*tp));
  if (ep) add("ep", std::to_string(*ep));
  if (pp) add("pp", std::to_string(*pp));
  if (dp) add("dp", std::to_string(*dp));
  if (cp) add("cp", std::to_string(*cp));
  return out + "}";
}

bool answers(const Entry& e, const LookupKey& k) {
  const EntryScope& s = e.scope;
  return kernel_answers(s.kernel, k.kernel) && (!s.chip || *s.chip == k.chip) && same(s.dtype, k.dtype) &&
         same(s.model, k.model) && same(s.workload, k.workload) && same(s.fabric, k.fabric) && same(s.span, k.span) &&
         same(s.group_size, k.group_size) && same(s.tp, k.tp) && same(s.ep, k.ep) && same(s.pp, k.pp) && same(s.dp, k.dp) &&
         same(s.cp, k.cp);
}

Resolved resolve(const Coefficients& coefficients, std::string_view name, const LookupKey& key, const InputPoint& point) {
  std::vector<const Entry*> answering;
  for (const Entry& e : coefficients.entries())
    if (e.name == name && answers(e, key)) answering.push_back(&e);
  if (answering.empty())
    throw CostError("no registry entry answers the lookup of " + std::string(name) + " for " + key.text() +
                    " (VAL-2: the floor should answer every catalog chip; is the chip, data type or span one the catalog states?)");
  int best_rank = 8;
  for (const Entry* e : answering) best_rank = std::min(best_rank, e->rank());
  // Within the best rank, the entry every other one yields to under VAL-4's precedence.
  const Entry* chosen = nullptr;
  for (const Entry* e : answering) {
    if (e->rank() != best_rank) continue;
    if (!chosen) {
      chosen = e;
      continue;
    }
    const ScopeOrder o = coefficients.order(chosen->index, e->index);
    if (o == ScopeOrder::second_wins) {
      chosen = e;
    } else if (o != ScopeOrder::first_wins) {
      throw CostError("the lookup of " + std::string(name) + " for " + key.text() + " is answered by " + chosen->id + " and " + e->id +
                      " at rank " + std::to_string(best_rank) + ", which the precedence of registry/README.md does not order (VAL-4: the " +
                      "load should have refused the pair)");
    }
  }
  Resolved r;
  r.name = std::string(name);
  r.entry = chosen;
  r.method = chosen->method;
  r.rank = chosen->rank();
  r.charged = chosen->method != Method::not_charged;
  for (const Entry* e : answering)
    if (e != chosen) r.displaced.push_back(e->id);
  for (const auto& [input, range] : chosen->input_range) {
    const auto it = point.find(input);
    if (it == point.end())
      throw CostError(chosen->location + ": " + chosen->id + " states input_range." + input + ", which the lookup of " + std::string(name) +
                      " does not give");
    if (it->second < range.min || it->second > range.max) {
      r.extrapolated = true;
      r.extrapolated_inputs.push_back(input + " = " + num(it->second) + " outside [" + num(range.min) + ", " + num(range.max) + "]");
    }
  }
  r.unidentified = chosen->unidentified();
  r.effective_rank = r.unidentified ? 7 : r.extrapolated ? std::max(r.rank, 3) : r.rank;
  if (r.charged) r.value = chosen->curve ? chosen->curve->at(point, chosen->location + ": " + chosen->id) : *chosen->value;
  return r;
}

}  // namespace blis::cost
