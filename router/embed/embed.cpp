// Original to BLIS: the router port's entry point (see embed.h): llm-d's start-up assembly of the endpoint
// picker (cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseOne/Two: LoadRawConfig,
// InstantiateAndConfigure, CreateMissingDataProducers, ValidatePluginStability) and one routing decision per
// request as llm-d's request control makes it (the data producers' Produce in dependency order, Schedule,
// then the PreRequest hooks).
#include "router/embed/embed.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include <stdexcept>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "router/cmd/epp/runner/dataproducers.h"
#include "router/cmd/epp/runner/flags.h"
#include "router/cmd/epp/runner/metrics_extractor.h"
#include "router/cmd/epp/runner/register.h"
#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/config/loader/configloader.h"
#include "router/epp/config/loader/roles.h"
#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/datalayer/metrics.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/requesthandling/types.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/endpoint.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/prompt_image.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/kvevents/engineadapter/adapter.h"
#include "router/kvevents/engineadapter/common.h"

namespace blis::router::embed {
namespace {

// The namespace every endpoint of the simulated pool lives in (llm-d keys endpoints by namespaced name).
constexpr const char* kNamespace = "default";

bool holdsWithoutDecision(const std::shared_ptr<fwkplugin::Plugin>& p) {
  return std::dynamic_pointer_cast<loader::ParserRole>(p) || std::dynamic_pointer_cast<loader::DataSourceRole>(p) ||
         std::dynamic_pointer_cast<loader::ExtractorRole>(p) || std::dynamic_pointer_cast<loader::SaturationDetectorRole>(p);
}

// Original to BLIS: the endpoint picker a configuration assembles, and one decision per request.
// Not decisions here: the metrics data source and extractor (the simulator delivers the metrics), the parsers
// (the request arrives parsed), flow control (refused when its feature gate is on) and the legacy admission's
// saturation detector, which rejects only sheddable requests (priority < 0): a request's priority is 0 unless
// an InferenceObjective says otherwise, and the port reads none, so none is shed.
class ConfiguredRouter final : public Router {
 public:
  ConfiguredRouter(const std::optional<std::string>& config, const runner::Flags& flags, Runtime& runtime)
      : handle_(runtime), runtime_(&runtime) {
    runner::RegisterInTreePlugins(registry_);
    loader::Loader ld(registry_);
    // cmd/epp/runner/runner.go@71f4f099 registerFeatureGates
    ld.RegisterFeatureGate(loader::FlowControlFeatureGate, false);
    ld.RegisterFeatureGate(loader::HAPopulateNonLeaderDatastoreFeatureGate, true);
    loader::RawConfig raw;
    try {
      raw = ld.LoadRawConfig(config.value_or(""));
    } catch (const std::invalid_argument& e) {
      // cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseOne
      throw std::invalid_argument(std::string("failed to parse config - ") + e.what());
    }
    for (const auto& spec : raw.Config.Plugins) runner::RefuseIfNotModelled(registry_, spec.Name, spec.Type);
    loader::Config cfg;
    try {
      cfg = ld.InstantiateAndConfigure(raw.Config, handle_);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("failed to load the configuration - ") + e.what());
    }
    std::vector<std::string> created;
    try {
      created = runner::CreateMissingDataProducers(registry_, handle_);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("failed to create missing data producers - ") + e.what());
    }
    fwkplugin::ValidatePluginStability(registry_, handle_, flags.AllowExperimentalPlugins);
    // Original to BLIS: the P/D handlers decide a prefill endpoint beside the decode endpoint; the simulator
    // does not yet run a request's prefill on one instance and hand its KV cache to another, so a
    // configuration holding one is refused rather than routed to its decode endpoint alone.
    for (const auto& [name, p] : handle_.GetAllPluginsWithNames()) {
      // Original to BLIS: the precise prefix-cache plugins subscribe to the engines' KV events, which the host
      // delivers to each distinct producer (a scorer's own, or the producer it shares). Both engine ports
      // publish them (engineType 'vllm' and 'sglang'); the producer's adapter decodes them as llm-d's does.
      std::shared_ptr<preciseprefixcache::Producer> producer = std::dynamic_pointer_cast<preciseprefixcache::Producer>(p);
      if (auto scorer = std::dynamic_pointer_cast<preciseprefixcachescorer::Plugin>(p)) producer = scorer->Producer();
      if (producer) {
        if (std::find(kvSubscribers_.begin(), kvSubscribers_.end(), producer) == kvSubscribers_.end()) {
          kvSubscribers_.push_back(producer);
        }
      }
      if (std::dynamic_pointer_cast<disagg::Handler>(p) || std::dynamic_pointer_cast<disagg::PdProfileHandler>(p)) {
        throw std::invalid_argument("plugin '" + name + "' (type: '" + p->TypedName().Type +
                                    "'): the simulator does not yet run disaggregated prefill/decode (a prefill on one "
                                    "instance whose KV cache moves to the decode instance); use a single or "
                                    "data-parallel profile handler");
      }
    }
    scheduler_ = scheduling::NewSchedulerWithConfig(*cfg.SchedulerConfig);
    // The data producers in dependency order (pkg/epp/datalayer/data_graph.go@71f4f099), each with its own
    // Produce: the token and approximate-prefix producers' (which predate the requestcontrol interfaces) and
    // any requestcontrol::DataProducer's.
    for (const auto& p : runner::OrderedDataProducers(handle_)) {
      if (auto t = std::dynamic_pointer_cast<tokenizer::Plugin>(p)) {
        produce_.push_back([t](fwksched::InferenceRequest* req, const std::vector<fwksched::EndpointPtr>&) {
          if (auto err = t->Produce(req)) throw std::runtime_error("router: " + t->TypedName().String() + ": " + *err);
        });
      } else if (auto a = std::dynamic_pointer_cast<approximateprefix::dataProducer>(p)) {
        prefixProducers_.push_back(a);
        produce_.push_back([a](fwksched::InferenceRequest* req, const std::vector<fwksched::EndpointPtr>& c) { a->Produce(req, c); });
      } else if (auto d = std::dynamic_pointer_cast<requestcontrol::DataProducer>(p)) {
        produce_.push_back([d](fwksched::InferenceRequest* req, const std::vector<fwksched::EndpointPtr>& c) {
          if (auto err = d->Produce(req, c)) throw std::runtime_error("router: " + d->TypedName().String() + ": " + err->Text);
        });
      }
    }
    // The PreRequest plugins (pkg/epp/requestcontrol/director.go@71f4f099 runPreRequestPlugins), in name order
    // (upstream adds them from the handle's map, in no set order; each keeps its own state, so the order
    // decides nothing).
    for (const auto& [name, p] : handle_.GetAllPluginsWithNames()) {
      if (auto pr = std::dynamic_pointer_cast<requestcontrol::PreRequestPlugin>(p)) preRequest_.push_back(pr);
      if (auto rb = std::dynamic_pointer_cast<requestcontrol::ResponseBodyProcessor>(p)) responseBody_.push_back(rb);
      if (auto l = std::dynamic_pointer_cast<inflightload::InFlightLoadProducer>(p)) endpointExtractors_.push_back(l);
      if (auto x = std::dynamic_pointer_cast<runner::HeldMetricsExtractor>(p)) metricsExtractor_ = x->extractor();
    }
    // pkg/epp/config/loader/defaults.go@71f4f099 adds the core metrics extractor when the configuration names
    // none; one is always there to read the engines' samples.
    if (!metricsExtractor_) {
      metricsExtractor_ = metrics::newCoreMetricsExtractorPlugin(metrics::MetricsExtractorType, nullptr);
    }
    for (const auto& spec : raw.Config.Plugins) {
      if (!holdsWithoutDecision(handle_.GetPlugin(spec.Name))) types_.push_back(spec.Type);
    }
    for (const auto& name : created) types_.push_back(handle_.GetPlugin(name)->TypedName().Type);
    settings_.RefreshMetricsIntervalNs = flags.RefreshMetricsIntervalNs;
    settings_.MetricsStalenessThresholdNs = flags.MetricsStalenessThresholdNs;
    settings_.Warnings = ld.Warnings();
    settings_.Warnings.insert(settings_.Warnings.end(), flags.Warnings.begin(), flags.Warnings.end());
  }

