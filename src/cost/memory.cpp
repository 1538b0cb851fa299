#include "cost/memory.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/engine/errors.h"
#include "contracts/engine/quant_format.h"
#include "cost/launch.h"
#include "cost/lookup.h"

namespace blis::cost {

namespace {

using engine::ContractError;
using engine::plan::PoolPlan;
using engine::plan::StepShape;
using units::Bytes;
using Layer = schema::PoolPlanLoweredLayer;
using Quant = schema::PoolPlanQuantFormat;

[[noreturn]] void refuse(const std::string& field, const std::string& value, const std::string& cause) {
  throw ContractError("memory: " + field + " = " + value + ": " + cause);
}

[[noreturn]] void refuse_absent(const std::string& field, const std::string& cause) {
  throw ContractError("memory: " + field + ": not stated, and " + cause);
}

std::string at(const std::string& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

// S(f, shape): the stored bytes of a tensor of `shape` in format f; 0 when a dimension is 0 (no rows).
Bytes stored(const Quant& f, const std::vector<std::int64_t>& shape, const std::string& field) {
  std::vector<units::Count> dims;
  for (const std::int64_t d : shape) {
    if (d == 0) return Bytes{0};
    dims.emplace_back(d);
  }
  try {
    return engine::stored_bytes(f, dims);
  } catch (const ContractError& e) {
    throw ContractError("memory: " + field + ": " + e.what());
  }
}

std::int64_t mul(std::int64_t a, std::int64_t b) { return (units::Count{a} * b).value(); }

// A stage index of the plan, checked against the stage count.
std::int64_t stage_of(const std::optional<std::int64_t>& stage, std::int64_t stages, const std::string& field) {
  const std::int64_t s = stage.value_or(0);
  if (s >= stages)
    refuse(field, std::to_string(s),
           "the plan has " + std::to_string(stages) + " pipeline stage(s) (layout.pp), counted from 0");
  return s;
}

// The working set of one forward pass over a list of lowered layers (memory.h's A).
class Sizer {
 public:
  Sizer(const std::vector<Layer>& layers, std::string list, std::int64_t stages)
      : layers_(layers), list_(std::move(list)), stages_(stages) {}

  struct Peak {
    Bytes bytes{0};
    std::vector<std::string> sources;  // the layer that sets the peak, and the residual when carried
  };

  Peak peak(std::int64_t stage, const RankCounts& c) const {
    Peak out;
    Bytes widest{0}, carry{0};
    std::string widest_at, carry_at;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
      const Layer& l = layers_[i];
      const std::string where = at(list_, i);
      if (stage_of(l.stage, stages_, where + ".stage") != stage) continue;
      const Bytes w = working_set(l, where, c);
      if (w > widest || widest_at.empty()) {
        widest = w;
        widest_at = where + " (" + l.primitive + ")";
      }
      if (l.primitive == "elementwise.norm" && l.shape && l.shape->fused_residual.value_or(false)) {
        const std::int64_t r = rows(l, where, c);
        const Bytes residual = stored(fmt(l, where, "activation"), {r, need(l, where, "hidden", &Shape::hidden)},
                                      where + ".shape.dtypes.activation");
        if (residual > carry) {
          carry = residual;
          carry_at = where + " (residual)";
        }
      }
    }
    out.bytes = carry + widest;
    if (!widest_at.empty()) out.sources.push_back(widest_at);
    if (!carry_at.empty()) out.sources.push_back(carry_at);
    return out;
  }

 private:
  using Shape = schema::PoolPlanPrimitiveShape;

  static std::int64_t rows(const Layer& l, const std::string& where, const RankCounts& c) {
    return rows_of(l.shape ? l.shape->rows : std::nullopt, c, "memory", where + ".shape.rows");
  }

  static std::int64_t need(const Layer& l, const std::string& where, const std::string& name,
                           std::optional<units::Count> Shape::*field) {
    if (!l.shape || !(*l.shape.*field))
      refuse_absent(where + ".shape." + name, "the " + l.primitive + " working set reads it");
    return (*l.shape.*field)->value();
  }

  static const Quant& fmt(const Layer& l, const std::string& where, const std::string& role) {
    const std::optional<Quant>* f = nullptr;
    if (l.shape && l.shape->dtypes) {
      const auto& d = *l.shape->dtypes;
      f = role == "activation" ? &d.activation : &d.output;
    }
    if (f == nullptr || !*f)
      refuse_absent(where + ".shape.dtypes." + role, "the " + l.primitive + " working set reads its format");
    return **f;
  }

  Bytes working_set(const Layer& l, const std::string& where, const RankCounts& c) const {
    const std::string& f = l.primitive;
    const std::int64_t r = rows(l, where, c);
    const auto n = [&](const std::string& name, std::optional<units::Count> Shape::*field) {
      return need(l, where, name, field);
    };
    const auto S = [&](const std::string& role, std::int64_t rows_, std::int64_t width) {
      return stored(fmt(l, where, role), {rows_, width}, where + ".shape.dtypes." + role);
    };
    if (f == "gemm") return S("activation", r, n("k", &Shape::k)) + S("output", r, n("n", &Shape::n));
    if (f == "moe.grouped_gemm") {
      const std::int64_t routed = units::ceil_div(units::Count{mul(mul(r, n("top_k", &Shape::top_k)),
                                                                   n("local_experts", &Shape::local_experts))},
                                                   units::Count{n("experts", &Shape::experts)})
                                      .value();
      return S("activation", routed, n("k", &Shape::k)) + S("output", routed, n("n", &Shape::n));
    }
    if (f == "attention.prefill" || f == "attention.decode") {
      const std::int64_t width = mul(n("heads_q", &Shape::heads_q), n("head_dim", &Shape::head_dim));
      return S("activation", r, width) + S("output", r, width);
    }
    if (f == "attention.mla_prefill") {
      const std::int64_t heads = n("heads", &Shape::heads);
      return S("activation", r, mul(heads, n("qk_head_dim", &Shape::qk_head_dim))) +
             S("output", r, mul(heads, n("v_head_dim", &Shape::v_head_dim)));
    }
    if (f == "attention.mla_decode") {
      const std::int64_t heads = n("heads", &Shape::heads), lora = n("kv_lora_rank", &Shape::kv_lora_rank);
      return S("activation", r, mul(heads, (units::Count{lora} + units::Count{n("rope_dim", &Shape::rope_dim)}).value())) +
             S("output", r, mul(heads, lora));
    }
    if (f == "moe.permute") {
      const std::int64_t hidden = n("hidden", &Shape::hidden);
      return S("activation", r, hidden) + S("activation", mul(r, n("top_k", &Shape::top_k)), hidden);
    }
    if (f == "elementwise.norm") {
      const std::int64_t hidden = n("hidden", &Shape::hidden);
      return S("activation", r, hidden) + S("output", r, hidden);
    }
    if (f == "elementwise.activation") {
      const std::int64_t width = n("width", &Shape::width);
      const bool gated = l.shape->gated.value_or(false);
      return S("activation", r, gated ? mul(2, width) : width) + S("output", r, width);
    }
    if (f == "elementwise.rotary") {
      const std::int64_t heads = (units::Count{n("heads_q", &Shape::heads_q)} + units::Count{n("heads_kv", &Shape::heads_kv)}).value();
      return S("activation", r, mul(heads, n("rotary_dim", &Shape::rotary_dim)));
    }
    if (f == "kv_cache.write") return S("activation", r, n("kv_width", &Shape::kv_width));
    if (f == "embedding") return S("output", r, n("hidden", &Shape::hidden));
    if (f == "sampling") return S("activation", r, n("vocab", &Shape::vocab));
    if (f.starts_with("collective.") || f == "p2p.send_recv") return collective(l, where, r);
    refuse(where + ".primitive", f, "not a family a lowered layer runs, so it has no activation working set");
  }

  static Bytes collective(const Layer& l, const std::string& where, std::int64_t r) {
    if (!l.collective) refuse_absent(where + ".collective", "a " + l.primitive + " layer's buffer is sized from it");
    const auto& co = *l.collective;
    const Bytes b = Bytes{co.bytes_per_token ? co.bytes_per_token->value() : 0} * r +
                    Bytes{co.bytes ? co.bytes->value() : 0};
    const auto group = [&] {
      if (!co.group_size) refuse_absent(where + ".collective.group_size", "the " + l.primitive + " output is sized by it");
      return co.group_size->value();
    };
    if (l.primitive == "collective.all_reduce" || l.primitive == "p2p.send_recv") return b;
    if (l.primitive == "collective.all_gather") return b + b * group();
    if (l.primitive == "collective.reduce_scatter") return b + Bytes{units::ceil_div(b, Bytes{group()}).value()};
    return b * 2;  // collective.all_to_all: send and receive buffers
  }

  const std::vector<Layer>& layers_;
  std::string list_;
  std::int64_t stages_;
};

struct Layout {
  std::int64_t stages = 1, nodes = 1, per_node = 1;
};

Layout layout_of(const PoolPlan& p) {
  Layout out;
  if (!p.layout) return out;
  if (p.layout->pp) out.stages = p.layout->pp->value();
  if (p.layout->nodes) out.nodes = p.layout->nodes->value();
  if (p.layout->ranks_per_node) out.per_node = p.layout->ranks_per_node->value();
  return out;
}

std::string name_or(const std::optional<std::string>& name, const std::string& fallback) { return name ? *name : fallback; }

class Breakdown {
 public:
  Breakdown(const Coefficients& c, const MemoryCatalog& catalog, const PoolPlan& plan)
      : coefficients_(c), catalog_(catalog), plan_(plan), layout_(layout_of(plan)) {}

