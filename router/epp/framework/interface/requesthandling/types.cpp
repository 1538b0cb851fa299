// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of Prompt.PlainText and TokenizedPrompt.TokenCount of
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099; the structs are in types.h.
#include "router/epp/framework/interface/requesthandling/types.h"

namespace blis::router::fwkrh {

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 Prompt.PlainText: Raw if non-empty, else
// the strings joined by one space (strings.Join).
std::string Prompt::PlainText() const {
  if (!Raw.empty()) {
    return Raw;
  }
  std::string out;
  for (std::size_t i = 0; i < Strings.size(); ++i) {
    if (i > 0) {
      out += ' ';
    }
    out += Strings[i];
  }
  return out;
}

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 TokenizedPrompt.TokenCount
int TokenizedPrompt::TokenCount() const {
  int n = 0;
  for (const auto& pp : PerPromptTokens) {
    n += static_cast<int>(pp.size());
  }
  return n;
}

}  // namespace blis::router::fwkrh
