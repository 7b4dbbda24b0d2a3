//===- uninstrumented.cc - Launches of kernels that are not instrumented --===//

#include "uninstrumented.h"

#include "wgtrace/format.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wgtrace::runtime {
namespace {

struct Table {
  std::mutex Lock;
  UninstrumentedPlace Places[kMaxUninstrumentedPlaces] = {};
  /// Filled entries, published after an entry is complete (the crash
  /// handler reads the table without the lock).
  unsigned Count = 0;
  uint64_t Launches = 0;
};

// Leaked: read by the exit and crash handlers.
Table &table() {
  static Table *T = new Table;
  return *T;
}

void copyInto(char *Out, size_t Size, std::string_view Text) {
  size_t N = std::min(Text.size(), Size - 1);
  std::memcpy(Out, Text.data(), N);
  Out[N] = '\0';
}

/// The kernel's type from wgtrace::dispatch's __PRETTY_FUNCTION__:
/// Clang writes "[Kernel = (lambda at f.cc:3:5) &, Args = <...>]", GCC
/// "[with Kernel = main()::<lambda(...)>&; Args = {...}]".
std::string kernelType(std::string_view Pretty) {
  size_t At = Pretty.find("Kernel = ");
  if (At == std::string_view::npos)
    return "";
  std::string_view Type = Pretty.substr(At + 9);
  size_t End = std::min(
      {Type.find(", Args = "), Type.find("; Args = "), Type.rfind(']')});
  Type = Type.substr(0, End);
  while (!Type.empty() && (Type.back() == '&' || Type.back() == ' '))
    Type.remove_suffix(1);
  if (Type.substr(0, 6) == "const ")
    Type.remove_prefix(6);
  // Clang's "(lambda at FILE:LINE:COLUMN)": the name the rewriter gives a
  // lambda kernel, but for the column.
  if (Type.size() > 2 && Type.front() == '(' && Type.back() == ')' &&
      Type.substr(1, 10) == "lambda at ") {
    Type = Type.substr(1, Type.size() - 2);
    size_t Colon = Type.rfind(':');
    if (Colon != std::string_view::npos &&
        Type.find_first_not_of("0123456789", Colon + 1) ==
            std::string_view::npos &&
        Type.find(':') != Colon)
      Type = Type.substr(0, Colon);
  }
  return std::string(Type);
}

std::string demangle(const char *Symbol) {
  int Status = 0;
  char *Text = abi::__cxa_demangle(Symbol, nullptr, nullptr, &Status);
  std::string Name = Status == 0 && Text ? Text : Symbol;
  std::free(Text);
  return Name;
}

/// The symbol of the function at \p Address in \p Object's own symbol
/// table (.symtab): an executable exports none of its functions to
/// dladdr() unless linked with -rdynamic, but keeps them there unless
/// stripped.
std::string staticSymbol(const char *Object, const void *Base,
                         const void *Address) {
  int Fd = ::open(Object, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return "";
  struct stat S;
  void *Map = MAP_FAILED;
  if (::fstat(Fd, &S) == 0 && S.st_size > 0)
    Map = ::mmap(nullptr, size_t(S.st_size), PROT_READ, MAP_PRIVATE, Fd, 0);
  ::close(Fd);
  if (Map == MAP_FAILED)
    return "";
  const auto *Bytes = static_cast<const uint8_t *>(Map);
  size_t Size = size_t(S.st_size);
  std::string Name;
  auto Inside = [&](uint64_t Offset, uint64_t Length) {
    return Offset <= Size && Length <= Size - Offset;
  };
  const auto *Header = reinterpret_cast<const Elf64_Ehdr *>(Bytes);
  if (Inside(0, sizeof(Elf64_Ehdr)) &&
      std::memcmp(Header->e_ident, ELFMAG, SELFMAG) == 0 &&
      Header->e_ident[EI_CLASS] == ELFCLASS64 &&
      Header->e_shentsize == sizeof(Elf64_Shdr) &&
      Inside(Header->e_shoff, uint64_t(Header->e_shnum) * sizeof(Elf64_Shdr))) {
    const auto *Sections =
        reinterpret_cast<const Elf64_Shdr *>(Bytes + Header->e_shoff);
    // Position-independent objects' symbols are relative to their base.
    uint64_t Wanted =
        reinterpret_cast<uintptr_t>(Address) -
        (Header->e_type == ET_DYN ? reinterpret_cast<uintptr_t>(Base) : 0);
    for (unsigned I = 0; I < Header->e_shnum && Name.empty(); ++I) {
      const Elf64_Shdr &Symbols = Sections[I];
      if (Symbols.sh_type != SHT_SYMTAB || Symbols.sh_link >= Header->e_shnum ||
          !Inside(Symbols.sh_offset, Symbols.sh_size))
        continue;
      const Elf64_Shdr &Strings = Sections[Symbols.sh_link];
      if (!Inside(Strings.sh_offset, Strings.sh_size))
        continue;
      const auto *First =
          reinterpret_cast<const Elf64_Sym *>(Bytes + Symbols.sh_offset);
      size_t Count = Symbols.sh_size / sizeof(Elf64_Sym);
      for (size_t J = 0; J < Count; ++J) {
        const Elf64_Sym &Sym = First[J];
        if (ELF64_ST_TYPE(Sym.st_info) != STT_FUNC || Sym.st_value > Wanted ||
            Wanted >= Sym.st_value + std::max<uint64_t>(Sym.st_size, 1) ||
            Sym.st_name >= Strings.sh_size)
          continue;
        const char *Text =
            reinterpret_cast<const char *>(Bytes + Strings.sh_offset) +
            Sym.st_name;
        if (std::memchr(Text, 0, Strings.sh_size - Sym.st_name))
          Name = demangle(Text);
        break;
      }
    }
  }
  ::munmap(Map, Size);
  return Name;
}

/// What to call the kernel: its function's symbol when it has one, else
/// its type.
std::string kernelName(const char *Pretty, const void *Address) {
  if (Address) {
    Dl_info Info;
    if (::dladdr(Address, &Info)) {
      if (Info.dli_sname && Info.dli_saddr == Address)
        return demangle(Info.dli_sname);
      std::string Name =
          Info.dli_fname ? staticSymbol(Info.dli_fname, Info.dli_fbase, Address)
                         : "";
      if (Name.empty() && Info.dli_fname)
        // The main program's dli_fname may be its name as started.
        Name = staticSymbol("/proc/self/exe", Info.dli_fbase, Address);
      if (!Name.empty())
        return Name;
    }
  }
  std::string Type = kernelType(Pretty ? Pretty : "");
  return Type.empty() ? "(unknown kernel)" : Type;
}

} // namespace

void noteUninstrumentedLaunch(const char *File, uint32_t Line,
                              uint32_t DispatchId, const char *PrettyFunction,
                              const void *Address, uint64_t Workgroups) {
  Table &T = table();
  // Named outside the lock: it may read the program's symbol table.
  std::string Kernel = kernelName(PrettyFunction, Address);
  if (!File)
    File = "";
  std::lock_guard<std::mutex> Guard(T.Lock);
  ++T.Launches;
  for (unsigned I = 0; I < T.Count; ++I) {
    UninstrumentedPlace &P = T.Places[I];
    if (P.Line == Line && P.DispatchId == DispatchId &&
        std::strncmp(P.File, File, sizeof(P.File) - 1) == 0 &&
        std::strncmp(P.Kernel, Kernel.c_str(), sizeof(P.Kernel) - 1) == 0) {
      ++P.Launches;
      P.Workgroups += Workgroups;
      return;
    }
  }
  if (T.Count == kMaxUninstrumentedPlaces)
    return;
  UninstrumentedPlace &P = T.Places[T.Count];
  copyInto(P.File, sizeof(P.File), File);
  copyInto(P.Kernel, sizeof(P.Kernel), Kernel);
  P.Line = Line;
  P.DispatchId = DispatchId;
  P.Launches = 1;
  P.Workgroups = Workgroups;
  __atomic_store_n(&T.Count, T.Count + 1, __ATOMIC_RELEASE);
}

const UninstrumentedPlace *uninstrumentedPlaces(unsigned &Count,
                                                uint64_t &Launches) {
  Table &T = table();
  Count = __atomic_load_n(&T.Count, __ATOMIC_ACQUIRE);
  Launches = __atomic_load_n(&T.Launches, __ATOMIC_RELAXED);
  return T.Places;
}

void reportUninstrumentedLaunches() {
  unsigned Count;
  uint64_t Launches;
  const UninstrumentedPlace *Places = uninstrumentedPlaces(Count, Launches);
  uint64_t Listed = 0;
  for (unsigned I = 0; I < Count; ++I) {
    const UninstrumentedPlace &P = Places[I];
    Listed += P.Launches;
    std::fprintf(stderr,
                 "wgtrace: warning: %s:%u launched a kernel that is not "
                 "instrumented, %s, %llu time%s (%llu workgroup%s, none of "
                 "them in the trace); rewrite the source that defines or "
                 "launches it with wgtrace-rewrite\n",
                 *P.File ? P.File : "(unknown file)", P.Line, P.Kernel,
                 static_cast<unsigned long long>(P.Launches),
                 P.Launches == 1 ? "" : "s",
                 static_cast<unsigned long long>(P.Workgroups),
                 P.Workgroups == 1 ? "" : "s");
  }
  if (Launches > Listed)
    std::fprintf(stderr,
                 "wgtrace: warning: %llu more launches of kernels that are "
                 "not instrumented, at more places than wgtrace lists\n",
                 static_cast<unsigned long long>(Launches - Listed));
}

} // namespace wgtrace::runtime
