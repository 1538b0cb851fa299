#pragma once
#include "data/loader.h"               // near-miss: search reads data
