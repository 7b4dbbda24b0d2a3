//===- StridePattern.h - Classify the addresses of an access stream -*- C++
//-*-===//
//
// A stream is a sequence of accesses that the same code probably made (the
// format has no source-site ids, see FootprintTool.h). Its pattern is
// learnt online from the deltas between consecutive addresses, in constant
// memory per stream:
//
//   broadcast   every delta 0 (the same address again and again)
//   contiguous  every delta equal to the access length
//   strided     every delta the same N (neither 0 nor the length)
//   2d          rows of P accesses with step D1, each row D2 after the
//               previous row's last access (a tile walked row by row):
//               every P-th delta is D2, the others D1
//   irregular   anything else (gathers, scatters, interleaved streams)
//   single      one access
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_STRIDEPATTERN_H
#define WGTRACE_VIEWER_STRIDEPATTERN_H

#include <cstdint>
#include <string>

namespace wgtrace::viewer {

class StridePattern {
public:
  enum class Kind : uint8_t {
    Single,
    Broadcast,
    Contiguous,
    Strided,
    TwoD,
    Irregular
  };

  explicit StridePattern(uint64_t First, uint32_t Length)
      : First(First), Last(First), Length(Length) {}

  void add(uint64_t Address);

  Kind kind() const;
  uint64_t count() const { return Count; }
  uint64_t first() const { return First; }
  uint32_t length() const { return Length; }
  /// Strided: the step; 2d: the step within a row.
  int64_t step() const { return D1; }
  /// 2d: accesses per row, and bytes from one row's start to the next.
  uint64_t rowLength() const { return Period; }
  int64_t rowPitch() const { return int64_t(Period - 1) * D1 + D2; }
  /// "contiguous", "strided by 256 B", "2d: rows of 4 x 4 B, pitch 256 B".
  std::string describe() const;
  static const char *kindName(Kind K);

private:
  uint64_t First, Last;
  uint32_t Length;
  uint64_t Count = 1;
  int64_t D1 = 0, D2 = 0;
  /// 0 until a second delta value was seen.
  uint64_t Period = 0;
  bool Irregular = false;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_STRIDEPATTERN_H
