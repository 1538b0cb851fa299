// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_policy.py@71de97b2 (module constants,
// estimate_prefill_extend_tile_metrics, match_prefix_for_req, SchedulePolicy); stable sorts where Python's
// list.sort is stable, and random's shuffle over injected draws.
#include "srt/managers/schedule_policy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "srt/mem_cache/radix_cache.h"
#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

namespace {

// schedule_policy.py@71de97b2 _ceil_div.
std::int64_t ceil_div(std::int64_t value, std::int64_t divisor) {
  // -(-value // divisor) with Python's floor division.
  const std::int64_t n = -value;
  std::int64_t q = n / divisor;
  if ((n % divisor != 0) && ((n < 0) != (divisor < 0))) --q;
  return -q;
}

// base_prefix_cache.py@71de97b2 zero_match_result (not in the ported base_prefix_cache.h; a local copy).
MatchResult zero_match_result(const BasePrefixCache& tree_cache, MatchResult match_result,
                              const std::optional<std::string>& extra_key) {
  if (tree_cache.is_chunk_cache()) return match_result;
  TreeNode* root = tree_cache.root_node_handle(extra_key);
  match_result.device_indices.clear();
  match_result.last_device_node = root;
  match_result.last_host_node = root;
  match_result.best_match_node = root;
  match_result.host_hit_length = 0;
  match_result.swa_host_hit_length = 0;
  match_result.mamba_host_hit_length = 0;
  match_result.full_kv_hit_length = 0;
  return match_result;
}

TokenIds prefix_ids_of(const Req& r) {
  TokenIds ids = r.origin_input_ids;
  ids.insert(ids.end(), r.output_ids.begin(), r.output_ids.end());
  return ids;
}

}  // namespace

// schedule_policy.py@71de97b2 module scope: PREFILL_TILE_BUDGET_MODE's .strip().lower() and fallback.
std::string SchedulePolicyEnv::normalized_tile_budget_mode() const {
  std::string mode = prefill_tile_budget_mode;
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  mode.erase(mode.begin(), std::find_if(mode.begin(), mode.end(), not_space));
  mode.erase(std::find_if(mode.rbegin(), mode.rend(), not_space).base(), mode.end());
  std::transform(mode.begin(), mode.end(), mode.begin(), [](unsigned char c) { return std::tolower(c); });
  if (mode != "legacy" && mode != "compact") return "compact";
  return mode;
}

// schedule_policy.py@71de97b2 estimate_prefill_extend_tile_metrics.
PrefillExtendTileMetrics estimate_prefill_extend_tile_metrics(const std::vector<std::int64_t>& extend_lens,
                                                              std::int64_t block_m) {
  PrefillExtendTileMetrics m;
  m.block_m = block_m;
  for (std::int64_t length : extend_lens) m.extend_lens.push_back(std::max<std::int64_t>(0, length));
  for (std::int64_t length : m.extend_lens) m.q_tiles_per_request.push_back(length > 0 ? ceil_div(length, block_m) : 0);
  const auto& q = m.q_tiles_per_request;
  m.legacy_q_tiles_per_head =
      q.empty() ? 0 : static_cast<std::int64_t>(q.size()) * *std::max_element(q.begin(), q.end());
  m.compact_q_tiles_per_head = std::accumulate(q.begin(), q.end(), std::int64_t{0});
  m.saved_q_tiles_per_head = m.legacy_q_tiles_per_head - m.compact_q_tiles_per_head;
  if (m.legacy_q_tiles_per_head != 0) {
    m.saved_q_tile_ratio =
        static_cast<double>(m.saved_q_tiles_per_head) / static_cast<double>(m.legacy_q_tiles_per_head);
  }
  m.request_count = static_cast<std::int64_t>(m.extend_lens.size());
  m.max_extend_len = m.extend_lens.empty() ? 0 : *std::max_element(m.extend_lens.begin(), m.extend_lens.end());
  m.sum_extend_len = std::accumulate(m.extend_lens.begin(), m.extend_lens.end(), std::int64_t{0});
  return m;
}

