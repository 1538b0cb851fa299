// Pricing one engine step (design §6.2): a StepShape under the pool's PoolPlan, summed from single
// primitive prices (primitive.h). The cost model resolves nothing here: every count comes from the plan
// and the step as the engine wrote them, and a field the form needs but the engine left out is refused,
// naming it.
//
// The form, for the step's stage s (step.stage, 0 when absent):
//   - Each lockstep rank of step.ranks is priced on its own and the stage takes the slowest rank (ranks in
//     lockstep wait for each other). A rank's launched size is its PaddedShape (same rank index) where
//     stated: tokens launched and requests launched; otherwise its scheduled requests' new tokens and count.
//   - Every lowered layer of stage s (a layer without a stage is on stage 0) is one primitive call. Its
//     token-dependent input is the shape's `rows` count of the rank: launched tokens, launched requests,
//     or sampled positions (a request's sampled_tokens, 1 when unstated). Attention layers read each
//     scheduled request (prefill families: new and cached tokens; decode families: query tokens and
//     cached + new tokens as context); padding requests beyond the scheduled ones are priced as one query
//     token over one context token each. Where the plan lowers both a prefill and a decode attention
//     family at one layer, requests whose every new token is sampled (decode, verification) go to the
//     decode family and prompt chunks to the prefill family; a single attention family takes them all.
//     Collectives move bytes_per_token x rows + bytes per rank over their group.
//   - Launch: a full_graph launch adds host.graph_launch for one graph; piecewise adds one graph per
//     captured piece (eager layers + 1) and host.launch for the eager layers' kernels; eager (or no padded
//     shape) adds host.launch for every layer's kernels. Host terms add to the device time: how a step
//     overlaps the next one's host work is the engine's in-flight behaviour, not the cost model's.
//   - host.step once per step; host.request per request stating prompt_tokens (admitted this step);
//     host.token per sampled token. Draft layers run drafts.passes times with rows = drafts.requests.
//   - mode prebuilt runs no forward pass (host terms only); idle prices the padded launch with no requests.
// The estimate's trust is the least trusted effective rank over every coefficient used (VAL-3); its
// entries used and displaced are sorted and unique.
#pragma once

#include <optional>
#include <string>

#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "cost/coefficients.h"

namespace blis::cost {

struct StepContext {
  std::optional<std::string> workload;  // names the workload whose expert imbalance applies (D8)
};

engine::StepEstimate price_step(const Coefficients& coefficients, const engine::plan::PoolPlan& plan,
                                const engine::plan::StepShape& step, const StepContext& context = {});

}  // namespace blis::cost