  std::vector<std::string> plugin_types() const override { return types_; }

  // The endpoint's metrics as llm-d's data layer holds them: the core metrics extractor run on the
  // endpoint's last delivered samples (pkg/epp/datalayer: the collector extracts each scrape), once per
  // publication (keyed on its time and sequence, DEV-4). An endpoint whose engine publishes no samples (the
  // conformance engines) is read from the contract's fields. Throws with the extractor's error text when a
  // configured metric is missing from an engine's samples (upstream logs it and scores on stale values).
  fwkdl::Metrics metricsOf(const EndpointState& e, const fwkdl::EndpointMetadata& meta) {
    if (e.samples.empty()) {
      fwkdl::Metrics m;
      m.WaitingQueueSize = static_cast<int>(e.waiting_queue_size);
      m.RunningRequestsSize = static_cast<int>(e.running_requests_size);
      m.KVCacheUsagePercent = e.kv_cache_usage_percent;
      m.CacheBlockSize = static_cast<int>(e.cache_block_size);
      m.CacheNumBlocks = static_cast<int>(e.cache_num_blocks);
      return m;
    }
    Extracted& x = extracted_[e.name];
    if (!x.endpoint) x.endpoint = std::make_unique<metrics::Endpoint>(meta);
    if (!x.valid || x.published_us != e.published_us || x.sequence != e.sequence) {
      metrics::PrometheusMetricMap families;
      for (const auto& s : e.samples) {
        metrics::MetricFamily& f = families[s.name];
        f.Name = s.name;
        f.Type = s.counter ? metrics::MetricType::COUNTER : metrics::MetricType::GAUGE;
        metrics::Metric sample;
        for (const auto& [k, v] : s.labels) sample.Label.push_back({k, v});
        if (s.counter) sample.Counter = s.value;
        else sample.Gauge = s.value;
        f.Metric.push_back(std::move(sample));
      }
      x.endpoint->UpdateMetadata(meta);
      metrics::Error err = metricsExtractor_->Extract(metrics::PollInput{families, *x.endpoint, runtime_->now_us()});
      // pkg/epp/datalayer/runtime.go@71f4f099: an extractor's error is logged ("endpoint extractor failed") and
      // the metrics it could read stay updated. The port records each distinct error once as a warning.
      if (err && extractorErrors_.insert(*err).second) {
        settings_.Warnings.push_back("router: core-metrics-extractor failed (first on " + e.name + "): " + *err +
                                     "; llm-d logs this at every scrape and keeps the metrics it could read");
      }
      x.valid = true;
      x.published_us = e.published_us;
      x.sequence = e.sequence;
    }
    return x.endpoint->GetMetrics();
  }

