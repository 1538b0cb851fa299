// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of more of cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins: the
// filters, scorers, profile handlers, deciders and producers ported after the first registration (register.cpp),
// and the config parsers' dependency lists as pkg/epp/config/loader/configloader.go@71f4f099
// findPluginDependencies reads them from the parsed parameters' pluginRef fields.
#include "router/cmd/epp/runner/register.h"

#include <stdexcept>

#include "router/cmd/epp/runner/metrics_extractor.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"

#include <any>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/session/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.h"
#include "router/epp/framework/plugins/scheduling/filter/bylabel/filter.h"
#include "router/epp/framework/plugins/scheduling/filter/bylabel/selector.h"
#include "router/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.h"
#include "router/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.h"
#include "router/epp/framework/plugins/scheduling/filter/utilization/filter.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.h"
#include "router/epp/framework/plugins/scheduling/scorer/activerequest/active_request.h"
#include "router/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.h"
#include "router/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.h"
#include "router/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "router/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.h"
#include "router/epp/framework/plugins/scheduling/scorer/tokenload/token_load.h"

namespace blis::router::runner {
namespace {

using fwkplugin::StabilityLevel;

// pkg/epp/config/loader/configloader.go@71f4f099 findPluginDependencies over
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099
// DisaggProfileHandlerParameters: the deciders' names (pluginRef fields), in field order, when set.
std::any DisaggProfileHandlerDependencies(fwkplugin::Parameters parameters, fwkplugin::Handle& handle) {
  auto p = std::any_cast<disagg::DisaggProfileHandlerParameters>(disagg::DisaggProfileHandlerConfigParser(parameters, handle));
  std::vector<std::string> deps;
  for (const std::string& d : {p.Deciders.Prefill, p.Deciders.Encode}) {
    if (!d.empty()) deps.push_back(d);
  }
  return deps;
}

// pkg/epp/config/loader/configloader.go@71f4f099 findPluginDependencies over
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099
// PdProfileHandlerParameters: prefixPluginName and deciderPluginName (pluginRef fields), when set.
std::any PdProfileHandlerDependencies(fwkplugin::Parameters parameters, fwkplugin::Handle& handle) {
  auto p = std::any_cast<disagg::PdProfileHandlerParameters>(disagg::PdProfileHandlerConfigParser(parameters, handle));
  std::vector<std::string> deps;
  for (const std::string& d : {p.PrefixPluginName, p.DeciderPluginName}) {
    if (!d.empty()) deps.push_back(d);
  }
  return deps;
}

}  // namespace

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 CoreMetricsExtractorFactory (held
// under the loader's Extractor role; see metrics_extractor.h)
std::shared_ptr<fwkplugin::Plugin> HeldMetricsExtractorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& handle) {
  auto made = std::dynamic_pointer_cast<metrics::Extractor>(metrics::CoreMetricsExtractorFactory(name, parameters, handle));
  if (!made) throw std::logic_error("core-metrics-extractor: the factory made no metrics::Extractor");
  return std::make_shared<HeldMetricsExtractor>(made);
}

// cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins (the types ported after register.cpp's; runner.go's
// stability levels and deprecations)
void RegisterMorePlugins(fwkplugin::Registry& r) {
  // Filters.
  r.Register("label-selector-filter", StabilityLevel::Beta, bylabel::SelectorFactory);
  r.RegisterDeprecated("by-label-selector", StabilityLevel::Beta, bylabel::DeprecatedSelectorFactory, "v0.9.0",
                       "v0.11.0", "label-selector-filter");
  r.RegisterDeprecated("by-label", StabilityLevel::Beta, bylabel::Factory, "v0.9.0", "v0.11.0",
                       "label-selector-filter");
  r.Register("encode-filter", StabilityLevel::Beta, bylabel::EncodeRoleFactory);
  r.Register("decode-filter", StabilityLevel::Beta, bylabel::DecodeRoleFactory);
  r.Register("prefill-filter", StabilityLevel::Beta, bylabel::PrefillRoleFactory);
  r.Register("session-affinity-filter", StabilityLevel::Alpha, sessionaffinityfilter::Factory);
  r.Register("multicluster-session-affinity-filter", StabilityLevel::Alpha, sessionaffinityfilter::MultiClusterFactory);
  // Profile handlers and deciders.
  r.Register("data-parallel-profile-handler", StabilityLevel::Beta, dataparallel::ProfileHandlerFactory);
  r.RegisterDeprecated("disagg-headers-handler", StabilityLevel::Beta, disagg::HeadersHandlerFactory, "v0.9.0",
                       "v0.11.0", "disagg-profile-handler");
  r.RegisterDeprecated("prefill-header-handler", StabilityLevel::Beta, disagg::HeadersHandlerFactory, "v0.9.0",
                       "v0.11.0", "disagg-profile-handler");
  r.RegisterDeprecatedWithPluginDependencies("pd-profile-handler", StabilityLevel::Beta, disagg::PdProfileHandlerFactory,
                                             PdProfileHandlerDependencies, "v0.7.0", "v0.9.0",
                                             "disagg-profile-handler");
  r.RegisterWithPluginDependencies("disagg-profile-handler", StabilityLevel::Beta, disagg::HandlerFactory,
                                   DisaggProfileHandlerDependencies);
  r.Register("always-disagg-pd-decider", StabilityLevel::Beta, disagg::AlwaysDisaggPDDeciderPluginFactory);
  r.Register("prefix-based-pd-decider", StabilityLevel::Beta, disagg::PrefixBasedPDDeciderPluginFactory);
  r.Register("always-disagg-multimodal-decider", StabilityLevel::Beta, disagg::AlwaysDisaggMulimodalDeciderPluginFactory);
  // Scorers.
  r.Register("context-length-aware", StabilityLevel::Beta, contextlengthaware::Factory);
  r.Register("no-hit-lru-scorer", StabilityLevel::Beta, nohitlru::Factory);
  r.Register("session-affinity-scorer", StabilityLevel::Alpha, sessionaffinity::Factory);
  r.Register("precise-prefix-cache-scorer", StabilityLevel::Beta, preciseprefixcachescorer::PluginFactory);
  r.Register("precise-prefix-cache-producer", StabilityLevel::Beta, preciseprefixcache::PluginFactory);
  r.Register("load-aware-scorer", StabilityLevel::Beta, loadaware::Factory);
  r.Register("token-load-scorer", StabilityLevel::Beta, tokenload::TokenLoadScorerFactory);
  r.Register("active-request-scorer", StabilityLevel::Beta, activerequest::Factory);
  r.Register("utilization-filter", StabilityLevel::Alpha, utilization::Factory);
  r.Register("prefix-cache-affinity-filter", StabilityLevel::Beta, prefixcacheaffinity::Factory);
  // Request data producers, as the defaults for their data keys.
  r.RegisterAsDefaultProducer("inflight-load-producer", StabilityLevel::Beta, inflightload::InFlightLoadProducerFactory,
                              concurrency::InFlightLoadDataKey.String());
  r.RegisterAsDefaultProducer("session-id-producer", StabilityLevel::Beta, sessionid::Factory,
                              attrsession::SessionIDDataKey.String());
}

}  // namespace blis::router::runner
