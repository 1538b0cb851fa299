// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099;
// the data keys (the types are in data_types.h).
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"

#include <string>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.h"

namespace blis::router::concurrency {

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 InFlightLoadDataKey
const fwkplugin::DataKey InFlightLoadDataKey =
    fwkplugin::NewDataKey("InFlightLoadDataKey", std::string(inflightloadconstants::InFlightLoadProducerType));

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 UncachedRequestTokensDataKey
const fwkplugin::DataKey UncachedRequestTokensDataKey = fwkplugin::NewDataKey(
    "UncachedRequestTokensDataKey", std::string(inflightloadconstants::InFlightLoadProducerType));

}  // namespace blis::router::concurrency
