// Original to BLIS: decoding the core metrics extractor's parameters
// (pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 modelServerExtractorParams) as
// encoding/json decodes them through fwkplugin.StrictDecoder, including the nested engineConfigs and
// customMetrics lists fwkplugin::StrictObject cannot hold. Reproduced: unknown fields refused
// (`json: unknown field "<key>"`), keys matched exactly then case-insensitively, null leaving a field
// unchanged, and type mismatches named with the innermost struct and the field path
// (`json: cannot unmarshal number into Go struct field engineConfigParams.engineConfigs.name of type string`).
// Like encoding/json the decoding goes on after an error and the first error is returned; "first" is in
// the JSON object's key order (nlohmann::json sorts keys), where Go takes document order.
#pragma once

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"

namespace blis::router::metrics {

// Decodes v into out (which keeps the fields v does not set); throws fwkplugin::PluginError.
void decodeExtractorParams(const nlohmann::json& v, modelServerExtractorParams& out);

}  // namespace blis::router::metrics
