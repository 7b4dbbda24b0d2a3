//===- trace_writer.cc - Writing the chunked trace file -------------------===//

#include "trace_writer.h"

#include "module_registry.h"
#include "ring_registry.h"

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/format.h"
#include "wgtrace/wgtrace.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace wgtrace::runtime {
namespace {

// Leaked: read by the exit handler, possibly after static destructors ran.
std::string *&traceFileOverride() {
  static std::string *Path = nullptr;
  return Path;
}

std::string tracePath() {
  if (std::string *Override = traceFileOverride())
    return *Override;
  if (const char *Env = std::getenv("WGTRACE_FILE"))
    return Env;
  return {};
}

class ChunkFile {
public:
  explicit ChunkFile(std::FILE *F) : F(F) {}

  void writeChunk(format::ChunkType Type, const void *Content,
                  uint64_t Length) {
    beginChunk(Type, Length);
    writeBytes(Content, Length);
    endChunk(Length);
  }

  void beginChunk(format::ChunkType Type, uint64_t Length) {
    format::ChunkHeader Header = {format::kChunkMagic,
                                  static_cast<uint16_t>(Type), 0, Length};
    writeBytes(&Header, sizeof(Header));
  }

  void endChunk(uint64_t Length) {
    static const uint8_t Zeros[format::kChunkAlignment] = {};
    writeBytes(Zeros, format::alignUp(Length, format::kChunkAlignment) -
                          Length);
  }

  void writeBytes(const void *Data, uint64_t Length) {
    if (Length && std::fwrite(Data, 1, Length, F) != Length)
      Failed = true;
  }

  bool failed() const { return Failed || std::ferror(F); }

private:
  std::FILE *F;
  bool Failed = false;
};

} // namespace

std::vector<uint8_t> buildMetadata() {
  flatbuffers::FlatBufferBuilder Builder;
  std::vector<flatbuffers::Offset<fb::DispatchFunctionDef>> Functions;
  std::vector<flatbuffers::Offset<fb::DispatchSiteDef>> Sites;
  std::map<std::string, uint32_t> FunctionByName;

  auto AddFunction = [&](const detail::FunctionInfo &F) {
    auto Name = Builder.CreateString(F.Name ? F.Name : "");
    auto Target = F.Target ? Builder.CreateString(F.Target)
                           : flatbuffers::Offset<flatbuffers::String>();
    auto Layout = F.Layout ? Builder.CreateString(F.Layout)
                           : flatbuffers::Offset<flatbuffers::String>();
    auto Source = F.Source ? Builder.CreateString(F.Source)
                           : flatbuffers::Offset<flatbuffers::String>();
    Functions.push_back(
        fb::CreateDispatchFunctionDef(Builder, Name, Target, Layout, Source));
    return static_cast<uint32_t>(Functions.size() - 1);
  };

  // Functions first, in id order, so that sites can name kernels of any
  // module.
  forEachModule([&](const detail::Module &M) {
    for (size_t I = 0; I < M.NumFunctions; ++I) {
      uint32_t Id = AddFunction(M.Functions[I]);
      FunctionByName.emplace(M.Functions[I].Name, Id);
    }
  });
  // A site may launch a kernel that no instrumented module defines; it
  // still needs a function entry to name it.
  std::vector<detail::FunctionInfo> Uninstrumented;
  auto ResolveCallee = [&](const char *Callee) {
    auto It = FunctionByName.find(Callee);
    if (It != FunctionByName.end())
      return It->second;
    uint32_t Id = AddFunction({Callee, nullptr, nullptr, nullptr});
    FunctionByName.emplace(Callee, Id);
    return Id;
  };
  forEachModule([&](const detail::Module &M) {
    for (size_t I = 0; I < M.NumSites; ++I)
      Sites.push_back(
          fb::CreateDispatchSiteDef(Builder, ResolveCallee(M.Sites[I].Callee)));
    for (size_t I = 0; I < M.NumFunctions; ++I)
      Sites.push_back(fb::CreateDispatchSiteDef(
          Builder, M.functionBase() + static_cast<uint32_t>(I)));
  });

  auto Root = fb::CreateDispatchInstrumentDef(
      Builder, /*version=*/0, /*flags=*/0, Builder.CreateVector(Functions),
      Builder.CreateVector(Sites));
  fb::FinishDispatchInstrumentDefBuffer(Builder, Root);
  return {Builder.GetBufferPointer(),
          Builder.GetBufferPointer() + Builder.GetSize()};
}

bool writeTrace(const std::string &Path, std::string *Error) {
  std::string Temporary = Path + ".tmp";
  std::FILE *F = std::fopen(Temporary.c_str(), "wb");
  if (!F) {
    *Error = "cannot open '" + Temporary + "': " + std::strerror(errno);
    return false;
  }
  ChunkFile Out(F);
  std::vector<uint8_t> Metadata = buildMetadata();
  Out.writeChunk(format::ChunkType::DispatchMetadata, Metadata.data(),
                 Metadata.size());
  forEachRing([&](const detail::Ring &R) {
    uint64_t Head = __atomic_load_n(&R.Head, __ATOMIC_RELAXED);
    if (Head == 0)
      return;
    uint64_t Length = format::ringChunkContentLength(ringSize(R));
    Out.beginChunk(format::ChunkType::DispatchRingBuffer, Length);
    Out.writeBytes(R.Data, Length - format::kRingHeadSize);
    Out.writeBytes(&Head, sizeof(Head));
    Out.endChunk(Length);
  });
  bool Failed = Out.failed();
  if (std::fclose(F) != 0)
    Failed = true;
  if (Failed) {
    *Error = "cannot write '" + Temporary + "': " + std::strerror(errno);
    std::remove(Temporary.c_str());
    return false;
  }
  if (std::rename(Temporary.c_str(), Path.c_str()) != 0) {
    *Error = "cannot rename '" + Temporary + "' to '" + Path +
             "': " + std::strerror(errno);
    std::remove(Temporary.c_str());
    return false;
  }
  return true;
}

static void writeTraceNow() {
  std::string Path = tracePath();
  if (Path.empty())
    return;
  std::string Error;
  if (!writeTrace(Path, &Error))
    std::fprintf(stderr, "wgtrace: error: trace not written: %s\n",
                 Error.c_str());
}

void writeTraceAtExit() {
  static std::once_flag Once;
  std::call_once(Once, [] { std::atexit(writeTraceNow); });
}

} // namespace wgtrace::runtime

namespace wgtrace {

void setTraceFile(std::string Path) {
  std::string *&Override = runtime::traceFileOverride();
  if (!Override)
    Override = new std::string;
  *Override = std::move(Path);
}

} // namespace wgtrace
