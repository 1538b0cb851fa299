// Known-bad input of DEV-10's one-detector check: src/score classing a run itself, with the trend tests and
// a set of run classes of its own, instead of reading the class the simulator's one detector wrote into
// the Result.
#include "sim/analysis/trend.h"

namespace blis::score {

enum class Verdict { settled, overloaded, incomplete };

}  // namespace blis::score
