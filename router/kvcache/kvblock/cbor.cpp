// Original to BLIS: see cbor.h (RFC 8949 §3, §4.2.1).
#include "router/kvcache/kvblock/cbor.h"

namespace blis::router::kvblock {

// Original to BLIS: canonical CBOR encoding written from RFC 8949 (fxamacker/cbor's role upstream, not an llm-d file).
// RFC 8949 §3: initial byte (major << 5 | additional information), then the argument big-endian in the
// fewest bytes (§4.2.1): < 24 inline, <= 0xff after 24, <= 0xffff after 25, <= 0xffffffff after 26,
// else 8 bytes after 27.
void CborWriter::head(unsigned major, std::uint64_t arg) {
  const unsigned mt = major << 5;
  int nbytes = 0;
  if (arg < 24) {
    out_.push_back(static_cast<char>(mt | static_cast<unsigned>(arg)));
    return;
  } else if (arg <= 0xffULL) {
    out_.push_back(static_cast<char>(mt | 24U));
    nbytes = 1;
  } else if (arg <= 0xffffULL) {
    out_.push_back(static_cast<char>(mt | 25U));
    nbytes = 2;
  } else if (arg <= 0xffffffffULL) {
    out_.push_back(static_cast<char>(mt | 26U));
    nbytes = 4;
  } else {
    out_.push_back(static_cast<char>(mt | 27U));
    nbytes = 8;
  }
  for (int i = nbytes - 1; i >= 0; --i) out_.push_back(static_cast<char>((arg >> (8 * i)) & 0xffU));
}

}  // namespace blis::router::kvblock
