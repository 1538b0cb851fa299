// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: Go's strings.TrimSpace and strings.ToLower as the session-affinity helpers of
// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 and the session-id producer
// (pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099) use them; ToLower of a
// non-ASCII string is refused (Unicode case mapping is not ported); strconv.Quote for error texts.
#pragma once

#include <string>

namespace blis::router::sessionutil {

// Original to BLIS: Go's strings.TrimSpace: leading and trailing Unicode white space (unicode.IsSpace: ASCII
// \t \n \v \f \r and space, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000,
// in UTF-8) removed; bytes that are not valid UTF-8 are not space.
std::string TrimSpace(const std::string& s);

// Original to BLIS: Go's strings.ToLower for ASCII strings (A-Z mapped to a-z). A string with a byte >= 0x80
// is refused with std::invalid_argument (Go maps each Unicode letter; that mapping is not modelled by this
// port).
std::string ToLower(const std::string& s);

// Original to BLIS: Go's strconv.Quote (fmt's %q of a string): '"' and '\\' escaped, \a \b \f \n \r \t \v as
// such, other ASCII control bytes and bytes that are not valid UTF-8 as \xNN; valid multi-byte UTF-8 is kept
// as is (Go escapes the non-printable non-ASCII runes as \uNNNN; that table is not ported).
std::string QuoteGo(const std::string& s);

}  // namespace blis::router::sessionutil
