// lint-path: src/sim/admission/sampled_length_fixture.cpp
// Fixture of blis-sampled-length (DEV-13): outside the workload generator, trace writer, replay and the
// engines' stop check, every read or write of a data member named sampled_output_len is flagged; the
// member's declaration, unevaluated operands, whole-object copies and other names are not.
#include <cstdint>
#include <vector>

namespace fixture {

struct Request {
  std::int64_t id = 0;
  std::int64_t max_tokens = 0;
  std::int64_t sampled_output_len = 0;  // near-miss: declaring the member reads nothing
  std::vector<int> prompt;              // not trivially copyable: the copy constructor is synthesized
};

struct Tracked {
  explicit Tracked(std::int64_t n)
      : sampled_output_len(n) {}  // expect: sampled output length written outside its declared sites
  Tracked() = default;                  // near-miss: the default member initializer
  std::int64_t sampled_output_len = 1;  // near-miss: a declaration with its initializer
};

struct Ordered {  // a defaulted comparison compares every member, the sampled length too
  std::int64_t sampled_output_len = 0;
  auto operator<=>(const Ordered&) const = default;  // expect: sampled output length read outside its declared sites
};
bool before(const Ordered& a, const Ordered& b) { return a < b; }

void consume(std::int64_t) {}

std::int64_t leaks(Request& r, const Request* p) {
  std::int64_t budget = r.sampled_output_len;  // expect: sampled output length read outside its declared sites
  consume(p->sampled_output_len);  // expect: sampled output length read outside its declared sites
  if (r.sampled_output_len > r.max_tokens) return 0;  // expect: sampled output length read outside its declared sites
  r.sampled_output_len = 7;  // expect: sampled output length written outside its declared sites
  ++r.sampled_output_len;  // expect: sampled output length written outside its declared sites
  auto member = &Request::sampled_output_len;  // expect: sampled output length read outside its declared sites
  Request made{.id = 1, .max_tokens = 64,
               .sampled_output_len = 12};  // expect: sampled output length written outside its declared sites
  Request positional{2, 64, 9, {}};  // expect: sampled output length written outside its declared sites
  return budget + (r.*member) + made.id + positional.id;
}

std::int64_t bound(const Request& r) {
  auto [id, max_tokens, len, prompt] = r;  // expect: sampled output length read outside its declared sites
  return id + max_tokens + len + static_cast<std::int64_t>(prompt.size());
}

template <class T>
std::int64_t generic(const T& t) {
  return t.sampled_output_len;  // expect: sampled output length read outside its declared sites
}
template std::int64_t generic<Request>(const Request&);

std::int64_t near_misses(const Request& r) {
  Request copy = r;                                     // near-miss: copying the whole request names no member
  Request defaulted{.id = 3, .max_tokens = 8};          // near-miss: the member keeps its default initializer
  std::int64_t emitted = r.max_tokens;                  // near-miss: what the real scheduler sees
  constexpr auto width = sizeof(r.sampled_output_len);  // near-miss: an unevaluated operand reads nothing
  using Len = decltype(r.sampled_output_len);           // near-miss: naming the member's type reads nothing
  std::int64_t sampled_output_len = emitted;            // near-miss: a local variable of the same name
  return copy.id + defaulted.id + sampled_output_len + static_cast<Len>(width);
}

}  // namespace fixture