  // pkg/epp/requestcontrol/director.go@71f4f099 HandleResponseBody: the response-body plugins see the first
  // chunk (StartOfStream) and the end (EndOfStream), which releases what they track for the request.
  void response(const std::string& id, bool start_of_stream, bool end_of_stream) override {
    auto it = inFlight_.find(id);
    if (it == inFlight_.end()) return;
    requestcontrol::Response resp;
    resp.RequestID = id;
    resp.StartOfStream = start_of_stream;
    resp.EndOfStream = end_of_stream;
    for (const auto& rb : responseBody_) rb->ResponseBody(it->second.get(), &resp, nullptr);
    if (end_of_stream) inFlight_.erase(it);
  }
  const Settings& settings() const { return settings_; }

  // Original to BLIS: pkg/kvevents/zmq_subscriber.go@71f4f099's delivery, one subscriber per producer: each
  // precise prefix-cache producer indexes the engine's message under the endpoint's pod identifier (its
  // metadata Name, as endpointPodIdentifier reads an endpoint without an address).
  // The topic's model name keys the indexed blocks (pkg/kvevents/pool.go@71f4f099 processBlockStored) and must be
  // the model the requests ask for; the simulated requests name none (TargetModel is empty, see pick), so a
  // topic naming a model would index blocks no request can find: refused rather than scored 0 silently.
  void kv_events(const std::string& endpoint, const engine::KvEventMessage& message) override {
    if (kvSubscribers_.empty()) return;
    const std::string model = engineadapter::parseTopic(message.topic).second;
    if (!model.empty()) {
      throw std::invalid_argument("router: endpoint " + endpoint + " publishes KV events on topic '" + message.topic +
                                  "', which names the model '" + model +
                                  "'; the simulated requests name no model, so llm-d would index these blocks under a "
                                  "model no request asks for: leave the engine's KV-event topic without a model name");
    }
    for (const auto& p : kvSubscribers_) p->AddTypedTask(message, endpoint);
  }

