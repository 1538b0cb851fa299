// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/utils.py@71de97b2; only the eviction-strategy factory and the page hashing (get_hash_str with cpp_utils/native_hash.py and cpp_utils/hash_binding.cpp@71de97b2 folded in, hash_str_to_int64, compute_node_hash_values, compute_node_event_hash_values, split_node_hash_value). Not ported: the MLA buffer kernels and maybe_init_custom_mem_pool.
#include "srt/mem_cache/utils.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "contracts/sha256.h"

namespace blis::sglang {

namespace {

using Digest = contracts::Sha256::Digest;

// hash_binding.cpp@71de97b2 checked_u32.
std::uint32_t checked_u32(std::int64_t value) {
  const auto u = static_cast<std::uint64_t>(value);
  if (u > std::numeric_limits<std::uint32_t>::max()) throw std::out_of_range("token id does not fit in uint32");
  return static_cast<std::uint32_t>(u);
}

// utils.py@71de97b2 get_hash_str: bytes.fromhex(prior_hash) if prior_hash else None.
std::optional<Digest> prior_digest_of(const std::optional<std::string>& prior_hash) {
  if (!prior_hash || prior_hash->empty()) return std::nullopt;
  const std::string& h = *prior_hash;
  if (h.size() != 64) throw std::invalid_argument("prior_digest must be exactly 32 bytes");
  auto nib = [](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l >= 'a' && l <= 'f') return static_cast<std::uint8_t>(l - 'a' + 10);
    throw std::invalid_argument("non-hexadecimal number found in fromhex() arg");
  };
  Digest d{};
  for (std::size_t i = 0; i < 32; ++i) d[i] = static_cast<std::uint8_t>((nib(h[2 * i]) << 4) | nib(h[2 * i + 1]));
  return d;
}

// hash_binding.cpp@71de97b2 fill_regular_page / fill_bigram_page: the little-endian uint32 words of units
// [start, start + count).
void append_words(const std::vector<std::int64_t>& raw, bool is_bigram, std::size_t start, std::size_t count,
                  std::vector<std::uint8_t>& out) {
  auto put = [&out](std::uint32_t w) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>((w >> (8 * b)) & 0xffu));
  };
  if (is_bigram) {
    if (count == 0) return;
    std::uint32_t prev = checked_u32(raw[start]);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t next = checked_u32(raw[start + i + 1]);
      put(prev);
      put(next);
      prev = next;
    }
    return;
  }
  for (std::size_t i = 0; i < count; ++i) put(checked_u32(raw[start + i]));
}

// hash_binding.cpp@71de97b2 hash_page: SHA-256(prior digest || bytes).
Digest hash_page(const std::vector<std::uint8_t>& bytes, const std::optional<Digest>& prior) {
  contracts::Sha256 sha;
  if (prior) sha.update(std::span<const std::uint8_t>(prior->data(), prior->size()));
  if (!bytes.empty()) sha.update(std::span<const std::uint8_t>(bytes.data(), bytes.size()));
  return sha.digest();
}

// native_hash.py@71de97b2 _native_hash_input: the raw tokens honoring `limit`, and the logical length.
std::pair<std::vector<std::int64_t>, std::size_t> native_hash_input(const RadixKey& key) {
  std::vector<std::int64_t> raw = key.raw_token_ids();
  const auto logical_len = static_cast<std::size_t>(key.size());
  if (key.is_bigram && logical_len > 0 && raw.size() < logical_len + 1) {
    throw std::invalid_argument("bigram token buffer is shorter than logical length");
  }
  return {std::move(raw), logical_len};
}

}  // namespace

