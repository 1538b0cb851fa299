// The reasons a point is not scored (design §11.4, COV-5): the only reasons a G5 may carry.
#pragma once

#include <string>
#include <string_view>

namespace blis::score {

enum class Reason {
  code_not_visible,
  router_unsupported,
  value_not_recorded,
  field_not_modelled,
  field_unclassified,
  engine_unsupported,
  topology_unsupported,
  not_in_catalog,
  field_not_in_release,
  value_conflict,
  build_unparseable,
};

std::string_view reason_name(Reason r);

// One reason with what it names (the field, value or entry).
struct NotScored {
  Reason reason;
  std::string detail;
};

}  // namespace blis::score
