#include "sim/engines.h"               // near-miss: the finding is at the header's own #include
#include "data/loader.h"               // near-miss: the simulator reads data
#include "router/embed/embed.h"        // near-miss: the router's entry point
#include "router/picker.h"             // expect: src/sim/ reaches router/ only through its entry point router/embed/
