// Original to BLIS: the router port's entry point (see embed.h): llm-d's start-up assembly of the
// endpoint picker for the configurations this port reads, and one routing decision per request.
#include "router/embed/embed.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/datalayer/metrics.h"
#include "router/epp/framework/interface/requesthandling/types.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/prompt_image.h"
#include "router/epp/framework/plugins/scheduling/picker/common.h"
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "router/epp/scheduling/weighted_scorer.h"

namespace blis::router::embed {
namespace {

// The namespace every endpoint of the simulated pool lives in (llm-d keys endpoints by namespaced name).
constexpr const char* kNamespace = "default";

// Original to BLIS: the endpoint picker assembled from llm-d's default configuration at the pin, and one
// decision per request as llm-d's request control makes it (produce the request's data, schedule, then the
// pre-request hook that records the pick in the approximate prefix index).
class DefaultRouter final : public Router {
 public:
  explicit DefaultRouter(Runtime& runtime) {
    // pkg/epp/config/loader/defaults.go@71f4f099 loadDefaultConfig: the "default" profile holds
    // queue-scorer (weight 2), kv-cache-utilization-scorer (2) and prefix-cache-scorer (3).
    // pkg/epp/config/loader/defaults.go@71f4f099 ensureSchedulingLayer: one profile and no handler configured,
    // so the single-profile-handler; no picker configured, so max-score-picker is registered and appended.
    // pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers: prefix-cache-scorer consumes the
    // prefix match info, whose default producer (cmd/epp/runner/runner.go@71f4f099) is
    // approx-prefix-cache-producer; that consumes the tokenized prompt, whose default producer is
    // token-producer with the tokenizer-free estimate backend.
    // Not decisions here: the metrics data source and extractor (the simulator delivers the metrics), the
    // parsers (the request arrives parsed), flow control (feature gate off by default) and the legacy
    // admission's saturation detector, which rejects only sheddable requests (priority < 0): a request's
    // priority is 0 unless an InferenceObjective says otherwise, and the port reads none, so none is shed.
    producer_ = approximateprefix::ApproxPrefixCacheFactory("approx-prefix-cache-producer", std::nullopt);
    auto profile = scheduling::NewSchedulerProfile();
    auto added = profile->AddPlugins({
        scheduling::NewWeightedScorer(queuedepth::NewQueueScorer(), 2.0),
        scheduling::NewWeightedScorer(kvcacheutilization::NewKVCacheUtilizationScorer(), 2.0),
        scheduling::NewWeightedScorer(prefix::PrefixCachePluginFactory("prefix-cache-scorer", std::nullopt), 3.0),
        maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, runtime.stream("picker/max-score-picker")),
    });
    if (added) throw std::logic_error("router: assembling llm-d's default profile failed: " + added->Text);
    scheduler_ = std::make_unique<scheduling::Scheduler>(single::NewSingleProfileHandler(),
                                                         fwksched::ProfileMap{{"default", profile}});
  }

  std::vector<std::string> plugin_types() const override {
    return {"queue-scorer", "kv-cache-utilization-scorer", "prefix-cache-scorer", "single-profile-handler",
            "max-score-picker", "approx-prefix-cache-producer", "token-producer"};
  }

  std::size_t pick(const RouteRequest& request, const std::vector<EndpointState>& endpoints) override {
    fwksched::InferenceRequest req;
    req.RequestID = request.id;
    // The request names no model (INTERFACES.md "What a request carries"): every request of a run asks for
    // the one model the pool serves, so TargetModel is the same (empty) for all; it changes the prefix
    // hashes' values, never which prompts share them.
    req.Body = std::make_shared<fwkrh::InferenceRequestBody>();
    std::vector<std::uint32_t> ids;
    ids.reserve(request.prompt.size());
    for (std::int32_t t : request.prompt) {
      if (t < 0) throw std::invalid_argument("router: request " + request.id + " has a negative token ID " + std::to_string(t));
      ids.push_back(static_cast<std::uint32_t>(t));
    }
    // The prompt text the client sends is the byte image the estimate backend maps back to these IDs.
    fwkrh::CompletionsRequest completions;
    completions.Prompt.Raw = tokenizer::PromptTextForTokenIDs(ids);
    req.Body->Completions = std::move(completions);
    if (request.max_tokens) req.Body->MaxOutputTokens = *request.max_tokens;
    auto produced = tokenizer::estimateBackend().produce(*req.Body);
    if (!produced.Value) throw std::runtime_error("router: token-producer: " + produced.Err.value_or("no tokens"));
    req.Body->TokenizedPrompt = std::move(*produced.Value);

    std::vector<fwksched::EndpointPtr> candidates;
    candidates.reserve(endpoints.size());
    for (const auto& e : endpoints) {
      fwkdl::EndpointMetadata meta;
      meta.ID.Namespace = kNamespace;
      meta.ID.Name = e.name;
      meta.Name = e.name;
      fwkdl::Metrics m;
      m.WaitingQueueSize = static_cast<int>(e.waiting_queue_size);
      m.RunningRequestsSize = static_cast<int>(e.running_requests_size);
      m.KVCacheUsagePercent = e.kv_cache_usage_percent;
      m.CacheBlockSize = static_cast<int>(e.cache_block_size);
      m.CacheNumBlocks = static_cast<int>(e.cache_num_blocks);
      candidates.push_back(fwksched::NewEndpoint(meta, m));
    }
    producer_->Produce(&req, candidates);
    auto out = scheduler_->Schedule(&req, candidates);
    if (!out.Value) {
      producer_->PluginState().Delete(req.RequestID);
      throw std::runtime_error("router: " + (out.Err ? out.Err->Text : std::string("no scheduling result")));
    }
    producer_->PreRequest(&req, *out.Value);
    const auto& result = *out.Value;
    const auto& chosen = result.ProfileResults.at(result.PrimaryProfileName)->TargetEndpoints.at(0);
    const std::string& name = chosen->GetMetadata()->ID.Name;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      if (endpoints[i].name == name) return i;
    }
    throw std::logic_error("router: llm-d chose endpoint " + name + ", which is not a candidate");
  }

 private:
  std::shared_ptr<approximateprefix::dataProducer> producer_;
  std::unique_ptr<scheduling::Scheduler> scheduler_;
};

}  // namespace

// Original to BLIS: the entry point; refuses what the port does not read yet, by name.
std::unique_ptr<Router> New(const std::optional<std::string>& config, const std::map<std::string, std::string>& flags,
                            Runtime& runtime) {
  if (config) {
    throw std::invalid_argument(
        "router.config: this build does not read an EndpointPickerConfig yet (llm-d's configuration loader is not "
        "ported); omit router.config to run llm-d's default configuration");
  }
  if (!flags.empty()) {
    throw std::invalid_argument("router.flags." + flags.begin()->first +
                                ": this build reads no llm-d router flag yet; omit router.flags");
  }
  return std::make_unique<DefaultRouter>(runtime);
}

}  // namespace blis::router::embed