  std::size_t pick(const RouteRequest& request, const std::vector<EndpointState>& endpoints) override {
    auto held = std::make_shared<fwksched::InferenceRequest>();
    fwksched::InferenceRequest& req = *held;
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

    std::vector<fwksched::EndpointPtr> candidates;
    candidates.reserve(endpoints.size());
    for (const auto& e : endpoints) {
      fwkdl::EndpointMetadata meta;
      meta.ID.Namespace = kNamespace;
      meta.ID.Name = e.name;
      meta.Name = e.name;
      meta.Labels = e.labels;
      const fwkdl::Metrics m = metricsOf(e, meta);
      // The endpoint object that lives across requests (llm-d's datastore endpoint): the notification
      // extractors (the in-flight load producer) put their live attributes on it when it first appears, and
      // each request's candidate carries a copy of its attributes (pkg/epp/requestcontrol/director.go@71f4f099
      // toSchedulerEndpoints).
      auto live = persistent_.find(e.name);
      if (live == persistent_.end()) {
        live = persistent_.emplace(e.name, fwksched::NewEndpoint(meta, m)).first;
        for (const auto& x : endpointExtractors_) x->Extract({inflightload::EventType::EventAddOrUpdate, live->second});
      }
      candidates.push_back(fwksched::NewEndpoint(meta, m, live->second->Clone()));
    }
    // The producers in dependency order: token producers before the prefix producers that consume their key.
    for (const auto& produce : produce_) produce(&req, candidates);
    auto out = scheduler_->Schedule(&req, candidates);
    if (!out.Value) {
      for (const auto& a : prefixProducers_) a->PluginState().Delete(req.RequestID);
      throw std::runtime_error("router: " + (out.Err ? out.Err->Text : std::string("no scheduling result")));
    }
    for (const auto& a : prefixProducers_) a->PreRequest(&req, *out.Value);
    for (const auto& pr : preRequest_) {
      if (auto err = pr->PreRequest(&req, &*out.Value)) {
        throw std::runtime_error("router: " + pr->TypedName().String() + ": " + err->Text);
      }
    }
    req.SchedulingResult = out.Value;
    if (!responseBody_.empty()) inFlight_[request.id] = held;
    const auto& result = *out.Value;
    const auto& chosen = result.ProfileResults.at(result.PrimaryProfileName)->TargetEndpoints.at(0);
    const std::string& name = chosen->GetMetadata()->ID.Name;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      if (endpoints[i].name == name) return i;
    }
    throw std::logic_error("router: llm-d chose endpoint " + name + ", which is not a candidate");
  }

 private:
  fwkplugin::Registry registry_;
  fwkplugin::Handle handle_;
  std::shared_ptr<scheduling::Scheduler> scheduler_;
  std::vector<std::function<void(fwksched::InferenceRequest*, const std::vector<fwksched::EndpointPtr>&)>> produce_;
  std::vector<std::shared_ptr<approximateprefix::dataProducer>> prefixProducers_;
  std::vector<std::shared_ptr<requestcontrol::PreRequestPlugin>> preRequest_;
  std::vector<std::shared_ptr<preciseprefixcache::Producer>> kvSubscribers_;  // in plugin-name order, distinct
  std::vector<std::shared_ptr<requestcontrol::ResponseBodyProcessor>> responseBody_;
  std::vector<std::shared_ptr<inflightload::InFlightLoadProducer>> endpointExtractors_;
  std::map<std::string, fwksched::EndpointPtr> persistent_;                          // by endpoint name
  // The metrics extractor's per-endpoint state and the publication it last read.
  struct Extracted {
    std::unique_ptr<metrics::Endpoint> endpoint;
    bool valid = false;
    std::int64_t published_us = 0;
    std::uint64_t sequence = 0;
  };
  Runtime* runtime_;
  std::shared_ptr<metrics::Extractor> metricsExtractor_;
  std::map<std::string, Extracted> extracted_;  // by endpoint name
  std::map<std::string, std::shared_ptr<fwksched::InferenceRequest>> inFlight_;  // routed, response not ended
  std::vector<std::string> types_;
  Settings settings_;
  std::set<std::string> extractorErrors_;  // distinct extractor errors, each warned once
};

}  // namespace

// Original to BLIS: the entry point. Flags first (as the runner parses them before the configuration), then
// the configuration; errors carry "router.flags.<name>: " or "router.config: " before llm-d's text.
std::unique_ptr<Router> New(const std::optional<std::string>& config, const std::map<std::string, std::string>& flags,
                            Runtime& runtime) {
  runner::Flags parsed = runner::ParseFlags(flags);
  try {
    return std::make_unique<ConfiguredRouter>(config, parsed, runtime);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("router.config: ") + e.what());
  } catch (const fwkplugin::PluginError& e) {
    throw std::invalid_argument(std::string("router.config: ") + e.what());
  }
}

// Original to BLIS: see embed.h.
const Settings& SettingsOf(const Router& router) {
  auto* r = dynamic_cast<const ConfiguredRouter*>(&router);
  if (r == nullptr) throw std::invalid_argument("router: SettingsOf: the router was not made by embed::New");
  return r->settings();
}

}  // namespace blis::router::embed
