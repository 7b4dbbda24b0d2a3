//===- CriticalTest.cc - OpenMP critical sections: decoder, races, dump ---===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/RacesTool.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

// Named: a unity batch may hold another test's helpers of the same names.
namespace critical_sections {

using Op = format::AtomicOp;

/// How the second of two workgroups of one launch updates the word both
/// update; the first always updates it inside critical(a).
enum class Second { CriticalA, CriticalB, Atomic, Plain, Unnamed };

/// Access sites: 1 `*total += x` in critical(a), 2 the same in
/// critical(b), 3 an atomic update, 4 a plain one, 5 in the unnamed
/// critical section.
std::vector<uint8_t> twoUpdates(Second How, bool FirstUnnamed = false) {
  ExtensionSpec X;
  X.AccessSites = {
      {"omp.cc", 10, 5, 2, "f", "*total", std::string("a")},
      {"omp.cc", 14, 5, 2, "f", "*total", std::string("b")},
      {"omp.cc", 17, 5, 6, "f", "*total", std::nullopt},
      {"omp.cc", 20, 5, 2, "f", "*total", std::nullopt},
      {"omp.cc", 23, 5, 2, "f", "*total", std::string("")},
  };
  RingBuilder Ring(4096);
  constexpr uint64_t Total = 0x2000;
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  if (FirstUnnamed)
    Ring.critical("", Op::Update, Total, 4, format::accessSiteBits(5));
  else
    Ring.critical("a", Op::Update, Total, 4, format::accessSiteBits(1));
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
  switch (How) {
  case Second::CriticalA:
    Ring.critical("a", Op::Update, Total, 4, format::accessSiteBits(1));
    break;
  case Second::CriticalB:
    Ring.critical("b", Op::Update, Total, 4, format::accessSiteBits(2));
    break;
  case Second::Atomic:
    Ring.value(format::ValueType::Atomic, 2, uint64_t(Op::Update));
    Ring.load(Total + format::accessSiteBits(3), 4);
    Ring.store(Total + format::accessSiteBits(3), 4);
    break;
  case Second::Plain:
    Ring.load(Total + format::accessSiteBits(4), 4);
    Ring.store(Total + format::accessSiteBits(4), 4);
    break;
  case Second::Unnamed:
    Ring.critical("", Op::Update, Total, 4, format::accessSiteBits(5));
    break;
  }
  TraceBuilder B;
  B.metadata({{"omp for at omp.cc:8 in f", {}, {}, {}}}, {0}, &X);
  B.ring(Ring);
  return B.bytes();
}

struct Found {
  std::string Text;
  uint64_t Races = 0;
  std::vector<RacesTool::Race> Listed;
};

Found races(const std::vector<uint8_t> &Bytes) {
  Found F;
  llvm::raw_string_ostream OS(F.Text);
  RacesTool Tool(OS, false);
  decodeWith(Tool, Bytes);
  OS.flush();
  F.Races = Tool.raceCount();
  F.Listed = Tool.races();
  return F;
}

TEST(Critical, SameNamedSectionsAreSynchronised) {
  Found F = races(twoUpdates(Second::CriticalA));
  EXPECT_EQ(F.Races, 0u) << F.Text;
  Found Unnamed = races(twoUpdates(Second::Unnamed, /*FirstUnnamed=*/true));
  EXPECT_EQ(Unnamed.Races, 0u) << Unnamed.Text;
}

TEST(Critical, DifferentlyNamedSectionsRace) {
  Found F = races(twoUpdates(Second::CriticalB));
  EXPECT_EQ(F.Races, 1u) << F.Text;
  // Both update: each side's store against the other's accesses.
  ASSERT_EQ(F.Listed.size(), 2u);
  const RacesTool::Race &Rc = F.Listed[0];
  EXPECT_EQ(Rc.K, RacesTool::Kind::WriteWrite);
  ASSERT_TRUE(Rc.CriticalA && Rc.CriticalB);
  EXPECT_EQ(*Rc.CriticalA, "a");
  EXPECT_EQ(*Rc.CriticalB, "b");
  EXPECT_FALSE(Rc.AtomicA || Rc.AtomicB);
  EXPECT_NE(F.Text.find("critical(a) store omp.cc:10 `*total`  vs  "
                        "critical(b) load/store omp.cc:14 `*total`"),
            std::string::npos)
      << F.Text;
  // The unnamed section is a name of its own.
  Found Mixed = races(twoUpdates(Second::CriticalA, /*FirstUnnamed=*/true));
  EXPECT_EQ(Mixed.Races, 1u) << Mixed.Text;
  EXPECT_NE(Mixed.Text.find("unnamed-critical "), std::string::npos)
      << Mixed.Text;
}

TEST(Critical, ACriticalSectionAgainstAnAtomicRaces) {
  Found F = races(twoUpdates(Second::Atomic));
  EXPECT_EQ(F.Races, 1u) << F.Text;
  ASSERT_EQ(F.Listed.size(), 2u);
  const RacesTool::Race &Rc = F.Listed[0];
  EXPECT_TRUE(Rc.AtomicA != Rc.AtomicB);
  EXPECT_TRUE(bool(Rc.CriticalA) != bool(Rc.CriticalB));
}

TEST(Critical, ACriticalSectionAgainstAPlainAccessRaces) {
  Found F = races(twoUpdates(Second::Plain));
  EXPECT_EQ(F.Races, 1u) << F.Text;
  ASSERT_EQ(F.Listed.size(), 2u);
  EXPECT_TRUE(bool(F.Listed[0].CriticalA) != bool(F.Listed[0].CriticalB));
  EXPECT_FALSE(F.Listed[0].AtomicA || F.Listed[0].AtomicB);
}

TEST(Critical, JsonNamesTheSections) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  RacesTool Tool(OS, /*Json=*/true);
  decodeWith(Tool, twoUpdates(Second::CriticalB));
  OS.flush();
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object &Race =
      *V->getAsObject()->getArray("listed")->front().getAsObject();
  EXPECT_EQ(Race.getObject("a")->getObject("access")->getString("critical"),
            "a");
  EXPECT_EQ(Race.getObject("b")->getObject("access")->getString("critical"),
            "b");
}

