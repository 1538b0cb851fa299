// Twin of bytes_from_raw_int.fail.cpp: explicit construction compiles.
#include "contracts/units.h"

blis::units::Bytes page() {
  blis::units::Bytes b{4096};
  return b;
}
