#include "cost/launch.h"

#include <algorithm>

#include "cost/coefficients.h"

namespace blis::cost {

namespace {

std::int64_t tok(const std::optional<units::Tokens>& t) { return t ? t->value() : 0; }

[[noreturn]] void refuse(const std::string& what, const std::string& field, const std::string& cause) {
  throw CostError(what + ": " + field + ": " + cause);
}

}  // namespace

RankCounts counts_of(const engine::plan::StepShape& step, std::size_t i, const std::string& what,
                     const std::string& field_prefix) {
  RankCounts c;
  std::int64_t rank = static_cast<std::int64_t>(i);
  if (step.ranks && i < step.ranks->size()) {
    const auto& r = (*step.ranks)[i];
    if (r.rank) rank = *r.rank;
    if (r.requests) c.reqs = *r.requests;
  }
  for (const auto& q : c.reqs) {
    c.tokens += tok(q.new_tokens);
    c.sampled += q.sampled_tokens ? q.sampled_tokens->value() : 1;
  }
  c.scheduled = static_cast<std::int64_t>(c.reqs.size());
  c.requests = c.scheduled;
  // A padded size replaces the scheduled one it may not fall below.
  const auto pad = [&](std::int64_t padded, std::int64_t scheduled, const char* field, const char* unit) {
    if (padded < scheduled)
      refuse(what, field_prefix + "padded[rank " + std::to_string(rank) + "]." + field,
             std::to_string(padded) + " is fewer than the " + std::to_string(scheduled) + " " + unit +
                 " scheduled on the rank");
    return padded;
  };
  if (step.padded)
    for (const auto& p : *step.padded)
      if (p.rank.value_or(0) == rank) {
        if (p.tokens) c.tokens = pad(p.tokens->value(), c.tokens, "tokens", "new tokens");
        if (p.requests) c.requests = pad(p.requests->value(), c.scheduled, "requests", "requests");
        c.launch = p.launch;
        if (p.eager_layers) c.eager_layers.insert(p.eager_layers->begin(), p.eager_layers->end());
      }
  return c;
}

std::size_t lockstep_ranks(const engine::plan::StepShape& step) {
  return std::max<std::size_t>(1, step.ranks ? step.ranks->size() : 0);
}

std::int64_t rows_of(const std::optional<std::string>& rows, const RankCounts& c, const std::string& what,
                     const std::string& field) {
  const std::string r = rows.value_or("tokens");
  if (r == "tokens") return c.tokens;
  if (r == "requests") return c.requests;
  if (r == "sampled") return c.sampled;
  refuse(what, field, "'" + r + "' is not a row count (tokens, requests, sampled)");
}

}  // namespace blis::cost
