// Twin of bytes_times_real.fail.cpp: exact integer scaling compiles (and refuses an inexact quotient at run time).
#include "contracts/units.h"

blis::units::Bytes half(blis::units::Bytes b) { return b / 2; }
