// The vLLM oracle's trace records (see trace_records.h).
#include "trace_records.h"

namespace blis::vllm::testing {

using json = nlohmann::json;

json hash_json(const std::variant<std::string, std::uint64_t>& h) {
  if (const auto* v = std::get_if<std::uint64_t>(&h)) return *v;
  // bytes: hex, as the runner writes them.
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : std::get<std::string>(h)) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

json blocks_json(const std::vector<std::vector<std::int64_t>>& groups) {
  json out = json::array();
  for (const auto& g : groups) out.push_back(g);
  return out;
}

json schedule_record(const SchedulerOutput& out) {
  json r = json::object();
  json scheduled = json::array();
  for (const auto& [id, n] : out.num_scheduled_tokens) scheduled.push_back({id, n});
  r["num_scheduled_tokens"] = scheduled;
  r["total_num_scheduled_tokens"] = out.total_num_scheduled_tokens;
  json news = json::array();
  for (const auto& n : out.scheduled_new_reqs) news.push_back({n.req_id, n.num_computed_tokens, blocks_json(n.block_ids)});
  r["new_reqs"] = news;
  json cached = json::array();
  const auto& c = out.scheduled_cached_reqs;
  for (std::size_t i = 0; i < c.req_ids.size(); ++i) {
    json blocks = c.new_block_ids[i] ? blocks_json(*c.new_block_ids[i]) : json(nullptr);
    cached.push_back({c.req_ids[i], c.resumed_req_ids.count(c.req_ids[i]) > 0, c.num_computed_tokens[i], blocks});
  }
  r["cached_reqs"] = cached;
  r["num_common_prefix_blocks"] = out.num_common_prefix_blocks;
  r["finished_req_ids"] = std::vector<std::string>(out.finished_req_ids.begin(), out.finished_req_ids.end());
  r["preempted_req_ids"] = std::vector<std::string>(out.preempted_req_ids.begin(), out.preempted_req_ids.end());
  return r;
}

}  // namespace blis::vllm::testing
