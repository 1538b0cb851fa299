// The one error the engine contracts throw: an environment that cannot answer, an engine that breaks the
// construction order, a registry key that is unknown or taken. The message names the input, the value
// and the cause (no error is dropped, nothing is clamped).
#pragma once

#include <stdexcept>
#include <string>

namespace blis::engine {

class ContractError : public std::runtime_error {
 public:
  explicit ContractError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace blis::engine
