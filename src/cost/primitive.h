// Pricing one primitive call (forms.md; registry/families.yaml's FLOP and byte formulas): the device or
// host time, FLOPs and bytes of one call of a primitive family on a chip, and the provenance of every
// coefficient read (VAL-3). Single primitives only: step pricing is built on top of this elsewhere.
//
// The forms:
//   compute families (gemm, moe.grouped_gemm, attention.*):
//       t = max(F / (compute_rate * compute_efficiency(x)), B / (memory_rate * memory_efficiency(x)))
//   memory-only families (moe.permute, elementwise.*, kv_cache.write, embedding, sampling):
//       t = B / (memory_rate * memory_efficiency(x))
//   link families (collective.*, p2p.send_recv, kv.transfer, copy.*):
//       t = latency + bus_bytes / (link_rate * link_efficiency(x))
//   host families: t = time(x) * count, the count being 1 for host.step (one step) and host.request (one
//       request), and the input tokens, kernels or graphs for host.token, host.launch and host.graph_launch.
// A not_charged coefficient adds nothing to the term that reads it (a not_charged rate or efficiency drops
// its term, a not_charged latency or host time is 0, a not_charged imbalance multiplies by 1).
//
// Where the caller names a workload, moe.expert_imbalance.max_over_mean (read at ep, experts, top_k) scales
// moe.grouped_gemm's time and collective.all_to_all's bandwidth term (the most-loaded rank's bytes); the
// call then gives the extra inputs `experts` and `top_k` and the layout's `ep`. moe.expert_imbalance itself
// is a workload property, not a primitive: price() refuses it by name.
//
// Attention families take their per-request token counts in `requests` (new or query tokens, cached or
// context tokens); requests, new_tokens / query_tokens and cached_tokens / context_tokens are derived from
// it, and the curve axes read those totals. The extra input `window` (0 = full attention) bounds the
// context each query token reads (sliding-window attention).
//
// Data formats: gemm and moe.grouped_gemm compute in the weight's dtype (a weight-only weight: the
// activation's); attention families in the activation's (the queries'); sampling reads its logits in the
// activation format.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contracts/units.h"
#include "cost/coefficients.h"
#include "cost/lookup.h"

namespace blis::cost {

struct Formats {
  std::string activation, weight, kv, output;  // data format names (format.h); "" = not given
};

// One request of an attention call: its new (prefill) or query (decode) tokens, and its cached (prefill)
// or context (decode) tokens.
struct RequestTokens {
  std::int64_t tokens = 0;
  std::int64_t context = 0;
};

struct PrimitiveCall {
  std::string family;
  std::string chip;
  std::optional<KernelImpl> kernel;
  Formats formats;
  std::map<std::string, double> inputs;  // the family's inputs by name, and the extra inputs it takes
  std::vector<RequestTokens> requests;   // attention families only
  // Collectives, p2p and kv.transfer: the highest tier the group spans (node, rack, fabric) and the
  // network it crosses; the group size is the input group_size.
  std::optional<std::string> span, fabric;
  std::optional<std::string> model, workload;
  std::optional<std::int64_t> tp, ep, pp, dp, cp;
};

struct Provenance {
  int effective_rank = 0;  // the least trusted effective rank among the coefficients used
  Method method = Method::assumed;  // that coefficient's method
  bool extrapolated = false;
  bool unidentified = false;
  std::string entry;  // that coefficient's identity text
  std::vector<std::string> used;       // every coefficient entry read, in the order read
  std::vector<std::string> displaced;  // every answering entry a lookup displaced
  std::vector<std::string> not_charged;  // the entries read that charged nothing
};

struct PrimitivePrice {
  units::Seconds seconds;
  units::Flops flops;
  double bytes = 0;  // memory or link bytes of the form (real: b(x) may be fractional)
  Provenance provenance;
};

// The family names price() accepts, in families.yaml's order, with their inputs and extra inputs.
struct FamilyForm {
  std::string name;
  std::string kind;  // compute, memory, communication, host, workload (families.yaml's kind)
  std::string form;  // roofline_max, memory_only, link, host, workload: which form above prices it
  std::vector<std::string> inputs;
  std::vector<std::string> extras;
};
const std::vector<FamilyForm>& family_forms();

// Attention families take per-request tokens; the prefill ones read new and cached tokens, the others
// query and context tokens.
bool is_attention(const std::string& family);
bool is_prefill(const std::string& family);

PrimitivePrice price(const Coefficients& coefficients, const PrimitiveCall& call);

}  // namespace blis::cost
