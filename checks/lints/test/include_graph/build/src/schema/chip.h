// A generated schema type (blis-gen writes these into the build directory).
#pragma once
namespace schema { struct Chip { int sms = 0; }; }