// utils.py@71de97b2 get_eviction_strategy (with _EVICTION_POLICY_FACTORIES).
std::unique_ptr<EvictionStrategy> get_eviction_strategy(const std::string& eviction_policy) {
  std::string policy = eviction_policy;
  std::transform(policy.begin(), policy.end(), policy.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (policy == "lru") return std::make_unique<LRUStrategy>();
  if (policy == "lfu") return std::make_unique<LFUStrategy>();
  if (policy == "fifo") return std::make_unique<FIFOStrategy>();
  if (policy == "mru") return std::make_unique<MRUStrategy>();
  if (policy == "filo") return std::make_unique<FILOStrategy>();
  if (policy == "priority") return std::make_unique<PriorityStrategy>();
  if (policy == "slru") return std::make_unique<SLRUStrategy>();
  throw std::invalid_argument("Unknown eviction policy: " + policy +
                              ". Supported policies: 'lru', 'lfu', 'fifo', 'mru', 'filo', 'priority', 'slru'.");
}

// utils.py@71de97b2 get_hash_str (page_size None): hash_binding.cpp@71de97b2 hash_all.
std::string get_hash_str(const RadixKey& key, const std::optional<std::string>& prior_hash) {
  const auto prior = prior_digest_of(prior_hash);
  const auto [raw, logical_len] = native_hash_input(key);
  std::vector<std::uint8_t> bytes;
  append_words(raw, key.is_bigram, 0, logical_len, bytes);
  return contracts::to_hex(hash_page(bytes, prior));
}

// utils.py@71de97b2 get_hash_str (with page_size): hash_binding.cpp@71de97b2 pages_hashes.
std::vector<std::string> get_hash_str_pages(const RadixKey& key, const std::optional<std::string>& prior_hash,
                                            std::int64_t page_size) {
  if (page_size <= 0) throw std::invalid_argument("page_size must be positive");
  auto prior = prior_digest_of(prior_hash);
  const auto [raw, logical_len] = native_hash_input(key);
  const auto ps = static_cast<std::size_t>(page_size);
  std::vector<std::string> out;
  for (std::size_t start = 0; start < logical_len; start += ps) {
    const std::size_t units = std::min(ps, logical_len - start);
    std::vector<std::uint8_t> bytes;
    append_words(raw, key.is_bigram, start, units, bytes);
    prior = hash_page(bytes, prior);
    out.push_back(contracts::to_hex(*prior));
  }
  return out;
}

// utils.py@71de97b2 hash_str_to_int64.
std::int64_t hash_str_to_int64(const std::string& hash_str) {
  const std::uint64_t u = std::stoull(hash_str.substr(0, 16), nullptr, 16);
  return static_cast<std::int64_t>(u);  // two's complement: u - 2**64 when u >= 2**63
}

// utils.py@71de97b2 compute_node_hash_values.
std::vector<std::string> compute_node_hash_values(const TreeNode& node, std::int64_t page_size) {
  std::optional<std::string> parent_hash;
  if (node.parent != nullptr && node.parent->hash_value) {
    if (node.parent->key_len() > 0 && !node.parent->hash_value->empty()) parent_hash = node.parent->hash_value->back();
  }
  return get_hash_str_pages(*node.key, parent_hash, page_size);
}

// utils.py@71de97b2 compute_node_event_hash_values.
std::vector<std::string> compute_node_event_hash_values(TreeNode& node, std::int64_t page_size) {
  const std::optional<std::string> cache_salt = node.key->cache_salt;
  if (!cache_salt) return compute_node_hash_values(node, page_size);
  if (node.event_hash_value) return *node.event_hash_value;

  std::vector<TreeNode*> missing_nodes;
  TreeNode* current = &node;
  while (current != nullptr && current->key && current->key->size() > 0 && !current->event_hash_value) {
    if (current->key->cache_salt != cache_salt)
      throw std::invalid_argument("Radix path contains mismatched cache_salt values");
    missing_nodes.push_back(current);
    current = current->parent;
  }
  if (current != nullptr && current->key && current->key->size() > 0 && current->key->cache_salt != cache_salt) {
    throw std::invalid_argument("Radix path contains mismatched cache_salt values");
  }
  std::string parent_hash;
  if (current != nullptr && current->event_hash_value && !current->event_hash_value->empty()) {
    parent_hash = current->event_hash_value->back();
  } else {
    std::string seed("sglang-cache-salt-v1");
    seed.push_back('\0');
    seed += *cache_salt;
    parent_hash = contracts::sha256_hex(seed);
  }
  for (auto it = missing_nodes.rbegin(); it != missing_nodes.rend(); ++it) {
    std::vector<std::string> hash_values = get_hash_str_pages(*(*it)->key, parent_hash, page_size);
    (*it)->event_hash_value = hash_values;
    if (!hash_values.empty()) parent_hash = hash_values.back();
  }
  return *node.event_hash_value;
}

// utils.py@71de97b2 split_node_hash_value.
std::pair<std::optional<std::vector<std::string>>, std::optional<std::vector<std::string>>> split_node_hash_value(
    const std::optional<std::vector<std::string>>& child_hash_value, std::int64_t split_len, std::int64_t page_size) {
  if (!child_hash_value) return {std::nullopt, std::nullopt};
  const std::int64_t split_pages = page_size == 1 ? split_len : split_len / page_size;
  const auto n = static_cast<std::int64_t>(child_hash_value->size());
  const auto cut = static_cast<std::ptrdiff_t>(std::clamp<std::int64_t>(split_pages, 0, n));
  std::vector<std::string> head(child_hash_value->begin(), child_hash_value->begin() + cut);
  std::vector<std::string> tail(child_hash_value->begin() + cut, child_hash_value->end());
  return {std::move(head), std::move(tail)};
}

}  // namespace blis::sglang