TEST(Critical, DumpNamesTheSectionIreeCompatDoesNot) {
  std::vector<uint8_t> Bytes = twoUpdates(Second::CriticalB);
  DumpResult D = dump(Bytes);
  ASSERT_EQ(D.Error, "");
  EXPECT_NE(D.Text.find("VALUE 0002 = in critical section 'a'\n"),
            std::string::npos)
      << D.Text;
  EXPECT_NE(D.Text.find("VALUE 0002 = in critical section 'b'\n"),
            std::string::npos)
      << D.Text;
  DumpResult Compat = dumpCompat(Bytes);
  ASSERT_EQ(Compat.Error, "");
  EXPECT_NE(Compat.Text.find("VALUE 0002 = <<unknown type: 46>>\n"),
            std::string::npos)
      << Compat.Text;
  DumpResult Unnamed = dump(twoUpdates(Second::Unnamed, true));
  EXPECT_NE(Unnamed.Text.find("in the unnamed critical section"),
            std::string::npos)
      << Unnamed.Text;
}

TEST(Critical, AMarkWithoutItsRecordsIsDamage) {
  {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Critical, 2, format::criticalNameHash("a"));
    Ring.load(0x2000, 4);
    Ring.value(format::ValueType::Float32, 0, 0);
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    DumpResult D = dump(B.bytes());
    EXPECT_NE(D.Error.find("the critical section mark at ring offset 0x20 is "
                           "not followed by its records"),
              std::string::npos)
        << D.Error;
  }
  {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Critical, 3, format::criticalNameHash("a"));
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    DumpResult D = dump(B.bytes());
    EXPECT_NE(D.Error.find("critical section mark with record count 3"),
              std::string::npos)
        << D.Error;
  }
}

/// How the second workgroup's helper updates the word the first one's
/// helper updates inside critical(a) (the helper's records carry no mark;
/// a CriticalSection VALUE before them enters the section, one after
/// leaves it).
enum class Helper { InsideA, InsideB, AfterLeaving };

