// The memory a plan needs (SUB-14, design §6.3 phase 1): per pipeline stage, the GPU memory of each rank
// of the stage, and per node, the host memory of the engine instance. The engine states what it chooses
// (resident tensors, buffers, the profiling step, the graphs it captures); this sizes them and adds the
// memory it does not choose (a registry coefficient per chip). Nothing is resolved: every figure comes
// from the plan as written, and a figure that cannot be sized is refused (engine::ContractError naming the
// field, the value and the cause).
//
// Stages are 0 .. layout.pp - 1 (pp absent: one stage). A lowered layer or resident tensor without a stage
// is on stage 0 (as step pricing reads layers); a buffer without a stage is on every stage (its schema). A
// stage outside that range is refused. Every byte count of a tensor goes through the one stored-bytes
// function of the plan's quantised format (engine::stored_bytes, contracts/engine/quant_format.h); the
// per-rank shape the plan states is what one rank stores (sharding is not re-applied). Every GPU term is
// per rank of its stage (basis rank), every host term per node (basis node).
//
// Per stage s, the StageMemory terms:
//   weights            the stored bytes of each resident tensor on s whose location is device (absent:
//                      device); sources: the tensors' names (weights[i] when unnamed).
//   activations        the peak activation working set of the plan's profiling step on s: the largest
//                      figure over the step's lockstep ranks (each rank must hold its own); with draft
//                      layers and a profiling step that drafts (drafts.passes and drafts.requests above 0),
//                      the larger of the target's and the drafter's peak. The peak of one forward pass:
//                        A = carry + max over the lowered layers l of s of W(l)
//                      where, with r the layer's row count for the rank (`rows`: launched tokens, launched
//                      requests or sampled positions, as step pricing counts them) and S(f, [r, w]) the
//                      stored bytes of an r x w tensor in format f (act, out: the layer's dtypes.activation
//                      and dtypes.output), W(l) is the bytes the primitive reads and writes at once:
//                        gemm                      S(act,[r,k]) + S(out,[r,n])
//                        moe.grouped_gemm          S(act,[R,k]) + S(out,[R,n]), R = ceil(r*top_k*local_experts/experts)
//                        attention.prefill/decode  S(act,[r,heads_q*head_dim]) + S(out,[r,heads_q*head_dim])
//                        attention.mla_prefill     S(act,[r,heads*qk_head_dim]) + S(out,[r,heads*v_head_dim])
//                        attention.mla_decode      S(act,[r,heads*(kv_lora_rank+rope_dim)]) + S(out,[r,heads*kv_lora_rank])
//                        moe.permute               S(act,[r,hidden]) + S(act,[r*top_k,hidden])
//                        elementwise.norm          S(act,[r,hidden]) + S(out,[r,hidden])
//                        elementwise.activation    S(act,[r,g*width]) + S(out,[r,width]), g = 2 when gated, else 1
//                        elementwise.rotary        S(act,[r,(heads_q+heads_kv)*rotary_dim])   (in place)
//                        kv_cache.write            S(act,[r,kv_width])   (the cache itself is not activation memory)
//                        embedding                 S(out,[r,hidden])
//                        sampling                  S(act,[r,vocab])   (the logits)
//                        collective.all_reduce     B               (in place), B = r*bytes_per_token + bytes
//                        collective.all_gather     B + group_size*B
//                        collective.reduce_scatter B + ceil(B/group_size)
//                        collective.all_to_all     2*B
//                        p2p.send_recv             B
//                      and carry is the residual stream held across the layer while its primitives run:
//                      the largest S(act,[tokens,hidden]) over the stage's elementwise.norm layers that
//                      state fused_residual (0 when none does). A missing shape field or format the row
//                      reads is refused, naming it; so is a family no lowered layer runs (kv.transfer,
//                      copy.*, host.*, moe.expert_imbalance). The profiling step sizes every stage (one
//                      shape flows through every stage); its mode, stage and launch are not read.
//                      Sources: the rank that sets the figure ("plan.profiling_step.ranks[i]", or
//                      "plan.profiling_step.drafts" for the drafter), the layer of the largest W ("plan.
//                      layers[j] (family)") and the norm whose residual is carried ("... (residual)").
//   graph_pool         the memory pool the stage's captured graphs share (captured largest first, each
//                      reusing the pool): the largest A over the stage's buckets (a bucket without a stage
//                      is on stage 0), each sized as a launch of its bucket: tokens = size.tokens, or
//                      size.requests x query_tokens_per_request (1 when absent); requests = size.requests,
//                      or for a token bucket its tokens (one-token requests, the most a launch can hold);
//                      sampled positions = tokens. 0 when the plan captures no graph on s. Sources: the
//                      stage's buckets, as "plan.graphs.buckets[i]". Per-graph bookkeeping outside the pool
//                      is not modelled (SUB-14's record lists it).
//   engine_buffers     the bytes of each buffer on s whose location is device (absent: device), as the
//                      plan states them per rank (a node or group buffer's bytes are each rank's even
//                      share); sources: the buffers' names (buffers[i] when unnamed) with their basis.
//   outside_allocator  memory.outside_allocator.bytes (bytes/rank) looked up for the plan's chip (with
//                      the plan's model and layout widths as further scope keys) at the input ranks =
//                      layout.nodes x layout.ranks_per_node; sources: the entry's identity. A not_charged
//                      entry adds 0 bytes, still naming the entry. A value that is negative, not finite or
//                      not a whole number of bytes is refused.
//   remainder          empty: SUB-14's list of unexplained terms has no entry yet.
//
// Per node n of 0 .. layout.nodes - 1, the HostNodeMemory terms, each the per-rank figure the plan states
// times layout.ranks_per_node (both 1 when absent): a figure the plan states per rank is that rank's even
// share of any copy its node's ranks share (KVTier.bytes, Buffer.bytes), so the node's one copy is counted
// once. A host figure that differs between stages is refused when pp > 1, since the layout does not say
// which stage's ranks sit on which node.
//   weights            the stored bytes of the resident tensors whose location is host
//   kv_tier            the bytes of each KV tier whose catalog device is host memory (kind host_dram); a
//                      tier on a drive (nvme) is storage, not host memory, and is not in the breakdown; a
//                      tier whose device the catalog facts do not hold, or without bytes, is refused
//   pinned_buffers     the buffers whose location is pinned_host
//   pageable_buffers   the buffers whose location is host
#pragma once

#include <map>
#include <string>

#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "cost/coefficients.h"
#include "schema/device.h"

namespace blis::cost {

// The catalog facts the breakdown reads: the storage devices the plan's KV tiers name, by catalog name.
struct MemoryCatalog {
  std::map<std::string, schema::Device> devices;
};

// The breakdown above. Throws engine::ContractError naming the field, the value and the cause.
engine::MemoryBreakdown memory_breakdown(const Coefficients& coefficients, const MemoryCatalog& catalog,
                                         const engine::plan::PoolPlan& plan);

}  // namespace blis::cost
