// Twin of tokens_plus_bytes.fail.cpp: bytes plus bytes compiles.
#include "contracts/units.h"

blis::units::Bytes sum(blis::units::Bytes b, blis::units::Bytes c) { return b + c; }
