// Exact conversion of scalars to typed values (SUB-12): a number that does not convert exactly is
// refused, never rounded, wrapped or clamped. Each function returns false after adding a diagnostic.
#pragma once

#include <cstdint>
#include <string>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/node.h"

namespace blis::doc {

bool to_int(const Node& n, const std::string& field, Diagnostics& d, std::int64_t& out);
bool to_number(const Node& n, const std::string& field, Diagnostics& d, double& out);
bool to_bool(const Node& n, const std::string& field, Diagnostics& d, bool& out);
// A string field: quoted scalars, or plain scalars that YAML would not read as null, a boolean or a number.
bool to_string(const Node& n, const std::string& field, Diagnostics& d, std::string& out);

// The shortest decimal text that reads back as exactly v (for messages).
std::string show_number(double v);

// What YAML 1.2's core schema reads a plain scalar as: "null", "bool", "int", "float" or "str".
const char* plain_type(const std::string& s);

}  // namespace blis::doc
