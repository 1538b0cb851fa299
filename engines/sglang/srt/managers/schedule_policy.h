// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_policy.py@71de97b2; the module
// constants (read from the environment upstream) become SchedulePolicyEnv values, random's shuffle draws from
// an injected generator, and the queue holds non-owning Req pointers. PrefillAdder is in prefill_adder.h.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/base_prefix_cache.h"

namespace blis::sglang {

class RadixCache;  // srt/mem_cache/radix_cache.h

// The schedule_policy.py@71de97b2 module constants upstream reads from the environment at import time,
// here values the scheduler passes in (defaults = upstream's defaults).
struct SchedulePolicyEnv {
  // schedule_policy.py@71de97b2 CLIP_MAX_NEW_TOKENS (SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION, 4096).
  std::int64_t clip_max_new_tokens = 4096;
  // schedule_policy.py@71de97b2 IN_BATCH_PREFIX_CACHING_CHECK_THRESHOLD (env of that name, 32; -1 disables).
  std::int64_t in_batch_prefix_caching_check_threshold = 32;
  // schedule_policy.py@71de97b2 IN_BATCH_PREFIX_CACHING_DEPRIORITIZE_THRESHOLD (env of that name, 32).
  std::int64_t in_batch_prefix_caching_deprioritize_threshold = 32;
  // schedule_policy.py@71de97b2 IGNORE_EOS_RESERVE_TOKENS (a constant upstream).
  std::int64_t ignore_eos_reserve_tokens = 1;
  // schedule_policy.py@71de97b2 _IS_HIP (is_hip(); the tile budget is AMD-only).
  bool is_hip = false;
  // schedule_policy.py@71de97b2 PREFILL_TILE_BUDGET (SGLANG_PREFILL_TILE_BUDGET, 0 = off).
  std::int64_t prefill_tile_budget = 0;
  // schedule_policy.py@71de97b2 PREFILL_TILE_BUDGET_MODE (SGLANG_PREFILL_TILE_BUDGET_MODE, "compact"; any
  // value other than "legacy"/"compact" falls back to "compact", see normalized_tile_budget_mode).
  std::string prefill_tile_budget_mode = "compact";
  // environ.py@71de97b2 SGLANG_RADIX_FORCE_MISS (False).
  bool radix_force_miss = false;

  // schedule_policy.py@71de97b2 module scope: the PREFILL_TILE_BUDGET_MODE fallback (without the warning).
  std::string normalized_tile_budget_mode() const;
};

// schedule_policy.py@71de97b2 estimate_prefill_extend_tile_metrics's result dict.
struct PrefillExtendTileMetrics {
  std::int64_t block_m = 0;
  std::int64_t request_count = 0;
  std::vector<std::int64_t> extend_lens;
  std::vector<std::int64_t> q_tiles_per_request;
  std::int64_t max_extend_len = 0;
  std::int64_t sum_extend_len = 0;
  std::int64_t legacy_q_tiles_per_head = 0;
  std::int64_t compact_q_tiles_per_head = 0;
  std::int64_t saved_q_tiles_per_head = 0;
  std::optional<double> saved_q_tile_ratio;  // None when legacy_q_tiles_per_head is 0
};

// schedule_policy.py@71de97b2 estimate_prefill_extend_tile_metrics.
PrefillExtendTileMetrics estimate_prefill_extend_tile_metrics(const std::vector<std::int64_t>& extend_lens,
                                                              std::int64_t block_m);

// schedule_policy.py@71de97b2 match_prefix_for_req (token_ids absent = origin_input_ids + output_ids).
MatchResult match_prefix_for_req(BasePrefixCache& tree_cache, Req& req, const SchedulePolicyEnv& env,
                                 const std::optional<TokenIds>& token_ids = std::nullopt, bool cow_mamba = false,
                                 bool include_req = false);

// schedule_policy.py@71de97b2 CacheAwarePolicy.
enum class CacheAwarePolicy { LPM, DFS_WEIGHT };
// schedule_policy.py@71de97b2 CacheAgnosticPolicy.
enum class CacheAgnosticPolicy { FCFS, LOF, RANDOM, ROUTING_KEY };

// schedule_policy.py@71de97b2 SchedulePolicy.Policy.
using Policy = std::variant<CacheAwarePolicy, CacheAgnosticPolicy>;

// The uniform [0, 1) draws random.shuffle makes (random.random()); an engine owns a seeded generator and
// passes it in (engines create no unnamed random engines).
using UniformDraw = std::function<double()>;

// schedule_policy.py@71de97b2 SchedulePolicy.
class SchedulePolicy {
 public:
  // schedule_policy.py@71de97b2 SchedulePolicy.__init__ (throws std::invalid_argument on an unknown
  // policy, as upstream's ValueError). disaggregation_decode: get_disagg().disaggregation_mode == "decode".
  SchedulePolicy(const std::string& policy, BasePrefixCache& tree_cache, bool enable_hierarchical_cache,
                 bool enable_priority_scheduling, bool schedule_low_priority_values_first,
                 SchedulePolicyEnv env = {}, UniformDraw random_draw = {}, bool disaggregation_decode = false);
  ~SchedulePolicy();
  SchedulePolicy(const SchedulePolicy&) = delete;
  SchedulePolicy& operator=(const SchedulePolicy&) = delete;