// schedule_policy.py@71de97b2 match_prefix_for_req.
MatchResult match_prefix_for_req(BasePrefixCache& tree_cache, Req& req, const SchedulePolicyEnv& env,
                                 const std::optional<TokenIds>& token_ids_in, bool cow_mamba, bool include_req) {
  TokenIds token_ids = token_ids_in.has_value() ? *token_ids_in : prefix_ids_of(req);
  const auto n = static_cast<std::int64_t>(token_ids.size());
  const std::int64_t reprefill_tail = tree_cache.swa_reprefill_tail_tokens();
  std::optional<std::int64_t> key_limit;
  if (reprefill_tail != 0) key_limit = std::max<std::int64_t>(0, n - reprefill_tail);

  MatchResult match_result = tree_cache.match_prefix(MatchPrefixParams{
      RadixKey(std::move(token_ids), req.extra_key, false, key_limit, req.cache_salt), cow_mamba,
      include_req ? &req : nullptr});
  if (env.radix_force_miss) match_result = zero_match_result(tree_cache, std::move(match_result), req.extra_key);
  req.prefix_indices = match_result.device_indices;
  req.last_node = match_result.last_device_node;
  req.last_host_node = match_result.last_host_node;
  req.best_match_node = match_result.best_match_node;
  req.host_hit_length = match_result.host_hit_length;
  req.swa_host_hit_length = match_result.swa_host_hit_length;
  req.mamba_host_hit_length = match_result.mamba_host_hit_length;
  const std::int64_t max_len = req.compute_max_prefix_len(n);
  req.num_matched_prefix_tokens =
      std::min(static_cast<std::int64_t>(req.prefix_indices.size()) + req.host_hit_length, max_len);
  if (match_result.mamba_branching_seqlen.has_value()) req.mamba_branching_seqlen = match_result.mamba_branching_seqlen;
  if (match_result.cache_protected_len.has_value()) req.cache_protected_len = *match_result.cache_protected_len;
  return match_result;
}

// schedule_policy.py@71de97b2 SchedulePolicy.__init__.
SchedulePolicy::SchedulePolicy(const std::string& policy_in, BasePrefixCache& tree_cache_in,
                               bool enable_hierarchical_cache_in, bool enable_priority_scheduling_in,
                               bool schedule_low_priority_values_first_in, SchedulePolicyEnv env_in,
                               UniformDraw random_draw, bool disaggregation_decode)
    : policy(validate_and_adjust_policy(policy_in, tree_cache_in)),
      tree_cache(tree_cache_in),
      enable_hierarchical_cache(enable_hierarchical_cache_in),
      enable_priority_scheduling(enable_priority_scheduling_in),
      schedule_low_priority_values_first(schedule_low_priority_values_first_in),
      priority_sign(schedule_low_priority_values_first_in ? 1 : -1),
      env(std::move(env_in)),
      random_draw_(std::move(random_draw)),
      disaggregation_decode_(disaggregation_decode),
      waiting_queue_radix_tree_(RadixCache::create_simulated()) {}

SchedulePolicy::~SchedulePolicy() = default;

// schedule_policy.py@71de97b2 SchedulePolicy.calc_priority.
void SchedulePolicy::calc_priority(std::vector<Req*>& waiting_queue, const ScheduleBatch* running_batch) {
  const Policy active = determine_active_policy(waiting_queue);
  const bool active_is_cache_aware = std::holds_alternative<CacheAwarePolicy>(active);

  // Populate req.num_matched_prefix_tokens for cache-agnostic policies when the radix supports it.
  if (!active_is_cache_aware && tree_cache.supports_fast_match_prefix() && !disaggregation_decode_) {
    for (Req* r : waiting_queue) match_prefix_for_req(tree_cache, *r, env, std::nullopt, false, true);
  }

  if (policy == Policy{CacheAgnosticPolicy::FCFS}) {
    if (enable_priority_scheduling) sort_by_priority_and_fcfs(waiting_queue, priority_sign);
    return;
  }

  if (active_is_cache_aware) {
    const CacheAwarePolicy p = std::get<CacheAwarePolicy>(active);
    const std::set<std::string> temporary_deprioritized = compute_prefix_matches(waiting_queue, p);
    if (p == CacheAwarePolicy::LPM) {
      sort_by_longest_prefix(waiting_queue, temporary_deprioritized);
    } else {
      sort_by_dfs_weight(waiting_queue, tree_cache);
    }
  } else {
    switch (std::get<CacheAgnosticPolicy>(active)) {
      case CacheAgnosticPolicy::FCFS:
        break;
      case CacheAgnosticPolicy::LOF:
        sort_by_longest_output(waiting_queue, enable_priority_scheduling, priority_sign);
        break;
      case CacheAgnosticPolicy::RANDOM:
        sort_randomly(waiting_queue, random_draw_);
        break;
      case CacheAgnosticPolicy::ROUTING_KEY:
        if (running_batch != nullptr) sort_by_routing_key(waiting_queue, *running_batch);
        break;
    }
  }
}

// schedule_policy.py@71de97b2 SchedulePolicy._determine_active_policy.
Policy SchedulePolicy::determine_active_policy(const std::vector<Req*>& waiting_queue) const {
  // Turn off the expensive prefix matching and sorting when the queue is large.
  if (policy == Policy{CacheAwarePolicy::LPM} && waiting_queue.size() > 128) return CacheAgnosticPolicy::FCFS;
  return policy;
}