std::vector<uint8_t> helperUpdates(Helper How) {
  ExtensionSpec X;
  X.AccessSites = {{"omp.cc", 3, 40, 2, "add", "*t", std::nullopt}};
  // No access site names them: the metadata's list does.
  X.CriticalSections = {"a", "b"};
  constexpr uint64_t Total = 0x2000;
  const uint64_t A = format::criticalNameHash("a");
  const uint64_t B = format::criticalNameHash("b");
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  Ring.value(format::ValueType::CriticalSection, 1, A);
  Ring.load(Total + format::accessSiteBits(1), 4);
  Ring.store(Total + format::accessSiteBits(1), 4);
  Ring.value(format::ValueType::CriticalSection, 0, A);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
  Ring.value(format::ValueType::CriticalSection, 1,
             How == Helper::InsideB ? B : A);
  if (How == Helper::AfterLeaving)
    Ring.value(format::ValueType::CriticalSection, 0, A);
  Ring.load(Total + format::accessSiteBits(1), 4);
  Ring.store(Total + format::accessSiteBits(1), 4);
  if (How != Helper::AfterLeaving)
    Ring.value(format::ValueType::CriticalSection, 0,
               How == Helper::InsideB ? B : A);
  TraceBuilder Builder;
  Builder.metadata({{"omp for at omp.cc:8 in f", {}, {}, {}}}, {0}, &X);
  Builder.ring(Ring);
  return Builder.bytes();
}

TEST(Critical, WhatAnEnteredSectionRecordsIsInsideIt) {
  Found Same = races(helperUpdates(Helper::InsideA));
  EXPECT_EQ(Same.Races, 0u) << Same.Text;
  Found Other = races(helperUpdates(Helper::InsideB));
  EXPECT_EQ(Other.Races, 1u) << Other.Text;
  EXPECT_NE(Other.Text.find("critical(a) store omp.cc:3 `*t`  vs  "
                            "critical(b) load/store omp.cc:3 `*t`"),
            std::string::npos)
      << Other.Text;
  Found Left = races(helperUpdates(Helper::AfterLeaving));
  EXPECT_EQ(Left.Races, 1u) << Left.Text;
  DumpResult D = dump(helperUpdates(Helper::InsideB));
  ASSERT_EQ(D.Error, "");
  EXPECT_NE(D.Text.find("VALUE 0001 = enters critical section"),
            std::string::npos)
      << D.Text;
  EXPECT_NE(D.Text.find("VALUE 0000 = leaves critical section"),
            std::string::npos)
      << D.Text;
}

/// A stream-mode chunk of ring 0 (sequence \p Sequence).
format::RingTrailer streamChunk(uint64_t Sequence) {
  format::RingTrailer T{};
  T.Flags = format::kTrailerStream;
  T.ChunkSequence = Sequence;
  T.BaseVirtualOffset = Sequence * 4096;
  T.RingSize = 4096;
  return T;
}

// The section stays entered across a copy of the WORKGROUP record (a
// stream-mode buffer change) because the copy enters it again, as the
// runtime repeats a workgroup's open sections after every copy.
TEST(Critical, ACopyOfTheRecordEntersTheSectionAgain) {
  const uint64_t A = format::criticalNameHash("a");
  constexpr uint64_t Total = 0x2000;
  auto Build = [&](bool Repeated) {
    TraceBuilder B;
    addSimpleMetadata(B);
    RingBuilder C0(4096);
    const uint64_t First = C0.head();
    C0.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
    C0.value(format::ValueType::CriticalSection, 1, A);
    C0.load(Total, 4);
    C0.trailer(streamChunk(0));
    B.ring(C0);
    RingBuilder C1(4096);
    C1.continuation(0, {1, 0, 0}, {2, 1, 1}, 0, First);
    if (Repeated)
      C1.value(format::ValueType::CriticalSection, 1, A);
    C1.store(Total, 4);
    C1.value(format::ValueType::CriticalSection, 0, A);
    C1.workgroup(0, {0, 0, 0}, {2, 1, 1}, 1);
    C1.value(format::ValueType::CriticalSection, 1, A);
    C1.store(Total, 4);
    C1.value(format::ValueType::CriticalSection, 0, A);
    C1.trailer(streamChunk(1));
    B.ring(C1);
    return B.bytes();
  };
  Found Kept = races(Build(true));
  EXPECT_EQ(Kept.Races, 0u) << Kept.Text;
  // Without it the store after the copy is outside the section.
  Found Lost = races(Build(false));
  EXPECT_EQ(Lost.Races, 1u) << Lost.Text;
}

