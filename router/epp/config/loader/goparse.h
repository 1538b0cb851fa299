// Original to BLIS: the Go standard-library and apimachinery parsers the configuration loader and the runner's
// flags rely on (strconv.ParseBool, time.ParseDuration, resource.ParseQuantity's syntax check), with their
// error texts. Ported from Go's strconv/atob.go, time/format.go ParseDuration and
// k8s.io/apimachinery/pkg/api/resource/quantity.go ParseQuantity (syntax only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace blis::router::loader {

// strconv.ParseBool: "1 t T TRUE true True" / "0 f F FALSE false False"; otherwise the error
// `strconv.ParseBool: parsing "<s>": invalid syntax`.
struct BoolResult {
  std::optional<bool> Value;
  std::optional<std::string> Err;
};
BoolResult ParseBool(const std::string& s);

// time.ParseDuration: a possibly signed sequence of decimal numbers with units ns, us (µs, μs), ms, s, m, h;
// the value in nanoseconds, or Go's error text (`time: invalid duration "<s>"`, `time: missing unit in
// duration "<s>"`, `time: unknown unit "<u>" in duration "<s>"`).
struct DurationResult {
  std::optional<std::int64_t> Value;
  std::optional<std::string> Err;
};
DurationResult ParseDuration(const std::string& s);

// resource.ParseQuantity's syntax: nullopt when s parses, else the error text apimachinery returns.
std::optional<std::string> ValidateQuantity(const std::string& s);

}  // namespace blis::router::loader
