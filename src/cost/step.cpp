#include "cost/step.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cost/format.h"
#include "cost/launch.h"
#include "cost/primitive.h"

namespace blis::cost {

namespace {

using engine::plan::PoolPlan;
using engine::plan::StepShape;
using Layer = schema::PoolPlanLoweredLayer;
using Quant = schema::PoolPlanQuantFormat;

[[noreturn]] void refuse(const std::string& field, const std::string& cause) {
  throw CostError("price step: " + field + ": " + cause);
}

// The cost model's format (format.h) a plan's QuantFormat states: same payload bits; the same scale bits
// when the plan states a block (a plan format without a block has at most one scale per tensor, which the
// per-element forms do not count); the same compute data type when the plan states one. Several matches
// (two formats differing only in block size) are told apart by the block's element count.
std::string format_name(const Quant& q, const std::string& field) {
  if (!q.payload_bits) refuse(field + ".payload_bits", "not stated, and the byte formula reads it");
  const std::int64_t payload = q.payload_bits->value();
  const bool blocked = q.block && !q.block->empty();
  const std::int64_t scale = blocked && q.scale_bits ? q.scale_bits->value() : 0;
  std::int64_t block_elems = 1;
  if (blocked)
    for (const auto& e : *q.block) block_elems *= e.value();
  const DataFormat* pick = nullptr;
  for (const DataFormat& f : data_formats()) {
    if (f.payload_bits != payload || f.scale_bits != scale) continue;
    if (q.dtype && !f.weight_only && f.compute_dtype != *q.dtype) continue;
    if (q.dtype && f.weight_only) continue;
    if (!pick || (f.block == block_elems && pick->block != block_elems)) pick = &f;
  }
  if (!pick)
    refuse(field, "no data format of the cost model has " + std::to_string(payload) + " payload bits, " +
                      std::to_string(scale) + " scale bits" + (q.dtype ? " and data type " + *q.dtype : ""));
  return std::string(pick->name);
}

Formats formats_of(const Layer& l, const std::string& at) {
  Formats f;
  if (!l.shape || !l.shape->dtypes) return f;
  const auto& d = *l.shape->dtypes;
  if (d.activation) f.activation = format_name(*d.activation, at + ".shape.dtypes.activation");
  if (d.weight) f.weight = format_name(*d.weight, at + ".shape.dtypes.weight");
  if (d.kv) f.kv = format_name(*d.kv, at + ".shape.dtypes.kv");
  if (d.output) f.output = format_name(*d.output, at + ".shape.dtypes.output");
  // An embedding gathers weights and writes activations: its output is the formula's b(act).
  if (l.primitive == "embedding" && f.activation.empty()) f.activation = f.output;
  return f;
}

bool is_link(const std::string& family) {
  return family.starts_with("collective.") || family == "p2p.send_recv";
}

std::int64_t tok(const std::optional<units::Tokens>& t) { return t ? t->value() : 0; }

class StepPricer {
 public:
  StepPricer(const Coefficients& c, const PoolPlan& plan, const StepShape& step, const StepContext& ctx)
      : coefficients_(c), plan_(plan), step_(step), ctx_(ctx), stage_(step.stage.value_or(0)) {
    if (!plan.chip) refuse("plan.chip", "not stated, and every price is for a chip");
  }

  engine::StepEstimate run() {
    const std::string mode = step_.mode.value_or("mixed");
    const std::size_t ranks = lockstep_ranks(step_);
    double slowest = -1.0;
    std::vector<engine::PrimitivePrice> slowest_terms;
    for (std::size_t i = 0; i < ranks; ++i) {
      terms_.clear();
      seconds_ = 0.0;
      const RankCounts c = counts_of(step_, i, "price step");
      if (mode != "prebuilt") forward(c);
      host(c);
      if (seconds_ > slowest) {
        slowest = seconds_;
        slowest_terms = terms_;
      }
    }
    engine::StepEstimate e;
    e.stages.push_back({stage_, units::Seconds{slowest}});
    e.primitives = std::move(slowest_terms);
    e.entries_used.assign(used_.begin(), used_.end());
    e.entries_displaced.assign(displaced_.begin(), displaced_.end());
    e.least_trusted = least_;
    return e;
  }