TEST(Critical, ASectionValueOfAnotherOrdinalIsDamage) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.value(format::ValueType::CriticalSection, 2,
             format::criticalNameHash("a"));
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult D = dump(B.bytes());
  EXPECT_NE(D.Error.find("critical section VALUE with ordinal 2 (1 enters "
                         "the section, 0 leaves it)"),
            std::string::npos)
      << D.Error;
}

/// The first workgroup updates the word inside critical(b), a statement
/// nested in the critical(a) block its workgroup entered; the second
/// inside critical(\p Second) alone (a helper's records inside an entered
/// section when \p SecondEnters).
std::vector<uint8_t> nestedUpdates(std::string_view Second,
                                   bool SecondEnters = false) {
  ExtensionSpec X;
  X.AccessSites = {
      {"omp.cc", 10, 5, 2, "f", "*total", std::string("a")},
      {"omp.cc", 14, 5, 2, "f", "*total", std::string("b")},
      {"omp.cc", 20, 5, 2, "f", "*total", std::string("c")},
      {"omp.cc", 3, 40, 2, "add", "*t", std::nullopt},
  };
  X.CriticalSections = {"a", "b", "c"};
  constexpr uint64_t Total = 0x2000;
  const uint64_t A = format::criticalNameHash("a");
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  Ring.value(format::ValueType::CriticalSection, 1, A);
  Ring.critical("b", Op::Update, Total, 4, format::accessSiteBits(2));
  Ring.value(format::ValueType::CriticalSection, 0, A);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
  if (SecondEnters) {
    const uint64_t Name = format::criticalNameHash(Second);
    Ring.value(format::ValueType::CriticalSection, 1, Name);
    Ring.load(Total + format::accessSiteBits(4), 4);
    Ring.store(Total + format::accessSiteBits(4), 4);
    Ring.value(format::ValueType::CriticalSection, 0, Name);
  } else {
    Ring.critical(Second, Op::Update, Total, 4,
                  format::accessSiteBits(Second == "a" ? 1 : 3));
  }
  TraceBuilder B;
  B.metadata({{"omp for at omp.cc:8 in f", {}, {}, {}}}, {0}, &X);
  B.ring(Ring);
  return B.bytes();
}

// Nested sections each exclude their name's others: an access in
// critical(b) inside critical(a) is synchronised with one in critical(a)
// alone, whichever way the sections were recorded.
TEST(Critical, NestedSectionsShareTheirOuterName) {
  Found Marked = races(nestedUpdates("a"));
  EXPECT_EQ(Marked.Races, 0u) << Marked.Text;
  Found Entered = races(nestedUpdates("a", /*SecondEnters=*/true));
  EXPECT_EQ(Entered.Races, 0u) << Entered.Text;
  Found Other = races(nestedUpdates("c"));
  EXPECT_EQ(Other.Races, 1u) << Other.Text;
  ASSERT_FALSE(Other.Listed.empty());
  const RacesTool::Race &Rc = Other.Listed[0];
  ASSERT_TRUE(Rc.CriticalA && Rc.CriticalB);
  EXPECT_EQ(*Rc.CriticalA, "b");
  EXPECT_EQ(Rc.EnclosingA, std::vector<std::string>{"a"});
  EXPECT_EQ(*Rc.CriticalB, "c");
  EXPECT_TRUE(Rc.EnclosingB.empty());
  EXPECT_NE(Other.Text.find("critical(a) critical(b) store omp.cc:14"),
            std::string::npos)
      << Other.Text;
  std::string Json;
  llvm::raw_string_ostream OS(Json);
  RacesTool Tool(OS, /*Json=*/true);
  decodeWith(Tool, nestedUpdates("c"));
  OS.flush();
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Array *Listed = V->getAsObject()->getArray("listed");
  ASSERT_TRUE(Listed && !Listed->empty()) << Json;
  const llvm::json::Object *Access =
      Listed->front().getAsObject()->getObject("a")->getObject("access");
  EXPECT_EQ(Access->getString("critical"), "b") << Json;
  const llvm::json::Array *Around = Access->getArray("enclosing_critical");
  ASSERT_TRUE(Around && Around->size() == 1) << Json;
  EXPECT_EQ((*Around)[0].getAsString(), "a") << Json;
}

} // namespace critical_sections