// schedule_policy.py@71de97b2 SchedulePolicy._validate_and_adjust_policy.
Policy SchedulePolicy::validate_and_adjust_policy(const std::string& policy, const BasePrefixCache& tree_cache) {
  static const std::map<std::string, CacheAwarePolicy> kAware = {{"lpm", CacheAwarePolicy::LPM},
                                                                 {"dfs-weight", CacheAwarePolicy::DFS_WEIGHT}};
  static const std::map<std::string, CacheAgnosticPolicy> kAgnostic = {
      {"fcfs", CacheAgnosticPolicy::FCFS},
      {"lof", CacheAgnosticPolicy::LOF},
      {"random", CacheAgnosticPolicy::RANDOM},
      {"routing-key", CacheAgnosticPolicy::ROUTING_KEY}};
  if (auto it = kAware.find(policy); it != kAware.end()) {
    // If tree_cache is disabled, use the cache-agnostic FCFS.
    if (tree_cache.disable) return CacheAgnosticPolicy::FCFS;
    return it->second;
  }
  if (auto it = kAgnostic.find(policy); it != kAgnostic.end()) return it->second;
  throw std::invalid_argument("Unknown schedule_policy: policy='" + policy + "'");
}

// schedule_policy.py@71de97b2 SchedulePolicy._compute_prefix_matches (in-batch prefix caching). The dummy
// insert value (torch.empty(len, bool)) is a zero vector of the same length.
std::set<std::string> SchedulePolicy::compute_prefix_matches(std::vector<Req*>& waiting_queue,
                                                             CacheAwarePolicy /*policy*/) {
  std::set<std::string> temporary_deprioritized;
  RadixCache* wq_tree = waiting_queue_radix_tree_.get();
  wq_tree->reset();
  for (Req* r : waiting_queue) {
    const TokenIds prefix_ids = prefix_ids_of(*r);
    match_prefix_for_req(tree_cache, *r, env, prefix_ids, false, true);
    if (static_cast<std::int64_t>(r->prefix_indices.size()) <= env.in_batch_prefix_caching_check_threshold) {
      MatchResult match_result = wq_tree->match_prefix(
          MatchPrefixParams{RadixKey(prefix_ids, r->extra_key, false, std::nullopt, r->cache_salt), false, nullptr});
      if (env.radix_force_miss) match_result = zero_match_result(*wq_tree, std::move(match_result), r->extra_key);
      if (static_cast<std::int64_t>(match_result.device_indices.size()) >=
          env.in_batch_prefix_caching_deprioritize_threshold) {
        temporary_deprioritized.insert(r->rid);
      } else {
        InsertParams params;
        params.key = RadixKey(prefix_ids, r->extra_key, false, std::nullopt, r->cache_salt);
        params.value = IndexVector(prefix_ids.size(), 0);
        wq_tree->insert(params);
      }
    }
  }
  return temporary_deprioritized;
}

// schedule_policy.py@71de97b2 SchedulePolicy._sort_by_longest_prefix: key -num_matched_prefix_tokens, or
// +inf for a deprioritized request.
void SchedulePolicy::sort_by_longest_prefix(std::vector<Req*>& waiting_queue,
                                            const std::set<std::string>& temporary_deprioritized) {
  auto key = [&](const Req* r) {
    const bool deprioritized = temporary_deprioritized.count(r->rid) != 0;
    return std::make_pair(deprioritized ? 1 : 0, deprioritized ? 0 : -r->num_matched_prefix_tokens);
  };
  std::stable_sort(waiting_queue.begin(), waiting_queue.end(),
                   [&](const Req* a, const Req* b) { return key(a) < key(b); });
}

namespace {

// schedule_policy.py@71de97b2 SchedulePolicy._calc_weight.
void calc_weight(TreeNode* cur_node, std::map<const TreeNode*, std::int64_t>& node_to_weight) {
  for (TreeNode* child : cur_node->children.values()) {
    calc_weight(child, node_to_weight);
    node_to_weight[cur_node] += node_to_weight[child];
  }
}

// schedule_policy.py@71de97b2 SchedulePolicy._get_dfs_priority.
void get_dfs_priority(TreeNode* cur_node, std::map<const TreeNode*, std::int64_t>& node_to_priority,
                      std::map<const TreeNode*, std::vector<Req*>>& last_node_to_reqs, std::vector<Req*>& q) {
  std::vector<TreeNode*> children = cur_node->children.values();
  std::stable_sort(children.begin(), children.end(), [&](TreeNode* a, TreeNode* b) {
    return -node_to_priority[a] < -node_to_priority[b];
  });
  for (TreeNode* child : children) get_dfs_priority(child, node_to_priority, last_node_to_reqs, q);
  const std::vector<Req*>& reqs = last_node_to_reqs[cur_node];
  q.insert(q.end(), reqs.begin(), reqs.end());
}

}  // namespace

