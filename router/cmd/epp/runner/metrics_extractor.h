// Original to BLIS: the core metrics extractor (router/epp/framework/plugins/datalayer/extractor/metrics) as
// the configuration loader holds it: a data-layer Extractor the start-up builds from the configuration's
// core-metrics-extractor plugin (or llm-d's default one), which the entry point runs on each endpoint's
// delivered publication (cmd/epp/runner/runner.go@71f4f099 registers the type; pkg/epp/datalayer runs it on
// each scrape, which the simulator delivers).
#pragma once

#include <memory>
#include <string>

#include "router/epp/config/loader/roles.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/extractor.h"

namespace blis::router::runner {

// Original to BLIS: holds the extractor under the loader's Extractor role.
class HeldMetricsExtractor final : public loader::ExtractorRole {
 public:
  explicit HeldMetricsExtractor(std::shared_ptr<metrics::Extractor> extractor) : extractor_(std::move(extractor)) {}
  fwkplugin::TypedName TypedName() const override { return extractor_->TypedName(); }
  const std::shared_ptr<metrics::Extractor>& extractor() const { return extractor_; }

 private:
  std::shared_ptr<metrics::Extractor> extractor_;
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 CoreMetricsExtractorFactory, held
// as above.
std::shared_ptr<fwkplugin::Plugin> HeldMetricsExtractorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& handle);

}  // namespace blis::router::runner
