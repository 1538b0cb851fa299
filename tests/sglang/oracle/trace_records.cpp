// The SGLang oracle's trace records (see trace_records.h).
#include "trace_records.h"

namespace blis::sglang::oracle {

using json = nlohmann::json;

const char* mode_name(ForwardMode m) {
  switch (m) {
    case ForwardMode::kExtend: return "EXTEND";
    case ForwardMode::kDecode: return "DECODE";
    case ForwardMode::kMixed: return "MIXED";
    case ForwardMode::kIdle: return "IDLE";
  }
  return "?";
}

json rids(const std::vector<Req*>& reqs) {
  json out = json::array();
  for (const Req* r : reqs) out.push_back(r->rid);
  return out;
}

json batch_record(const LaunchedBatch& b) {
  json r = json::object();
  r["forward_mode"] = mode_name(b.forward_mode);
  r["rids"] = rids(b.reqs);
  const bool extend = is_extend(b.forward_mode);
  r["prefix_lens"] = extend ? json(b.prefix_lens) : json::array();
  r["extend_lens"] = extend ? json(b.extend_lens) : json::array();
  r["chunked_req"] = extend && b.chunked_req != nullptr ? json(b.chunked_req->rid) : json(nullptr);
  // An extend batch's running decodes (what process_batch_result_prefill reads). A decode batch keeps a stale list
  // from the mixed batch it was merged from, upstream and here; nothing reads it (and here it may name requests
  // already released), so it is recorded empty.
  r["decoding_reqs"] = extend ? rids(b.decoding_reqs) : json::array();
  return r;
}

json state_record(const Scheduler& s) {
  json r = json::object();
  json waiting = json::array();
  for (const Req* q : s.waiting_queue()) waiting.push_back(q->rid);
  r["waiting"] = waiting;
  r["running"] = rids(s.running_batch().reqs);
  r["new_token_ratio"] = s.new_token_ratio();
  r["available_size"] = s.allocator().available_size();
  r["evictable_size"] = s.tree_cache().evictable_size();
  r["protected_size"] = s.tree_cache().protected_size();
  return r;
}

json event_record(const KVCacheEvent& e) {
  auto opt = [](const auto& o) { return o ? json(*o) : json(nullptr); };
  if (const auto* st = std::get_if<BlockStored>(&e)) {
    json tokens = json::array();
    for (const EventToken& t : st->token_ids) {
      if (const auto* one = std::get_if<std::int64_t>(&t)) {
        tokens.push_back(*one);
      } else {
        const auto& pair = std::get<std::pair<std::int64_t, std::int64_t>>(t);
        tokens.push_back({pair.first, pair.second});
      }
    }
    json r = {"BlockStored", st->block_hashes, opt(st->parent_block_hash), tokens, st->block_size,
              opt(st->lora_id), opt(st->medium)};
    if (st->metadata) r.push_back(st->metadata->cache_salt);
    return r;
  }
  if (const auto* rm = std::get_if<BlockRemoved>(&e)) return {"BlockRemoved", rm->block_hashes, opt(rm->medium)};
  return json::array({"AllBlocksCleared"});
}

}  // namespace blis::sglang::oracle
