// Original to BLIS: the Go standard-library texts the core metrics extractor
// (pkg/epp/framework/plugins/datalayer/extractor/metrics/*.go@71f4f099) puts in its errors, and the Go numeric
// conversions it relies on (strconv.Quote for %q, %v of a map[string]string, errors.Join, strconv.Atoi,
// int(float64)).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blis::router::metrics {

// A Go error value: std::nullopt is nil, otherwise the error's Error() text.
using Error = std::optional<std::string>;

// Go's strconv.Quote (what fmt's %q prints for a string): "..." with \" \\ and the C escapes; other control
// bytes as \xNN. Bytes >= 0x80 are copied unchanged (Go copies valid printable UTF-8 unchanged; invalid UTF-8,
// which Go escapes, is not expected here).
std::string goQuote(const std::string& s);

// fmt's %v of a map[string]string: "map[k1:v1 k2:v2]" with the keys sorted (as fmt sorts them).
std::string goMapString(const std::map<std::string, std::string>& m);

// errors.Join: nil when errs holds no error, otherwise the texts joined by "\n".
Error joinErrors(const std::vector<std::string>& errs);

// strconv.Atoi on a 64-bit platform: the value, or the *NumError text
// (`strconv.Atoi: parsing "<s>": invalid syntax` / `...: value out of range`).
struct AtoiResult {
  std::int64_t Value = 0;
  Error Err;
};
AtoiResult goAtoi(const std::string& s);

// Go's int(x) for a float64 x, stored in a C++ int (the port's fwkdl::Metrics fields are int): truncation
// toward zero. Go leaves NaN and out-of-range conversions implementation-specific; here they give the
// smallest int (what amd64 gives for an int64), and values beyond C++ int's range are clamped to it.
int goIntFromFloat(double x);

// A Go int (64-bit) stored in a C++ int: clamped to int's range (Go would hold it unchanged).
int goIntFromInt64(std::int64_t v);

}  // namespace blis::router::metrics
