#pragma once
#include "router/picker.h"             // near-miss: the entry point reaches the rest of router/
namespace router { inline int route() { return Picker{}.pick(); } }
