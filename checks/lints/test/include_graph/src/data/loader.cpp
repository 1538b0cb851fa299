#include "data/loader.h"       // near-miss: its own directory
#include "cost/price.h"        // expect: src/data/ includes only src/contracts/, generated types and src/data/
