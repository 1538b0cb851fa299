// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: stand-ins for the Go interfaces the configuration loader type-asserts on and the port does
// not otherwise model: pkg/epp/framework/interface/requesthandling/plugins.go@71f4f099 Parser,
// pkg/epp/framework/interface/datalayer/plugin.go@71f4f099 DataSource and Extractor,
// pkg/epp/framework/interface/flowcontrol/plugins.go@71f4f099 SaturationDetector (markers only). Plugins of these roles make no routing decision in the simulator (the request arrives parsed,
// the metrics are delivered, no request is sheddable); the loader only checks that a reference names one.
#pragma once

#include "router/epp/framework/interface/plugin/plugins.h"

namespace blis::router::loader {

// pkg/epp/framework/interface/requesthandling/plugins.go@71f4f099 Parser (marker only)
class ParserRole : public virtual fwkplugin::Plugin {};
// pkg/epp/framework/interface/datalayer/plugin.go@71f4f099 DataSource (marker only)
class DataSourceRole : public virtual fwkplugin::Plugin {};
// pkg/epp/framework/interface/datalayer/plugin.go@71f4f099 Extractor (marker only)
class ExtractorRole : public virtual fwkplugin::Plugin {};
// pkg/epp/framework/interface/flowcontrol/plugins.go@71f4f099 SaturationDetector (marker only)
class SaturationDetectorRole : public virtual fwkplugin::Plugin {};

}  // namespace blis::router::loader