  engine::MemoryBreakdown run() {
    if (!plan_.chip) refuse_absent("plan.chip", "memory outside the allocator is a coefficient per chip");
    engine::MemoryBreakdown out;
    const engine::MemoryTerm outside = outside_allocator();
    for (std::int64_t s = 0; s < layout_.stages; ++s) {
      engine::StageMemory m;
      m.stage = s;
      m.weights = weights(s, "device");
      m.activations = activations(s);
      m.graph_pool = graph_pool(s);
      m.engine_buffers = buffers(s, "device");
      m.outside_allocator = outside;
      out.stages.push_back(std::move(m));
    }
    host(out);
    return out;
  }

 private:
  static engine::MemoryTerm per_rank(Bytes b, std::vector<std::string> sources) {
    return engine::MemoryTerm{units::BytesPerRank{b.value()}, std::move(sources)};
  }

  engine::MemoryTerm weights(std::int64_t s, const std::string& location) const {
    Bytes sum{0};
    std::vector<std::string> sources;
    const auto& list = plan_.weights ? *plan_.weights : std::vector<schema::PoolPlanResidentTensor>{};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& t = list[i];
      const std::string where = at("plan.weights", i);
      if (stage_of(t.stage, layout_.stages, where + ".stage") != s || t.location.value_or("device") != location) continue;
      if (!t.format) refuse_absent(where + ".format", "the tensor's stored bytes depend on it");
      if (!t.shape) refuse_absent(where + ".shape", "the tensor's stored bytes depend on it");
      std::vector<units::Count> dims(t.shape->begin(), t.shape->end());
      try {
        sum += engine::stored_bytes(*t.format, dims);
      } catch (const ContractError& e) {
        throw ContractError("memory: " + where + ": " + e.what());
      }
      sources.push_back(name_or(t.name, where));
    }
    return per_rank(sum, std::move(sources));
  }

