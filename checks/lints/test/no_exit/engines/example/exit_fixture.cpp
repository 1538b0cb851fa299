// Fixture of blis-no-exit (SIM-2): ending the process, in any spelling, and asserting are flagged; throwing,
// static_assert and the project's own names that read `exit`, `abort` or `terminate` are not.
#include <cassert>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

namespace fixture {

using std::abort;

void ends(int code) {
  if (code == 1) std::exit(code);            // expect: library code ends the process
  if (code == 2) exit(code);                 // expect: library code ends the process
  if (code == 3) std::_Exit(code);           // expect: library code ends the process
  if (code == 4) std::quick_exit(code);      // expect: library code ends the process
  if (code == 5) std::abort();               // expect: library code ends the process
  if (code == 6) abort();                    // expect: library code ends the process
  if (code == 7) std::terminate();           // expect: library code ends the process
  auto later = &std::exit;                   // expect: library code ends the process
  (void)later;
}

template <class T>
void generic(T code) {
  if (code > 0) std::exit(static_cast<int>(code));  // expect: library code ends the process
}

int asserts(int* p, int n) {
  assert(p != nullptr);                      // expect: library code asserts (a failing assert aborts the process): throw an error
  assert(n > 0 && "a positive count");       // expect: library code asserts (a failing assert aborts the process): throw an error
  return *p + n;
}

// Near-misses: errors that propagate to main, compile-time checks, and names that merely match.
namespace sim {
struct Request {
  bool aborted = false;
  void abort() { aborted = true; }  // a request's abort: a fate, not the process
};
struct Session {
  int turns = 0;
  int exit(int code) { return turns = code; }  // a session's exit
};
int terminate(int x) { return -x; }  // the project's own function of that name
}  // namespace sim

int near_misses(int n) {
  static_assert(sizeof(int) >= 4, "int holds a token id");  // near-miss: static_assert is compile time
  sim::Request r;
  r.abort();                                                 // near-miss: a member named abort
  sim::Session s;
  int e = s.exit(3);                                         // near-miss: a member named exit
  int t = sim::terminate(n);                                 // near-miss: a project function named terminate
  if (n < 0) throw std::invalid_argument("n: " + std::to_string(n) + " is negative");  // near-miss: an error
  return static_cast<int>(r.aborted) + e + t;
}

}  // namespace fixture