  // schedule_policy.py@71de97b2 SchedulePolicy.calc_priority.
  void calc_priority(std::vector<Req*>& waiting_queue, const ScheduleBatch* running_batch = nullptr);

  Policy policy;
  BasePrefixCache& tree_cache;
  bool enable_hierarchical_cache;
  bool enable_priority_scheduling;
  bool schedule_low_priority_values_first;
  std::int64_t priority_sign;
  SchedulePolicyEnv env;

  // schedule_policy.py@71de97b2 SchedulePolicy._determine_active_policy.
  Policy determine_active_policy(const std::vector<Req*>& waiting_queue) const;
  // schedule_policy.py@71de97b2 SchedulePolicy._validate_and_adjust_policy.
  static Policy validate_and_adjust_policy(const std::string& policy, const BasePrefixCache& tree_cache);
  // schedule_policy.py@71de97b2 SchedulePolicy._compute_prefix_matches: the rids deprioritized.
  std::set<std::string> compute_prefix_matches(std::vector<Req*>& waiting_queue, CacheAwarePolicy policy);

  // schedule_policy.py@71de97b2 SchedulePolicy._sort_by_longest_prefix.
  static void sort_by_longest_prefix(std::vector<Req*>& waiting_queue,
                                     const std::set<std::string>& temporary_deprioritized);
  // schedule_policy.py@71de97b2 SchedulePolicy._sort_by_dfs_weight.
  static void sort_by_dfs_weight(std::vector<Req*>& waiting_queue, BasePrefixCache& tree_cache);
  // schedule_policy.py@71de97b2 SchedulePolicy._sort_by_longest_output.
  static void sort_by_longest_output(std::vector<Req*>& waiting_queue, bool enable_priority_scheduling,
                                     std::int64_t priority_sign);
  // schedule_policy.py@71de97b2 SchedulePolicy._sort_randomly: random.shuffle's Fisher-Yates walk
  // (i from the end, j = floor(random() * (i + 1))) over the injected uniform draws.
  static void sort_randomly(std::vector<Req*>& waiting_queue, const UniformDraw& random_draw);
  // schedule_policy.py@71de97b2 SchedulePolicy._sort_by_priority_and_fcfs.
  static void sort_by_priority_and_fcfs(std::vector<Req*>& waiting_queue, std::int64_t priority_sign);
  // schedule_policy.py@71de97b2 SchedulePolicy._sort_by_routing_key (no debug logging).
  static void sort_by_routing_key(std::vector<Req*>& waiting_queue, const ScheduleBatch& running_batch);

 private:
  UniformDraw random_draw_;
  bool disaggregation_decode_;
  // It is used to find the matching prefix for in-batch prefix caching (RadixCache.create_simulated()).
  std::unique_ptr<RadixCache> waiting_queue_radix_tree_;
};

}  // namespace blis::sglang
