// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: Go's (value, error) returns of pkg/epp/framework/interface/scheduling/types.go@71f4f099
// (SchedulerProfile.Run) and plugins.go@71f4f099 (ProfileHandler.ProcessResults) as a C++ value; the
// pkg/common/error Error type's Code and Error() text are kept, its Headers and Envoy responses are not.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace blis::router::fwksched {

// A Go `error` value. Text is exactly what upstream's err.Error() returns. Code is the
// pkg/common/error@71f4f099 Error.Code when the upstream error is one ("Internal", ...), and empty for a
// plain fmt.Errorf / errors.New error (errcommon.CanonicalCode gives "Unknown" for those).
struct GoError {
  std::string Code;
  std::string Text;
};

// pkg/common/error/error.go@71f4f099 Error.Error: "inference error: <code> - <msg>".
inline GoError InferenceError(const std::string& code, const std::string& msg) {
  return GoError{code, "inference error: " + code + " - " + msg};
}

// A plain Go error (fmt.Errorf / errors.New) with the given text.
inline GoError PlainError(const std::string& text) { return GoError{"", text}; }

// Go's (*T, error) pair: Value is nullptr where Go returns nil; Err is empty where Go's error is nil.
template <class T>
struct Outcome {
  std::shared_ptr<T> Value;
  std::optional<GoError> Err;
};

}  // namespace blis::router::fwksched
