#include "sim/engines.h"               // near-miss: the finding is at the header's own #include
#include "data/loader.h"               // near-miss: the simulator reads data