 private:
  void forward(const RankCounts& c) {
    const auto& layers = plan_.layers ? *plan_.layers : std::vector<Layer>{};
    // Layers where the plan lowers both a prefill and a decode attention family.
    std::map<std::int64_t, std::set<bool>> attention_kinds;
    for (const Layer& l : layers)
      if (is_attention(l.primitive) && l.stage.value_or(0) == stage_) attention_kinds[l.layer.value_or(-1)].insert(is_prefill(l.primitive));
    const bool graph = c.launch && *c.launch == "full_graph";
    const bool piecewise = c.launch && *c.launch == "piecewise";
    std::int64_t eager_kernels = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
      const Layer& l = layers[i];
      if (l.stage.value_or(0) != stage_) continue;
      const std::string at = "plan.layers[" + std::to_string(i) + "]";
      const bool split = attention_kinds[l.layer.value_or(-1)].size() == 2;
      layer(l, at, c, split, 1);
      const bool eager = !graph && (!piecewise || (l.layer && c.eager_layers.contains(*l.layer)));
      if (eager) eager_kernels += l.kernels ? l.kernels->value() : 1;
    }
    if (step_.drafts && step_.drafts->passes && plan_.draft_layers) {
      RankCounts d;
      d.tokens = d.requests = d.sampled = d.scheduled = step_.drafts->requests ? step_.drafts->requests->value() : 0;
      const std::int64_t passes = step_.drafts->passes->value();
      for (std::size_t i = 0; i < plan_.draft_layers->size(); ++i) {
        const Layer& l = (*plan_.draft_layers)[i];
        if (l.stage.value_or(0) != stage_ || d.tokens == 0 || passes == 0) continue;
        layer(l, "plan.draft_layers[" + std::to_string(i) + "]", d, false, passes);
      }
    }
    if (graph) host_term("host.graph_launch", {{"graphs", 1.0}});
    if (piecewise) host_term("host.graph_launch", {{"graphs", static_cast<double>(c.eager_layers.size() + 1)}});
    if (eager_kernels > 0) host_term("host.launch", {{"kernels", static_cast<double>(eager_kernels)}});
  }

  void host(const RankCounts& c) {
    host_term("host.step", {{"requests", static_cast<double>(c.scheduled)}, {"tokens", static_cast<double>(c.tokens)}});
    for (const auto& q : c.reqs)
      if (q.prompt_tokens) host_term("host.request", {{"prompt_tokens", static_cast<double>(q.prompt_tokens->value())}});
    if (c.sampled > 0) host_term("host.token", {{"tokens", static_cast<double>(c.sampled)}});
  }

  void host_term(const std::string& family, std::map<std::string, double> inputs) {
    PrimitiveCall call = base_call(family);
    call.inputs = std::move(inputs);
    add(call, std::nullopt, 1);
  }

  PrimitiveCall base_call(const std::string& family) const {
    PrimitiveCall call;
    call.family = family;
    call.chip = *plan_.chip;
    call.model = plan_.model;
    call.workload = ctx_.workload;
    copy_layout_widths(plan_, call);
    return call;
  }

  std::int64_t rows(const Layer& l, const RankCounts& c, const std::string& at) const {
    return rows_of(l.shape ? l.shape->rows : std::nullopt, c, "price step", at + ".shape.rows");
  }

  static double need(const std::optional<units::Count>& v, const std::string& field) {
    if (!v) refuse(field, "not stated, and the layer's family reads it");
    return static_cast<double>(v->value());
  }

