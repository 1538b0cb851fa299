// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/session/data_types.go@71f4f099;
// all of it. Go's named string type SessionID becomes a struct holding the string, so that a request attribute
// holding one is told apart from a plain std::string (as Go's type assertion tells them apart).
#pragma once

#include <optional>
#include <string>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/constants/constants.h"

// Namespace attrsession: upstream's import name for this package (package session), as attrprefix.
namespace blis::router::attrsession {

// pkg/epp/framework/plugins/datalayer/attribute/session/data_types.go@71f4f099 SessionIDDataKey
// The session identifier published on the request attribute store ("SessionIDDataKey" produced by
// sessionidconstants.SessionIDProducerType).
inline const fwkplugin::DataKey SessionIDDataKey =
    fwkplugin::NewDataKey("SessionIDDataKey", sessionidconstants::SessionIDProducerType);

// pkg/epp/framework/plugins/datalayer/attribute/session/data_types.go@71f4f099 SessionID
// The session identifier extracted from a request (Go: type SessionID string; Value is the string).
struct SessionID {
  std::string Value;
  bool operator==(const SessionID&) const = default;
};

// pkg/epp/framework/plugins/datalayer/attribute/session/data_types.go@71f4f099 ReadSessionID
// The SessionID published by the default producer on the request attribute store; std::nullopt where Go
// returns ("", false).
inline std::optional<SessionID> ReadSessionID(const fwksched::InferenceRequest& r) {
  const std::string key =
      SessionIDDataKey.WithNonEmptyProducerName(sessionidconstants::SessionIDProducerType).String();
  return fwksched::ReadRequestAttribute<SessionID>(r, key);
}

}  // namespace blis::router::attrsession