  engine::MemoryTerm buffers(std::int64_t s, const std::string& location) const {
    Bytes sum{0};
    std::vector<std::string> sources;
    const auto& list = plan_.buffers ? *plan_.buffers : std::vector<schema::PoolPlanBuffer>{};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& b = list[i];
      const std::string where = at("plan.buffers", i);
      if (b.stage && stage_of(b.stage, layout_.stages, where + ".stage") != s) continue;
      if (b.location.value_or("device") != location) continue;
      if (!b.bytes) refuse_absent(where + ".bytes", "the buffer is sized by it");
      sum += Bytes{b.bytes->value()};
      sources.push_back(name_or(b.name, where) + " (" + b.basis.value_or("rank") + ")");
    }
    return per_rank(sum, std::move(sources));
  }

  engine::MemoryTerm activations(std::int64_t s) const {
    if (!plan_.profiling_step)
      refuse_absent("plan.profiling_step", "the activations are sized from the engine's profiling step");
    const StepShape& step = *plan_.profiling_step;
    const auto none = std::vector<Layer>{};
    const Sizer target(plan_.layers ? *plan_.layers : none, "plan.layers", layout_.stages);
    Sizer::Peak best;
    bool first = true;
    for (std::size_t i = 0; i < lockstep_ranks(step); ++i) {
      Sizer::Peak p = target.peak(s, counts_of(step, i, "memory", "plan.profiling_step."));
      p.sources.insert(p.sources.begin(), step.ranks ? at("plan.profiling_step.ranks", i) : "plan.profiling_step");
      if (first || p.bytes > best.bytes) best = p;
      first = false;
    }
    if (plan_.draft_layers && step.drafts && step.drafts->passes && step.drafts->passes->value() > 0 &&
        step.drafts->requests && step.drafts->requests->value() > 0) {
      RankCounts d;
      d.tokens = d.requests = d.sampled = d.scheduled = step.drafts->requests->value();
      Sizer::Peak p = Sizer(*plan_.draft_layers, "plan.draft_layers", layout_.stages).peak(s, d);
      p.sources.insert(p.sources.begin(), "plan.profiling_step.drafts");
      if (p.bytes > best.bytes) best = p;
    }
    return per_rank(best.bytes, best.sources);
  }