  void layer(const Layer& l, const std::string& at, const RankCounts& c, bool split, std::int64_t times) {
    PrimitiveCall call = base_call(l.primitive);
    if (l.kernel) call.kernel = KernelImpl{l.kernel->library, l.kernel->variant, l.kernel->code_hash.value_or("")};
    call.formats = formats_of(l, at);
    call.fabric = plan_.fabric;
    const schema::PoolPlanPrimitiveShape none{};
    const auto& s = l.shape ? *l.shape : none;
    const std::string sh = at + ".shape.";
    const double m = static_cast<double>(rows(l, c, at));
    const std::string& f = l.primitive;
    if (is_attention(f)) {
      const bool pre = is_prefill(f);
      for (const auto& q : c.reqs) {
        const std::int64_t nw = tok(q.new_tokens), cached = tok(q.cached_tokens);
        const std::int64_t sampled = q.sampled_tokens ? q.sampled_tokens->value() : 1;
        const bool decode_like = nw > 0 && sampled >= nw;
        if (split && decode_like == pre) continue;
        if (pre) call.requests.push_back({nw, cached});
        else call.requests.push_back({q.query_tokens ? q.query_tokens->value() : nw, cached + nw});
      }
      if (!pre || !split)
        for (std::int64_t p = c.scheduled; p < c.requests; ++p) call.requests.push_back({1, 1});
      if (call.requests.empty()) return;  // no request of this kind in the step
      if (f == "attention.prefill" || f == "attention.decode") {
        call.inputs["heads_q"] = need(s.heads_q, sh + "heads_q");
        call.inputs["heads_kv"] = need(s.heads_kv, sh + "heads_kv");
        call.inputs["head_dim"] = need(s.head_dim, sh + "head_dim");
      } else if (pre) {
        call.inputs["heads"] = need(s.heads, sh + "heads");
        call.inputs["qk_head_dim"] = need(s.qk_head_dim, sh + "qk_head_dim");
        call.inputs["v_head_dim"] = need(s.v_head_dim, sh + "v_head_dim");
      } else {
        call.inputs["heads"] = need(s.heads, sh + "heads");
        call.inputs["kv_lora_rank"] = need(s.kv_lora_rank, sh + "kv_lora_rank");
        call.inputs["rope_dim"] = need(s.rope_dim, sh + "rope_dim");
      }
      call.inputs["window"] = window_of(l);
    } else if (is_link(f)) {
      if (!l.collective) refuse(at + ".collective", "not stated, and a " + f + " layer moves bytes over a group");
      const auto& co = *l.collective;
      const double bytes = static_cast<double>(co.bytes_per_token ? co.bytes_per_token->value() : 0) * m +
                           static_cast<double>(co.bytes ? co.bytes->value() : 0);
      if (bytes == 0.0) return;  // nothing to move in this step
      call.inputs["bytes"] = bytes;
      if (f != "p2p.send_recv") call.inputs["group_size"] = need(co.group_size, at + ".collective.group_size");
      call.span = co.span;
      if (f == "collective.all_to_all" && ctx_.workload) {
        call.inputs["experts"] = need(s.experts, sh + "experts");
        call.inputs["top_k"] = need(s.top_k, sh + "top_k");
      }
    } else if (f == "gemm") {
      if (m == 0.0) return;
      call.inputs = {{"m", m}, {"n", need(s.n, sh + "n")}, {"k", need(s.k, sh + "k")}};
    } else if (f == "moe.grouped_gemm") {
      if (m == 0.0) return;
      const double experts = need(s.experts, sh + "experts"), local = need(s.local_experts, sh + "local_experts");
      const double routed = m * need(s.top_k, sh + "top_k") * local / experts;
      call.inputs = {{"routed_tokens", routed}, {"active_experts", std::min(local, routed)},
                     {"n", need(s.n, sh + "n")}, {"k", need(s.k, sh + "k")}};
      if (ctx_.workload) {
        call.inputs["experts"] = experts;
        call.inputs["top_k"] = need(s.top_k, sh + "top_k");
      }
    } else if (f == "moe.permute") {
      call.inputs = {{"tokens", m}, {"top_k", need(s.top_k, sh + "top_k")}, {"hidden", need(s.hidden, sh + "hidden")},
                     {"experts", need(s.experts, sh + "experts")}};
    } else if (f == "elementwise.norm") {
      call.inputs = {{"tokens", m}, {"hidden", need(s.hidden, sh + "hidden")}, {"fused_residual", s.fused_residual.value_or(false) ? 1.0 : 0.0}};
    } else if (f == "elementwise.activation") {
      // The plan states no FLOPs per element; the memory-only form prices bytes, so FLOPs are reported as 0.
      call.inputs = {{"tokens", m}, {"width", need(s.width, sh + "width")}, {"gated", s.gated.value_or(false) ? 1.0 : 0.0},
                     {"flops_per_element", 0.0}};
    } else if (f == "elementwise.rotary") {
      call.inputs = {{"tokens", m}, {"heads_q", need(s.heads_q, sh + "heads_q")}, {"heads_kv", need(s.heads_kv, sh + "heads_kv")},
                     {"rotary_dim", need(s.rotary_dim, sh + "rotary_dim")}};
    } else if (f == "kv_cache.write") {
      call.inputs = {{"tokens", m}, {"kv_width", need(s.kv_width, sh + "kv_width")}};
    } else if (f == "embedding") {
      call.inputs = {{"tokens", m}, {"hidden", need(s.hidden, sh + "hidden")}};
    } else if (f == "sampling") {
      if (m == 0.0) return;
      // As for activations: the memory-only form reads bytes, and the plan states no FLOPs per logit.
      call.inputs = {{"requests", m}, {"vocab", need(s.vocab, sh + "vocab")}, {"flops_per_logit", 0.0}};
    } else {
      refuse(at + ".primitive", "'" + f + "' is not a family a lowered layer runs");
    }
    if (m == 0.0 && !is_attention(f)) return;
    add(call, l.layer, times);
  }

