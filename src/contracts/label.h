// Documentation-only text (SUB-20): a schema field marked `label: true` (descriptions, notes, free-text
// titles and reasons kept for people to read) is declared with this type by the generated schema code.
// Names and roles kept for people change no output, so no code outside tests may branch on one: the lint
// blis-label-branch refuses comparisons, searches, lookups and switches on a blis::Label. Printing,
// copying and writing one out are fine. The alias adds no behaviour: it only marks the text.
#pragma once

#include <string>

namespace blis {

using Label = std::string;

}  // namespace blis
