#include "cost/price.h"        // near-miss: its own directory
#include "router/picker.h"     // expect: src/cost/ includes no engine or router header