// schedule_policy.py@71de97b2 SchedulePolicy._sort_by_dfs_weight. The node-keyed maps are only looked up,
// never iterated into the output.
void SchedulePolicy::sort_by_dfs_weight(std::vector<Req*>& waiting_queue, BasePrefixCache& tree_cache) {
  std::map<const TreeNode*, std::vector<Req*>> last_node_to_reqs;
  for (Req* req : waiting_queue) last_node_to_reqs[tree_cache.resolve_node_handle(req->last_node)].push_back(req);
  std::map<const TreeNode*, std::int64_t> node_to_weight;
  for (const auto& [node, reqs] : last_node_to_reqs) node_to_weight[node] = static_cast<std::int64_t>(reqs.size());
  TreeNode* root = tree_cache.root_node_handle();
  calc_weight(root, node_to_weight);
  waiting_queue.clear();
  get_dfs_priority(root, node_to_weight, last_node_to_reqs, waiting_queue);
}

// schedule_policy.py@71de97b2 SchedulePolicy._sort_by_longest_output.
void SchedulePolicy::sort_by_longest_output(std::vector<Req*>& waiting_queue, bool enable_priority_scheduling,
                                            std::int64_t priority_sign) {
  if (enable_priority_scheduling) {
    std::stable_sort(waiting_queue.begin(), waiting_queue.end(), [priority_sign](const Req* a, const Req* b) {
      return std::make_pair(a->priority.value() * priority_sign, -a->sampling_params.max_new_tokens) <
             std::make_pair(b->priority.value() * priority_sign, -b->sampling_params.max_new_tokens);
    });
  } else {
    std::stable_sort(waiting_queue.begin(), waiting_queue.end(), [](const Req* a, const Req* b) {
      return -a->sampling_params.max_new_tokens < -b->sampling_params.max_new_tokens;
    });
  }
}

// schedule_policy.py@71de97b2 SchedulePolicy._sort_randomly (random.shuffle). CPython draws each index with
// _randbelow (getrandbits); here j = floor(u * (i + 1)) from the injected uniform draw, clamped to i.
void SchedulePolicy::sort_randomly(std::vector<Req*>& waiting_queue, const UniformDraw& random_draw) {
  if (!random_draw) throw std::logic_error("SchedulePolicy: the random policy needs a random draw");
  for (std::size_t i = waiting_queue.size(); i-- > 1;) {
    auto j = static_cast<std::size_t>(std::floor(random_draw() * static_cast<double>(i + 1)));
    j = std::min(j, i);
    std::swap(waiting_queue[i], waiting_queue[j]);
  }
}

// schedule_policy.py@71de97b2 SchedulePolicy._sort_by_priority_and_fcfs.
void SchedulePolicy::sort_by_priority_and_fcfs(std::vector<Req*>& waiting_queue, std::int64_t priority_sign) {
  std::stable_sort(waiting_queue.begin(), waiting_queue.end(), [priority_sign](const Req* a, const Req* b) {
    return std::make_pair(a->priority.value() * priority_sign, a->time_stats.wait_queue_entry_time) <
           std::make_pair(b->priority.value() * priority_sign, b->time_stats.wait_queue_entry_time);
  });
}

// schedule_policy.py@71de97b2 SchedulePolicy._sort_by_routing_key (a routing key is "truthy" when set and
// non-empty).
void SchedulePolicy::sort_by_routing_key(std::vector<Req*>& waiting_queue, const ScheduleBatch& running_batch) {
  std::map<std::string, std::int64_t> routing_key_counts;
  for (const Req* r : running_batch.reqs) {
    if (r->routing_key.has_value() && !r->routing_key->empty()) routing_key_counts[*r->routing_key] += 1;
  }
  if (routing_key_counts.empty()) return;
  auto sort_key = [&](const Req* req) {
    const std::string key = req->routing_key.value_or("");
    if (!key.empty()) {
      if (auto it = routing_key_counts.find(key); it != routing_key_counts.end()) {
        return std::make_tuple(0, -it->second, key);
      }
    }
    return std::make_tuple(1, std::int64_t{0}, key);
  };
  std::stable_sort(waiting_queue.begin(), waiting_queue.end(),
                   [&](const Req* a, const Req* b) { return sort_key(a) < sort_key(b); });
}

}  // namespace blis::sglang
