// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099;
// see header.h.
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/header.h"

#include <cstdint>

#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/strings.h"

namespace blis::router::sessionutil {
namespace {

constexpr const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Original to BLIS: the index of c in base64's standard alphabet, -1 outside it.
int alphabetIndex(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 NormalizeHeader
std::string NormalizeHeader(const std::string& name) {
  std::string header = ToLower(TrimSpace(name));
  if (header.empty()) return DefaultHeader;
  return header;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 DecodePodName
std::string DecodePodName(const std::string& token) {
  if (token.empty()) return "";
  auto decoded = DecodeStdBase64(token);
  if (!decoded.has_value()) return "";  // upstream logs "Error decoding session header"
  return *decoded;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 WriteResponseHeader
// (Go's nil Headers map, which it allocates first, is the empty map here.)
void WriteResponseHeader(const std::string& /*pluginType*/, const std::string& sessionHeader,
                         requestcontrol::Response* response, const fwkdl::EndpointMetadata* targetPod) {
  if (response == nullptr || targetPod == nullptr) return;  // upstream logs the skip at DEBUG
  response->Headers[sessionHeader] = EncodeStdBase64(targetPod->ID.String());
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 ResolvePodToWrite
const fwkdl::EndpointMetadata* ResolvePodToWrite(const fwksched::InferenceRequest* request,
                                                 const std::string& profileName,
                                                 const fwkdl::EndpointMetadata* targetPod) {
  if (profileName.empty()) return targetPod;
  if (request != nullptr && request->SchedulingResult != nullptr) {
    const auto& results = request->SchedulingResult->ProfileResults;
    auto it = results.find(profileName);
    if (it != results.end() && it->second != nullptr && !it->second->TargetEndpoints.empty() &&
        it->second->TargetEndpoints[0] != nullptr) {
      if (const fwkdl::EndpointMetadata* md = it->second->TargetEndpoints[0]->GetMetadata()) return md;
    }
  }
  return nullptr;
}

// Original to BLIS: Go's base64.StdEncoding.EncodeToString.
std::string EncodeStdBase64(const std::string& data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const std::uint32_t v = (static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])) << 16) |
                            (static_cast<std::uint32_t>(static_cast<unsigned char>(data[i + 1])) << 8) |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(data[i + 2]));
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const std::size_t rest = data.size() - i;
  if (rest > 0) {
    std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])) << 16;
    if (rest == 2) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[i + 1])) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Original to BLIS: Go's base64.StdEncoding.DecodeString (see header.h).
std::optional<std::string> DecodeStdBase64(const std::string& text) {
  std::string src;
  src.reserve(text.size());
  for (char c : text) {
    if (c != '\r' && c != '\n') src += c;
  }
  if (src.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(src.size() / 4 * 3);
  for (std::size_t q = 0; q < src.size(); q += 4) {
    const bool last = q + 4 == src.size();
    int pad = 0;
    if (last && src[q + 3] == '=') pad = src[q + 2] == '=' ? 2 : 1;
    std::uint32_t v = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = src[q + static_cast<std::size_t>(j)];
      int d = 0;
      if (j >= 4 - pad) {
        d = 0;  // the padding checked above
      } else {
        d = alphabetIndex(c);
        if (d < 0) return std::nullopt;  // a foreign byte, or '=' where no padding may stand
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 0xFF);
    if (pad < 2) out += static_cast<char>((v >> 8) & 0xFF);
    if (pad < 1) out += static_cast<char>(v & 0xFF);
  }
  return out;
}

}  // namespace blis::router::sessionutil
