#include "cost/coefficients.h"  // near-miss: a public header
