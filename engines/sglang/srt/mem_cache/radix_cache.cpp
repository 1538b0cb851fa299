// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; RadixCache, with the logical clock of tree_node.h for time.monotonic(), a deterministic eviction tie-break, and no metrics or devices.
#include "srt/mem_cache/radix_cache.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <ostream>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "srt/mem_cache/utils.h"

namespace blis::sglang {

// radix_cache.py@71de97b2 RadixCache.__init__. The metrics collector and the device are not ported.
RadixCache::RadixCache(const CacheInitParams& params) {
  disable = params.disable;
  req_to_token_pool = params.req_to_token_pool;
  token_to_kv_pool_allocator = params.token_to_kv_pool_allocator;
  page_size = params.page_size;
  enable_kv_cache_events = params.enable_kv_cache_events;
  is_eagle = params.is_eagle;
  disable_finished_insert = params.disable_finished_insert;
  eviction_policy = params.eviction_policy;
  std::transform(eviction_policy.begin(), eviction_policy.end(), eviction_policy.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  kv_event_queue.clear();
  eviction_strategy = get_eviction_strategy(eviction_policy);
  evictable_leaves_.clear();
  reset();
}

// The tree is destroyed from the root (every node is owned by its parent).
RadixCache::~RadixCache() = default;

// radix_cache.py@71de97b2 RadixCache.create_simulated.
std::unique_ptr<RadixCache> RadixCache::create_simulated(bool disable_, BaseTokenToKVPoolAllocator* mock_allocator,
                                                         std::int64_t page_size_, bool enable_kv_cache_events_) {
  CacheInitParams params;
  params.disable = disable_;
  params.req_to_token_pool = nullptr;
  params.token_to_kv_pool_allocator = mock_allocator;
  params.page_size = page_size_;
  params.enable_kv_cache_events = enable_kv_cache_events_;
  return std::make_unique<RadixCache>(params);
}

// radix_cache.py@71de97b2 RadixCache.reset. The root's priority is -sys.maxsize.
void RadixCache::reset() {
  auto root = std::make_unique<TreeNode>(clock, std::nullopt, -std::numeric_limits<std::int64_t>::max());
  root->key = RadixKey(std::vector<std::int64_t>{}, std::nullopt);
  root->value = IndexVector{};
  root->host_value = IndexVector{};
  root->lock_ref = 1;
  root->hash_value = std::vector<std::string>{};
  evictable_size_ = 0;
  protected_size_ = 0;
  evictable_leaves_.clear();
  root_node = std::move(root);
  record_all_cleared_event();
}

// base_prefix_cache.py@71de97b2 BasePrefixCache.root_node_handle: self.root_node.
TreeNode* RadixCache::root_node_handle(const std::optional<std::string>& /*extra_key*/) const {
  return root_node.get();
}

// radix_cache.py@71de97b2 RadixCache.match_prefix. Upstream's maybe_to_bigram_view flips the caller's key
// in place; here the key is a copy.
MatchResult RadixCache::match_prefix(const MatchPrefixParams& params) {
  RadixKey key = params.key;
  key.maybe_to_bigram_view(is_eagle);
  TreeNode* root = root_node.get();
  MatchResult empty{IndexVector{}, root, root, root};
  if (disable || key.size() == 0) return empty;
  key = key.page_aligned(page_size);
  if (key.size() == 0) return empty;
  auto [value, last_node] = match_prefix_helper(root, std::move(key));
  return MatchResult{std::move(value), last_node, last_node, last_node};
}

// radix_cache.py@71de97b2 RadixCache.insert. Throws std::invalid_argument without a key.
InsertResult RadixCache::insert(const InsertParams& params) {
  if (disable) return InsertResult{};
  if (!params.key) throw std::invalid_argument("RadixCache.insert needs a key");
  RadixKey key = *params.key;
  std::optional<IndexVector> value = params.value;
  key.maybe_to_bigram_view(is_eagle, value ? &*value : nullptr);
  key = key.page_aligned(page_size);
  const auto key_len = static_cast<std::size_t>(key.size());
  IndexVector v;
  if (value) {
    v.assign(value->begin(), value->begin() + static_cast<std::ptrdiff_t>(std::min(key_len, value->size())));
  } else {
    // Debug/test fallback: the token ids themselves as values.
    v.assign(key.token_ids.begin(),
             key.token_ids.begin() + static_cast<std::ptrdiff_t>(std::min(key_len, key.token_ids.size())));
  }
  auto [prefix_len, last_node] =
      insert_helper(root_node.get(), std::move(key), std::move(v), params.priority, params.chunked);
  InsertResult result;
  result.prefix_len = prefix_len;
  result.last_device_node = last_node;
  return result;
}

// radix_cache.py@71de97b2 RadixCache.pretty_print / _print_helper.
void RadixCache::pretty_print(std::ostream& out) const {
  std::vector<std::pair<const TreeNode*, int>> stack{{root_node.get(), 0}};
  while (!stack.empty()) {
    auto [node, indent] = stack.back();
    stack.pop_back();
    out << std::string(static_cast<std::size_t>(indent), ' ') << ' ' << node->key_len() << ' ';
    out << "array('q', [";
    for (std::size_t i = 0; i < std::min<std::size_t>(10, node->key->token_ids.size()); ++i) {
      out << (i ? ", " : "") << node->key->token_ids[i];
    }
    out << "]) r=" << node->lock_ref << '\n';
    for (const auto& [key, child] : node->children.items()) {
      stack.push_back({child, indent + 2});
      if (!(*key == child->key->child_key(page_size))) throw std::logic_error("child key mismatch");
    }
  }
  out << "#tokens: " << total_size() << '\n';
}

// radix_cache.py@71de97b2 RadixCache.total_size.
std::int64_t RadixCache::total_size() const { return total_size_helper(); }

// radix_cache.py@71de97b2 RadixCache.evict. Ties on (priority, last_access_time) go to the smaller node id
// (upstream: set order; see the header). The metrics update is not ported.
EvictResult RadixCache::evict(const EvictParams& params) {
  if (disable) return EvictResult{};
  const std::int64_t num_tokens = params.num_tokens;
  struct Item {
    EvictionPriority priority;
    TreeNode* node;
  };
  auto later = [](const Item& a, const Item& b) {  // a after b: a min-heap
    return std::tie(a.priority, a.node->last_access_time, a.node->id) >
           std::tie(b.priority, b.node->last_access_time, b.node->id);
  };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> eviction_heap(later);
  for (const auto& [id, node] : evictable_leaves_)
    eviction_heap.push(Item{eviction_strategy->get_priority(*node), node});

  std::int64_t num_evicted = 0;
  while (num_evicted < num_tokens && !eviction_heap.empty()) {
    TreeNode* x = eviction_heap.top().node;
    eviction_heap.pop();
    if (token_to_kv_pool_allocator == nullptr) throw std::logic_error("RadixCache.evict needs an allocator");
    // Tree values are page-aligned copies of a kv row: page-exact segment.
    token_to_kv_pool_allocator->free_segment(*x->value, 0);
    num_evicted += x->value_len();
    std::unique_ptr<TreeNode> owned = delete_leaf(x);
    TreeNode* parent = x->parent;
    if (parent->children.empty() && parent->lock_ref == 0) {
      eviction_heap.push(Item{eviction_strategy->get_priority(*parent), parent});
    }
    record_remove_event(*x, page_size);
  }
  EvictResult result;
  result.num_tokens_evicted = num_evicted;
  return result;
}

// radix_cache.py@71de97b2 RadixCache.inc_lock_ref.
IncLockRefResult RadixCache::inc_lock_ref(TreeNode* node) {
  if (disable) return IncLockRefResult{0, std::nullopt, std::nullopt};
  std::int64_t delta = 0;
  while (node != root_node.get()) {
    if (node == nullptr) throw std::logic_error("This request holds the node from another tree");
    if (node->lock_ref == 0) {
      evictable_size_ -= node->key_len();
      protected_size_ += node->key_len();
      delta -= node->key_len();
    }
    node->lock_ref += 1;
    update_leaf_status(node);
    node = node->parent;
  }
  return IncLockRefResult{delta, std::nullopt, std::nullopt};
}

// radix_cache.py@71de97b2 RadixCache.dec_lock_ref.
DecLockRefResult RadixCache::dec_lock_ref(TreeNode* node, const std::optional<DecLockRefParams>& /*params*/) {
  if (disable) return DecLockRefResult{0};
  std::int64_t delta = 0;
  while (node != root_node.get()) {
    if (node == nullptr) throw std::logic_error("This request holds the node from another tree");
    if (node->lock_ref == 1) {
      evictable_size_ += node->key_len();
      protected_size_ -= node->key_len();
      delta += node->key_len();
    }
    node->lock_ref -= 1;
    update_leaf_status(node);
    node = node->parent;
  }
  return DecLockRefResult{delta};
}

// radix_cache.py@71de97b2 RadixCache.all_values_flatten.
IndexVector RadixCache::all_values_flatten() const {
  IndexVector values;
  all_values_flatten_helper(root_node.get(), values);
  return values;
}

// radix_cache.py@71de97b2 RadixCache.all_values_flatten._dfs_helper: depth first, children in insertion order.
void RadixCache::all_values_flatten_helper(const TreeNode* node, IndexVector& values) const {
  for (const TreeNode* child : node->children.values()) {
    if (child->value) values.insert(values.end(), child->value->begin(), child->value->end());
    all_values_flatten_helper(child, values);
  }
}

// radix_cache.py@71de97b2 RadixCache._match_prefix_helper.
std::pair<IndexVector, TreeNode*> RadixCache::match_prefix_helper(TreeNode* node, RadixKey key) {
  const std::int64_t access_time = clock.tick();
  node->last_access_time = access_time;
  ChildKey child_key = key.child_key(page_size);
  IndexVector value;
  while (key.size() > 0) {
    TreeNode* child = node->children.find(child_key);
    if (child == nullptr) break;
    child->last_access_time = access_time;
    const std::int64_t prefix_len = child->key->match(key, page_size);
    if (prefix_len < child->key_len()) {
      TreeNode* new_node = split_node(*child->key, child, prefix_len);
      value.insert(value.end(), new_node->value->begin(), new_node->value->end());
      node = new_node;
      break;
    }
    value.insert(value.end(), child->value->begin(), child->value->end());
    node = child;
    key = key.slice(prefix_len);
    if (key.size() > 0) child_key = key.child_key(page_size);
  }
  return {std::move(value), node};
}

// radix_cache.py@71de97b2 RadixCache._split_node: new_node -> child. `key` is a copy of child's key.
TreeNode* RadixCache::split_node(RadixKey key, TreeNode* child, std::int64_t split_len) {
  auto owned_new = std::make_unique<TreeNode>(clock, std::nullopt, child->priority);
  TreeNode* new_node = owned_new.get();
  new_node->hit_count = child->hit_count;
  new_node->parent = child->parent;
  new_node->lock_ref = child->lock_ref;
  new_node->key = child->key->slice(std::nullopt, split_len);
  const auto cut =
      static_cast<std::ptrdiff_t>(std::min<std::size_t>(static_cast<std::size_t>(split_len), child->value->size()));
  new_node->value = IndexVector(child->value->begin(), child->value->begin() + cut);
  child->parent = new_node;
  child->key = child->key->slice(split_len);
  child->value = IndexVector(child->value->begin() + cut, child->value->end());
  std::unique_ptr<TreeNode> owned_child =
      new_node->parent->children.set(key.child_key(page_size), std::move(owned_new));
  new_node->children.set(key.slice(split_len).child_key(page_size), std::move(owned_child));

  std::tie(new_node->hash_value, child->hash_value) = split_node_hash_value(child->hash_value, split_len, page_size);
  std::tie(new_node->event_hash_value, child->event_hash_value) =
      split_node_hash_value(child->event_hash_value, split_len, page_size);
  return new_node;
}

// radix_cache.py@71de97b2 RadixCache._inc_hit_count.
void RadixCache::inc_hit_count(TreeNode* node, bool chunked) {
  if (chunked) return;
  node->hit_count += 1;
}

// radix_cache.py@71de97b2 RadixCache._insert_helper.
std::pair<std::int64_t, TreeNode*> RadixCache::insert_helper(TreeNode* node, RadixKey key, IndexVector value,
                                                             std::int64_t priority, bool chunked) {
  const std::int64_t access_time = clock.tick();
  node->last_access_time = access_time;
  node->priority = std::max(node->priority, priority);
  if (key.size() == 0) return {0, node};

  ChildKey child_key = key.child_key(page_size);
  std::int64_t total_prefix_length = 0;
  while (key.size() > 0) {
    TreeNode* next = node->children.find(child_key);
    if (next == nullptr) break;
    node = next;
    node->last_access_time = access_time;
    const std::int64_t prefix_len = node->key->match(key, page_size);
    total_prefix_length += prefix_len;
    key = key.slice(prefix_len);
    value.erase(value.begin(),
                value.begin() + std::min<std::ptrdiff_t>(prefix_len, static_cast<std::ptrdiff_t>(value.size())));

    if (prefix_len < node->key_len()) {
      TreeNode* new_node = split_node(*node->key, node, prefix_len);
      new_node->priority = std::max(new_node->priority, priority);
      inc_hit_count(new_node, chunked);
      node = new_node;
    } else {
      node->priority = std::max(node->priority, priority);
      inc_hit_count(node, chunked);
    }
    if (key.size() > 0) child_key = key.child_key(page_size);
  }

  if (key.size() > 0) {
    auto owned = std::make_unique<TreeNode>(clock, std::nullopt, priority);
    TreeNode* new_node = owned.get();
    new_node->parent = node;
    const std::int64_t key_len = key.size();
    new_node->key = std::move(key);
    new_node->value = std::move(value);
    inc_hit_count(new_node, chunked);
    node->children.set(child_key, std::move(owned));
    evictable_size_ += key_len;
    update_leaf_status(node);
    update_leaf_status(new_node);
    // Hash will be computed lazily during event emission.
    record_store_event(*new_node, page_size, root_node.get());
    node = new_node;
  }
  return {total_prefix_length, node};
}

// radix_cache.py@71de97b2 RadixCache._delete_leaf: returns the detached node.
std::unique_ptr<TreeNode> RadixCache::delete_leaf(TreeNode* node) {
  const ChildKey key = node->key->child_key(page_size);
  std::unique_ptr<TreeNode> v = node->parent->children.pop(key);
  if (v.get() != node) throw std::logic_error("parent does not have child key");
  evictable_size_ -= node->key_len();
  evictable_leaves_.erase(node->id);
  update_leaf_status(node->parent);
  return v;
}

// radix_cache.py@71de97b2 RadixCache._update_leaf_status.
void RadixCache::update_leaf_status(TreeNode* node) {
  if (node->evicted() || node->lock_ref > 0) {
    evictable_leaves_.erase(node->id);
    return;
  }
  if (node->children.any_of([](const TreeNode& child) { return !child.evicted(); })) {
    evictable_leaves_.erase(node->id);
    return;
  }
  evictable_leaves_.emplace(node->id, node);
}

// radix_cache.py@71de97b2 RadixCache._total_size_helper.
std::int64_t RadixCache::total_size_helper() const {
  std::int64_t total_size = 0;
  std::vector<const TreeNode*> stack{root_node.get()};
  while (!stack.empty()) {
    const TreeNode* current = stack.back();
    stack.pop_back();
    total_size += current->value_len();
    // Order only changes the order of a sum.
    current->children.for_each([&stack](const TreeNode& child) {
      if (!child.evicted()) stack.push_back(&child);
    });
  }
  return total_size;
}

}  // namespace blis::sglang
