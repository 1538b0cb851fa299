// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a GoogleTest transcription of TestPrompt_PlainText of
// pkg/epp/framework/interface/requesthandling/types_test.go@71f4f099 (JSON (un)marshalling, IsEmpty and the
// payload helpers are not ported).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "router/epp/framework/interface/requesthandling/types.h"

namespace blis::router::fwkrh {
namespace {

// pkg/epp/framework/interface/requesthandling/types_test.go@71f4f099 TestPrompt_PlainText
TEST(PromptTest, PlainText) {
  struct Case {
    std::string name;
    Prompt p;
    std::string want;
  };
  const std::vector<Case> tests = {
      {"raw string", Prompt{"hello", {}, {}}, "hello"},
      {"strings joined", Prompt{"", {"a", "b", "c"}, {}}, "a b c"},
      {"single string in array", Prompt{"", {"hello"}, {}}, "hello"},
      {"zero value", Prompt{}, ""},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(tt.want, tt.p.PlainText());
  }
}

}  // namespace
}  // namespace blis::router::fwkrh
