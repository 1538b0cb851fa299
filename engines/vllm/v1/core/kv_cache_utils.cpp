// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_utils.py@6e448d0e, first part; see kv_cache_utils.h.
#include "v1/core/kv_cache_utils.h"

#include <algorithm>
#include <stdexcept>

#include "v1/kv_cache_interface.h"

namespace blis::vllm {

BlockHash NONE_HASH;

// kv_cache_utils.py@6e448d0e make_block_hash_with_group_id.
BlockHashWithGroupId make_block_hash_with_group_id(const BlockHash& block_hash, std::int64_t group_id) {
  if (group_id < 0 || group_id > 0xffffffffLL) throw std::overflow_error("int too big to convert");
  BlockHashWithGroupId key{block_hash.bytes};
  for (int i = 3; i >= 0; --i) key.bytes.push_back(static_cast<char>((group_id >> (8 * i)) & 0xff));
  return key;
}

// kv_cache_utils.py@6e448d0e get_block_hash.
BlockHash get_block_hash(const BlockHashWithGroupId& key) {
  if (key.bytes.size() < 4) return BlockHash{};
  return BlockHash{key.bytes.substr(0, key.bytes.size() - 4)};
}

// kv_cache_utils.py@6e448d0e get_group_id.
std::int64_t get_group_id(const BlockHashWithGroupId& key) {
  std::int64_t id = 0;
  std::size_t start = key.bytes.size() >= 4 ? key.bytes.size() - 4 : 0;
  for (std::size_t i = start; i < key.bytes.size(); ++i) id = (id << 8) | static_cast<unsigned char>(key.bytes[i]);
  return id;
}

// kv_cache_utils.py@6e448d0e maybe_convert_block_hash: int.from_bytes(big) & (2**64 - 1).
ExternalBlockHash maybe_convert_block_hash(const BlockHash& hash_bytes, bool use_int_block_hashes) {
  if (!use_int_block_hashes) return hash_bytes.bytes;
  std::uint64_t v = 0;
  const std::string& b = hash_bytes.bytes;
  std::size_t start = b.size() >= 8 ? b.size() - 8 : 0;
  for (std::size_t i = start; i < b.size(); ++i) v = (v << 8) | static_cast<unsigned char>(b[i]);
  return v;
}

// kv_cache_utils.py@6e448d0e init_none_hash, without the global assignment.
BlockHash compute_none_hash(const HashFn& hash_fn, const std::optional<std::string>& python_hash_seed,
                            std::string_view random_bytes) {
  if (python_hash_seed.has_value()) return BlockHash{hash_fn(HashValue::str(*python_hash_seed))};
  if (random_bytes.size() != 32) {
    throw std::invalid_argument("init_none_hash: PYTHONHASHSEED is unset, so 32 random bytes (os.urandom(32)) "
                                "must be supplied");
  }
  return BlockHash{std::string(random_bytes)};
}

// kv_cache_utils.py@6e448d0e init_none_hash.
BlockHash init_none_hash(const HashFn& hash_fn, const std::optional<std::string>& python_hash_seed,
                         std::string_view random_bytes) {
  NONE_HASH = compute_none_hash(hash_fn, python_hash_seed, random_bytes);
  return NONE_HASH;
}

// ---- KVCacheBlock --------------------------------------------------------------------------------

// kv_cache_utils.py@6e448d0e KVCacheBlock.set_block_hash.
void KVCacheBlock::set_block_hash(const BlockHashWithGroupId& block_hash, std::optional<std::int64_t> num_tokens) {
  if (_block_hash.has_value() || _block_hash_num_tokens.has_value()) {
    throw AssertionError("The block already has a hash. This should not happen.");
  }
  _block_hash = block_hash;
  _block_hash_num_tokens = num_tokens;
}

// kv_cache_utils.py@6e448d0e KVCacheBlock.reset_hash.
void KVCacheBlock::reset_hash() {
  _block_hash.reset();
  _block_hash_num_tokens.reset();
}

namespace {

// Python's repr of a bytes object.
std::string bytes_repr(const std::string& b) {
  bool has_single = b.find('\'') != std::string::npos;
  bool has_double = b.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out = "b";
  out.push_back(quote);
  static const char* hex = "0123456789abcdef";
  for (unsigned char c : b) {
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0xf]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back(quote);
  return out;
}

std::string opt_int(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "None"; }

}  // namespace

// kv_cache_utils.py@6e448d0e KVCacheBlock.__repr__.
std::string KVCacheBlock::repr() const {
  return "KVCacheBlock(block_id=" + std::to_string(block_id) + ", ref_cnt=" + std::to_string(ref_cnt) +
         ", _block_hash=" + (_block_hash ? bytes_repr(_block_hash->bytes) : "None") +
         ", _block_hash_num_tokens=" + opt_int(_block_hash_num_tokens) +
         ", prev_free_block=" + (prev_free_block ? std::to_string(prev_free_block->block_id) : "None") +
         ", next_free_block=" + (next_free_block ? std::to_string(next_free_block->block_id) : "None") + ")";
}

// ---- FreeKVCacheBlockQueue -----------------------------------------------------------------------

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.__init__.
FreeKVCacheBlockQueue::FreeKVCacheBlockQueue(const std::vector<KVCacheBlock*>& blocks)
    : num_free_blocks(static_cast<std::int64_t>(blocks.size())) {
  for (std::int64_t i = 0; i < num_free_blocks; ++i) {
    if (i > 0) blocks[i]->prev_free_block = blocks[i - 1];
    if (i < num_free_blocks - 1) blocks[i]->next_free_block = blocks[i + 1];
  }
  if (num_free_blocks > 0) {
    fake_free_list_head.next_free_block = blocks.front();
    blocks.front()->prev_free_block = &fake_free_list_head;
    fake_free_list_tail.prev_free_block = blocks.back();
    blocks.back()->next_free_block = &fake_free_list_tail;
  } else {
    fake_free_list_head.next_free_block = &fake_free_list_tail;
    fake_free_list_tail.prev_free_block = &fake_free_list_head;
  }
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.popleft.
KVCacheBlock* FreeKVCacheBlockQueue::popleft() {
  if (fake_free_list_head.next_free_block == &fake_free_list_tail || fake_free_list_head.next_free_block == nullptr) {
    if (num_free_blocks != 0) {
      throw AssertionError("num_free_blocks (" + std::to_string(num_free_blocks) + ") is out of sync with the free list.");
    }
    throw ValueError("No free blocks available");
  }
  KVCacheBlock* first_block = fake_free_list_head.next_free_block;
  if (first_block->next_free_block == nullptr) {
    throw std::runtime_error("Invalid block found in popleft() which doesn't have a valid next_free_block");
  }
  fake_free_list_head.next_free_block = first_block->next_free_block;
  first_block->next_free_block->prev_free_block = &fake_free_list_head;
  first_block->prev_free_block = first_block->next_free_block = nullptr;
  num_free_blocks -= 1;
  return first_block;
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.popleft_n.
std::vector<KVCacheBlock*> FreeKVCacheBlockQueue::popleft_n(std::int64_t n) {
  if (n == 0) return {};
  if (num_free_blocks < n) throw AssertionError("popleft_n: num_free_blocks < n");
  num_free_blocks -= n;
  KVCacheBlock* curr_block = fake_free_list_head.next_free_block;
  std::vector<KVCacheBlock*> ret;
  ret.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    if (curr_block == nullptr) throw AssertionError("popleft_n: curr_block is None");
    ret.push_back(curr_block);
    KVCacheBlock* last_block = curr_block;
    curr_block = curr_block->next_free_block;
    last_block->prev_free_block = nullptr;
    last_block->next_free_block = nullptr;
  }
  if (curr_block != nullptr) {
    fake_free_list_head.next_free_block = curr_block;
    curr_block->prev_free_block = &fake_free_list_head;
  }
  return ret;
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.remove.
void FreeKVCacheBlockQueue::remove(KVCacheBlock* block) {
  if (block->prev_free_block == nullptr || block->next_free_block == nullptr) {
    throw std::runtime_error("remove() called on an invalid block: " + block->repr());
  }
  block->prev_free_block->next_free_block = block->next_free_block;
  block->next_free_block->prev_free_block = block->prev_free_block;
  block->prev_free_block = block->next_free_block = nullptr;
  num_free_blocks -= 1;
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.append.
void FreeKVCacheBlockQueue::append(KVCacheBlock* block) {
  if (fake_free_list_tail.prev_free_block == nullptr) {
    throw std::runtime_error("prev_free_block of fake_free_list_tail should always exist");
  }
  KVCacheBlock* last_block = fake_free_list_tail.prev_free_block;
  last_block->next_free_block = block;
  block->prev_free_block = last_block;
  block->next_free_block = &fake_free_list_tail;
  fake_free_list_tail.prev_free_block = block;
  num_free_blocks += 1;
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.prepend_n.
void FreeKVCacheBlockQueue::prepend_n(const std::vector<KVCacheBlock*>& blocks) {
  if (blocks.empty()) return;
  KVCacheBlock* first_block = fake_free_list_head.next_free_block;
  if (first_block == nullptr) throw AssertionError("next_free_block of fake_free_list_head should always exist");
  KVCacheBlock* prev_block = &fake_free_list_head;
  for (KVCacheBlock* block : blocks) {
    block->prev_free_block = prev_block;
    prev_block->next_free_block = block;
    prev_block = block;
  }
  prev_block->next_free_block = first_block;
  first_block->prev_free_block = prev_block;
  num_free_blocks += static_cast<std::int64_t>(blocks.size());
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.append_n.
void FreeKVCacheBlockQueue::append_n(const std::vector<KVCacheBlock*>& blocks) {
  if (blocks.empty()) return;
  KVCacheBlock* last_block = fake_free_list_tail.prev_free_block;
  if (last_block == nullptr) throw AssertionError("prev_free_block of fake_free_list_tail should always exist");
  for (KVCacheBlock* block : blocks) {
    block->prev_free_block = last_block;
    last_block->next_free_block = block;
    last_block = block;
  }
  last_block->next_free_block = &fake_free_list_tail;
  fake_free_list_tail.prev_free_block = last_block;
  num_free_blocks += static_cast<std::int64_t>(blocks.size());
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.get_all_free_blocks.
std::vector<KVCacheBlock*> FreeKVCacheBlockQueue::get_all_free_blocks() const {
  if (fake_free_list_head.next_free_block == nullptr) {
    throw std::runtime_error("next_free_block of fake_free_list_head should always exist");
  }
  std::vector<KVCacheBlock*> ret;
  KVCacheBlock* curr_block = fake_free_list_head.next_free_block;
  while (curr_block->next_free_block != nullptr) {
    ret.push_back(curr_block);
    curr_block = curr_block->next_free_block;
  }
  return ret;
}

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue.iter_blocks_after.
std::vector<KVCacheBlock*> FreeKVCacheBlockQueue::iter_blocks_after(const KVCacheBlock* cursor) const {
  std::vector<KVCacheBlock*> out;
  KVCacheBlock* curr_block = cursor == nullptr ? fake_free_list_head.next_free_block : cursor->next_free_block;
  while (curr_block != nullptr && curr_block != &fake_free_list_tail) {
    out.push_back(curr_block);
    curr_block = curr_block->next_free_block;
  }
  return out;
}

// ---- extra keys and block hashes -----------------------------------------------------------------

// kv_cache_utils.py@6e448d0e need_extra_keys (request.mm_features is always empty in this port).
bool need_extra_keys(const Request& request) {
  return request.lora_request.has_value() || request.cache_salt.has_value();
}

// kv_cache_utils.py@6e448d0e _gen_lora_extra_hash_keys.
std::vector<std::string> _gen_lora_extra_hash_keys(const Request& request) {
  if (!request.lora_request) return {};
  return {request.lora_request->lora_name};
}

// kv_cache_utils.py@6e448d0e generate_block_hash_extra_keys: lora + mm (none) + cache_salt (first block
// only, and only a non-empty salt) + prompt embeds (none).
std::pair<BlockExtraKeys, std::int64_t> generate_block_hash_extra_keys(const Request& request,
                                                                       std::int64_t start_token_idx,
                                                                       std::int64_t /*end_token_idx*/,
                                                                       std::int64_t start_mm_idx) {
  std::vector<std::string> extra_keys = _gen_lora_extra_hash_keys(request);
  if (start_token_idx == 0 && request.cache_salt.has_value() && !request.cache_salt->empty()) {
    extra_keys.push_back(*request.cache_salt);
  }
  if (extra_keys.empty()) return {std::nullopt, start_mm_idx};
  return {std::move(extra_keys), start_mm_idx};
}

// kv_cache_utils.py@6e448d0e hash_block_tokens.
BlockHash hash_block_tokens(const HashFn& hash_function, const std::optional<BlockHash>& parent_block_hash,
                            std::span<const std::int32_t> curr_block_token_ids, const BlockExtraKeys& extra_keys,
                            const BlockHash& none_hash) {
  // `if not parent_block_hash`: None or empty bytes.
  const BlockHash& parent = (parent_block_hash && !parent_block_hash->bytes.empty()) ? *parent_block_hash : none_hash;
  std::vector<HashValue> tokens;
  tokens.reserve(curr_block_token_ids.size());
  for (std::int32_t t : curr_block_token_ids) tokens.push_back(HashValue::int_(t));
  HashValue extra = HashValue::none();
  if (extra_keys.has_value()) {
    std::vector<HashValue> keys;
    for (const auto& k : *extra_keys) keys.push_back(HashValue::str(k));
    extra = HashValue::tuple(std::move(keys));
  }
  std::vector<HashValue> items;
  items.push_back(HashValue::bytes(parent.bytes));
  items.push_back(HashValue::tuple(std::move(tokens)));
  items.push_back(std::move(extra));
  return BlockHash{hash_function(HashValue::tuple(std::move(items)))};
}

// kv_cache_utils.py@6e448d0e get_request_block_hasher.
BlockHasher get_request_block_hasher(std::int64_t hash_block_size, HashFn caching_hash_fn) {
  return get_request_block_hasher(hash_block_size, std::move(caching_hash_fn), NONE_HASH);
}

BlockHasher get_request_block_hasher(std::int64_t hash_block_size, HashFn caching_hash_fn, BlockHash none_hash) {
  return [hash_block_size, fn = std::move(caching_hash_fn), none_hash](const Request& request) {
    std::int64_t start_token_idx = static_cast<std::int64_t>(request.block_hashes.size()) * hash_block_size;
    std::int64_t num_tokens = request.num_tokens();
    if (start_token_idx + hash_block_size > num_tokens) return std::vector<BlockHash>{};
    std::int64_t curr_mm_idx = start_token_idx > 0 ? -1 : 0;
    std::optional<BlockHash> prev_block_hash_value;
    if (!request.block_hashes.empty()) prev_block_hash_value = request.block_hashes.back();
    std::vector<BlockHash> new_block_hashes;
    const auto& all_token_ids = request.all_token_ids();
    while (true) {
      std::int64_t end_token_idx = start_token_idx + hash_block_size;
      if (end_token_idx > num_tokens) break;
      auto [extra_keys, next_mm_idx] = generate_block_hash_extra_keys(request, start_token_idx, end_token_idx, curr_mm_idx);
      curr_mm_idx = next_mm_idx;
      std::span<const std::int32_t> block_tokens(all_token_ids.data() + start_token_idx,
                                                 static_cast<std::size_t>(hash_block_size));
      BlockHash block_hash = hash_block_tokens(fn, prev_block_hash_value, block_tokens, extra_keys, none_hash);
      new_block_hashes.push_back(block_hash);
      start_token_idx += hash_block_size;
      prev_block_hash_value = std::move(block_hash);
    }
    return new_block_hashes;
  };
}

// ---- block-size views ----------------------------------------------------------------------------

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize.__init__.
BlockHashListWithBlockSize::BlockHashListWithBlockSize(const std::vector<BlockHash>& hashes, std::int64_t hash_block_size,
                                                       std::int64_t target_block_size)
    : block_hashes(&hashes), scale_factor(target_block_size / hash_block_size) {
  if (target_block_size % hash_block_size != 0) throw AssertionError("target_block_size % hash_block_size == 0");
}

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize.__len__.
std::int64_t BlockHashListWithBlockSize::size() const {
  return static_cast<std::int64_t>(block_hashes->size()) / scale_factor;
}

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize._get_value_at.
const BlockHash& BlockHashListWithBlockSize::_get_value_at(std::int64_t idx) const {
  std::int64_t i = (idx + 1) * scale_factor - 1;
  if (idx < 0 || i >= static_cast<std::int64_t>(block_hashes->size())) throw std::out_of_range("list index out of range");
  return (*block_hashes)[static_cast<std::size_t>(i)];
}

const BlockHash& BlockHashListWithBlockSize::operator[](std::int64_t idx) const { return _get_value_at(idx); }

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize.__getitem__(slice), step 1, Python clamping.
std::vector<BlockHash> BlockHashListWithBlockSize::slice(std::int64_t start, std::int64_t stop) const {
  std::int64_t n = size();
  start = std::max<std::int64_t>(0, std::min(start, n));
  stop = std::max<std::int64_t>(0, std::min(stop, n));
  std::vector<BlockHash> out;
  for (std::int64_t i = start; i < stop; ++i) out.push_back(_get_value_at(i));
  return out;
}

std::int64_t BlockHashList::size() const {
  if (is_block_size_view()) return as_block_size_view().size();
  return static_cast<std::int64_t>(std::get<const std::vector<BlockHash>*>(v_)->size());
}

const BlockHash& BlockHashList::operator[](std::int64_t idx) const {
  if (is_block_size_view()) return as_block_size_view()[idx];
  const auto& list = *std::get<const std::vector<BlockHash>*>(v_);
  if (idx < 0 || idx >= static_cast<std::int64_t>(list.size())) throw std::out_of_range("list index out of range");
  return list[static_cast<std::size_t>(idx)];
}

std::vector<BlockHash> BlockHashList::slice(std::int64_t start, std::int64_t stop) const {
  if (is_block_size_view()) return as_block_size_view().slice(start, stop);
  const auto& list = *std::get<const std::vector<BlockHash>*>(v_);
  auto n = static_cast<std::int64_t>(list.size());
  start = std::max<std::int64_t>(0, std::min(start, n));
  stop = std::max<std::int64_t>(0, std::min(stop, n));
  if (start >= stop) return {};
  return std::vector<BlockHash>(list.begin() + start, list.begin() + stop);
}

// kv_cache_utils.py@6e448d0e resolve_block_hashes.
BlockHashList resolve_block_hashes(const BlockHashList& block_hashes, std::int64_t hash_block_size, std::int64_t block_size,
                                   bool supports_fine_grained_hash_lookup, std::optional<std::int64_t> alignment_tokens) {
  if (block_size == hash_block_size) return block_hashes;
  if (block_hashes.is_block_size_view()) {
    if (block_hashes.as_block_size_view().scale_factor != block_size / hash_block_size) {
      throw AssertionError("block_hashes.scale_factor == block_size // hash_block_size");
    }
    return block_hashes;
  }
  if (supports_fine_grained_hash_lookup && alignment_tokens.has_value() && *alignment_tokens < block_size &&
      block_size % *alignment_tokens == 0) {
    return block_hashes;
  }
  if (block_size % hash_block_size != 0) throw AssertionError("block_size % hash_block_size == 0");
  const auto& list = *block_hashes.raw_list();
  return BlockHashListWithBlockSize(list, hash_block_size, block_size);
}

}  // namespace blis::vllm
