#include "sim/devs/message.h"

namespace blis::sim {

std::string_view class_name(MessageClass cls) {
  for (const auto& p : kClassOrder) {
    if (p.cls == cls) return p.name;
  }
  return "unknown";
}

}  // namespace blis::sim