  engine::MemoryTerm graph_pool(std::int64_t s) const {
    Bytes pool{0};
    std::vector<std::string> sources;
    if (!plan_.graphs || !plan_.graphs->buckets) return per_rank(pool, sources);
    const auto none = std::vector<Layer>{};
    const Sizer target(plan_.layers ? *plan_.layers : none, "plan.layers", layout_.stages);
    const auto& buckets = *plan_.graphs->buckets;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      const auto& b = buckets[i];
      const std::string where = at("plan.graphs.buckets", i);
      if (stage_of(b.stage, layout_.stages, where + ".stage") != s) continue;
      if (!b.size || (!b.size->tokens && !b.size->requests))
        refuse_absent(where + ".size", "a captured graph's pool is sized by its launch");
      RankCounts c;
      if (b.size->tokens) {
        c.tokens = c.requests = b.size->tokens->value();
      } else {
        c.requests = b.size->requests->value();
        c.tokens = mul(c.requests, b.query_tokens_per_request ? b.query_tokens_per_request->value() : 1);
      }
      c.sampled = c.tokens;
      pool = std::max(pool, target.peak(s, c).bytes);
      sources.push_back(where);
    }
    return per_rank(pool, std::move(sources));
  }

  engine::MemoryTerm outside_allocator() const {
    LookupKey key;
    key.chip = *plan_.chip;
    key.model = plan_.model;
    copy_layout_widths(plan_, key);
    const std::string name = "memory.outside_allocator.bytes";
    const Resolved r = resolve(coefficients_, name, key,
                               {{"ranks", static_cast<double>(mul(layout_.nodes, layout_.per_node))}});
    if (!r.charged) return per_rank(Bytes{0}, {r.entry->id});
    const double v = r.value;
    if (!(v >= 0.0) || v >= 9.2e18 || static_cast<double>(static_cast<std::int64_t>(v)) != v)
      refuse(name + " (" + r.entry->id + ", " + r.entry->location + ")", std::to_string(v),
             "a memory amount is a whole, non-negative number of bytes");
    return per_rank(Bytes{static_cast<std::int64_t>(v)}, {r.entry->id});
  }

  // The host KV tiers' bytes per rank (tiers in host memory only).
  engine::MemoryTerm tiers() const {
    Bytes sum{0};
    std::vector<std::string> sources;
    const auto& list = plan_.tiers ? *plan_.tiers : std::vector<schema::PoolPlanKVTier>{};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& t = list[i];
      const std::string where = at("plan.tiers", i);
      const auto d = catalog_.devices.find(t.device);
      if (d == catalog_.devices.end())
        refuse(where + ".device", t.device, "not a catalog device the environment holds, so its kind (host memory or a drive) is unknown");
      if (d->second.kind != "host_dram") continue;  // a drive: storage, not host memory
      if (!t.bytes) refuse_absent(where + ".bytes", "the host KV tier is sized by it");
      sum += Bytes{t.bytes->value()};
      sources.push_back(t.device + (t.shared.value_or(false) ? " (shared)" : ""));
    }
    return per_rank(sum, std::move(sources));
  }

  // The names of every buffer at `location`, each once (a buffer without a stage is on every stage).
  std::vector<std::string> buffer_names(const std::string& location) const {
    std::vector<std::string> out;
    const auto& list = plan_.buffers ? *plan_.buffers : std::vector<schema::PoolPlanBuffer>{};
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].location.value_or("device") == location)
        out.push_back(name_or(list[i].name, at("plan.buffers", i)) + " (" + list[i].basis.value_or("rank") + ")");
    return out;
  }

  // One host figure: the same per-rank amount on every stage, times the ranks of a node.
  engine::MemoryTerm per_node(const std::string& what, const std::vector<engine::MemoryTerm>& by_stage,
                              std::vector<std::string> sources) const {
    const auto bytes = [](const engine::MemoryTerm& t) { return std::get<units::BytesPerRank>(t.bytes); };
    for (std::size_t s = 1; s < by_stage.size(); ++s)
      if (bytes(by_stage[s]) != bytes(by_stage[0]))
        refuse("plan.layout.pp", std::to_string(layout_.stages),
               "the host " + what + " differ between stages (stage 0: " + units::to_string(bytes(by_stage[0])) +
                   ", stage " + std::to_string(s) + ": " + units::to_string(bytes(by_stage[s])) +
                   "), and the layout does not say which stage's ranks sit on which node");
    return engine::MemoryTerm{units::to_node(bytes(by_stage[0]), units::Count{layout_.per_node}), std::move(sources)};
  }

  void host(engine::MemoryBreakdown& out) const {
    std::vector<engine::MemoryTerm> weights_s, pinned_s, pageable_s;
    std::vector<std::string> weight_names;
    for (std::int64_t s = 0; s < layout_.stages; ++s) {
      weights_s.push_back(weights(s, "host"));
      for (const auto& n : weights_s.back().sources) weight_names.push_back(n);  // each tensor is on one stage
      pinned_s.push_back(buffers(s, "pinned_host"));
      pageable_s.push_back(buffers(s, "host"));
    }
    const engine::MemoryTerm kv = tiers();
    engine::HostNodeMemory h;
    h.weights = per_node("resident tensors", weights_s, weight_names);
    h.kv_tier = per_node("KV tiers", {kv}, kv.sources);
    h.pinned_buffers = per_node("pinned buffers", pinned_s, buffer_names("pinned_host"));
    h.pageable_buffers = per_node("pageable buffers", pageable_s, buffer_names("host"));
    for (std::int64_t n = 0; n < layout_.nodes; ++n) {
      h.node = n;
      out.host.push_back(h);
    }
  }

  const Coefficients& coefficients_;
  const MemoryCatalog& catalog_;
  const PoolPlan& plan_;
  Layout layout_;
};

}  // namespace

engine::MemoryBreakdown memory_breakdown(const Coefficients& coefficients, const MemoryCatalog& catalog,
                                         const PoolPlan& plan) {
  try {
    return Breakdown(coefficients, catalog, plan).run();
  } catch (const CostError& e) {
    throw ContractError(std::string(e.what()));
  } catch (const std::overflow_error& e) {
    throw ContractError(std::string("memory: ") + e.what());
  } catch (const std::domain_error& e) {
    throw ContractError(std::string("memory: ") + e.what());
  }
}

}  // namespace blis::cost