  // The sliding window of the KV group that holds the layer (0: full attention).
  double window_of(const Layer& l) const {
    if (!plan_.kv || !l.layer) return 0.0;
    for (const auto& g : *plan_.kv)
      if (g.layers && std::find(g.layers->begin(), g.layers->end(), *l.layer) != g.layers->end() &&
          g.attention.value_or("full") == "sliding_window" && g.window)
        return static_cast<double>(g.window->value());
    return 0.0;
  }

  void add(const PrimitiveCall& call, std::optional<std::int64_t> layer, std::int64_t times) {
    const PrimitivePrice p = price(coefficients_, call);
    engine::PrimitivePrice t;
    t.family = call.family;
    t.layer = layer;
    t.stage = stage_;
    t.seconds = units::Seconds{p.seconds.value() * static_cast<double>(times)};
    const Provenance& v = p.provenance;
    if (v.effective_rank > 0) {
      t.trust.effective_rank = v.effective_rank;
      t.trust.method = static_cast<engine::Method>(std::min(method_rank(v.method), 7));
      t.trust.extrapolated = v.extrapolated;
      t.trust.unidentified = v.unidentified;
      if (v.effective_rank > least_.effective_rank) least_ = t.trust;
    }
    t.entries = v.used;
    used_.insert(v.used.begin(), v.used.end());
    displaced_.insert(v.displaced.begin(), v.displaced.end());
    seconds_ += t.seconds.value();
    terms_.push_back(std::move(t));
  }

  const Coefficients& coefficients_;
  const PoolPlan& plan_;
  const StepShape& step_;
  const StepContext& ctx_;
  std::int64_t stage_;
  double seconds_ = 0.0;
  std::vector<engine::PrimitivePrice> terms_;
  std::set<std::string> used_, displaced_;
  engine::Trust least_;
};

}  // namespace

engine::StepEstimate price_step(const Coefficients& coefficients, const PoolPlan& plan, const StepShape& step,
                                const StepContext& context) {
  return StepPricer(coefficients, plan, step, context).run();
}

}  // namespace blis::cost
