// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: NOT UPSTREAM. The inverse of packBytes of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099, a BLIS addition
// (INTERFACES.md "What a request carries"); upstream has no such function.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace blis::router::tokenizer {

// BLIS addition, NOT UPSTREAM (design: INTERFACES.md "What a request carries"). A BLIS request carries its
// prompt as token IDs; where the router reads prompt text, the request's text is the byte image that
// upstream's estimate backend maps back to exactly those IDs. This returns that image: the completions
// prompt string s with packBytes(s) == tokenIDs, i.e. each ID's 4 bytes in little-endian order,
// 4 * tokenIDs.size() bytes in all (empty IDs: the empty string, which packBytes maps to no tokens).
//
// Every uint32 has exactly one byte image under upstream's packing (a full 4-byte group; the zero padding
// of a trailing partial group only ever adds zero bytes that this image spells out), so no ID is refused.
// The image may contain NUL bytes and invalid UTF-8: it is a byte string handed to the estimator in
// process, never a JSON document (upstream's JSON decoding would replace invalid UTF-8 with U+FFFD).
// Conversely, packBytes then this function returns the input zero-padded to a multiple of 4 bytes.
std::string PromptTextForTokenIDs(std::span<const std::uint32_t> tokenIDs);

}  // namespace blis::router::tokenizer
