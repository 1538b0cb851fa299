// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/common/routing/common_test.go@71f4f099: TestIsConditionalDecode.
// TestStripScheme is not applicable (StripScheme, Go's net/url parsing of an OpenTelemetry/gRPC endpoint, is not
// ported: no routing decision reads it).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/common/routing/common.h"

namespace blis::router::routing {
namespace {

// pkg/common/routing/common_test.go@71f4f099 TestIsConditionalDecode
TEST(RoutingCommon, TestIsConditionalDecode) {
  struct Case {
    std::string name;
    std::map<std::string, std::string> headers;
    bool want;
  };
  const std::vector<Case> tests = {
      {"nil headers", {}, false},
      {"empty headers", {}, false},
      {"unrelated header", {{"x-other", "v"}}, false},
      {"prefer return=minimal (not if-available)", {{PreferHeader, "return=minimal"}}, false},
      {"prefer if-available", {{PreferHeader, PreferIfAvailable}}, true},
      {"prefer If-Available case insensitive", {{PreferHeader, "If-Available"}}, true},
      {"prefer with multiple tokens including if-available", {{PreferHeader, "return=minimal, if-available"}}, true},
      {"prefer if-available with parameter", {{PreferHeader, "if-available;param=v"}}, true},
      {"prefer if-available with leading whitespace", {{PreferHeader, "  if-available  "}}, true},
      {"prefer with similar but distinct token", {{PreferHeader, "if-available-but-different"}}, false},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(IsConditionalDecode(tt.headers), tt.want);
  }
}

// The header names and net.JoinHostPort as the handlers use them (no upstream test of their own).
TEST(RoutingCommon, HeaderNamesAndJoinHostPort) {
  EXPECT_STREQ(PrefillEndpointHeader, "x-prefiller-host-port");
  EXPECT_STREQ(EncoderEndpointsHeader, "x-encoder-hosts-ports");
  EXPECT_STREQ(DataParallelEndpointHeader, "x-data-parallel-host-port");
  EXPECT_STREQ(KVCacheSourceHeader, "x-kv-cache-source-host-port");
  EXPECT_EQ(JoinHostPort("10.0.0.1", "8000"), "10.0.0.1:8000");
  EXPECT_EQ(JoinHostPort("fd00::1", "8000"), "[fd00::1]:8000");
  EXPECT_EQ(JoinHostPort("", "80"), ":80");
}

}  // namespace
}  // namespace blis::router::routing
