# lit suite of wgtrace-rewrite. Run through ctest (rewriter-lit), or directly:
#   python3 lit.py -sv <build>/test/rewriter
import os
import shutil
import sys

import lit.formats

config.name = "wgtrace-rewrite"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cc", ".test"]
config.excludes = ["Inputs", "differential", "algorithms", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py.in"]

# Tests run with a clean, predictable environment: no colors, C locale.
config.environment["LC_ALL"] = "C"
config.environment["TERM"] = "dumb"

tools = config.llvm_tools_dir
config.substitutions.append(("%wgtrace-rewrite", config.wgtrace_rewrite))
config.substitutions.append(("%wgtrace-version", config.wgtrace_version))
config.substitutions.append(("%llvm-version", config.llvm_version))
# Runs a command in a fresh directory outside any build tree (no
# compile_commands.json above it): %outside-build <input> <command...>
config.substitutions.append(
    ("%outside-build",
     "bash " + os.path.join(config.test_source_root, "Inputs",
                            "outside-build.sh")))
# The flags every test compiles its input with.
config.substitutions.append(
    ("%wgtrace-flags", "-I" + config.wgtrace_include_dir + " -std=c++17"))
config.substitutions.append(("%wgtrace-include", config.wgtrace_include_dir))
config.substitutions.append(("%cxx", config.cxx_compiler))
# The CHECK lines are comments of the input: blank them before rewriting so
# that the output does not contain the patterns it is checked against, while
# every other line keeps its number.
config.substitutions.append(
    ("%strip-checks",
     "sed -e 's#//[[:space:]]*[A-Z-]*CHECK[A-Z-]*:.*##'"))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%count", os.path.join(tools, "count")))
config.substitutions.append(
    ("%clang-apply-replacements",
     os.path.join(tools, "clang-apply-replacements")))

# g++ compiles the rewritten output too, where it is installed. The
# differential tests' second compiler (%gxx-option) only where the build's
# own compiler (%cxx) is not g++ already: there, it compiles the output
# with the same flags the check would.
gxx = shutil.which("g++")
cxx_is_gxx = "g++" in os.path.basename(os.path.realpath(config.cxx_compiler))
if gxx:
    config.available_features.add("gxx")
    config.substitutions.append(("%gxx-option", "" if cxx_is_gxx else "--gxx " + gxx))
    config.substitutions.append(("%gxx", gxx))
else:
    config.substitutions.append(("%gxx-option", ""))

# A test whose input uses Clang's own extensions (`_BitInt`, which g++ has
# no C++ form of) compiles its output only where the build's compiler is
# Clang.
if "clang" in os.path.basename(os.path.realpath(config.cxx_compiler)):
    config.available_features.add("cxx-clang")

# dependency-file-make.test checks that GNU Make reads the dependency file.
if shutil.which("make"):
    config.available_features.add("make")

# diff.test applies the tool's --diff output with patch(1).
if shutil.which("patch"):
    config.available_features.add("patch")

# The differential test needs the runtime library and wgtrace-view.
config.substitutions.append(("%python", sys.executable))
if getattr(config, "wgtrace_runtime_library", "") and getattr(
        config, "wgtrace_view", ""):
    config.available_features.add("runtime")
    config.substitutions.append(
        ("%wgtrace-runtime-library", config.wgtrace_runtime_library))
    config.substitutions.append(
        ("%{wgtrace-runtime-dir}",
         os.path.dirname(config.wgtrace_runtime_library)))
    config.substitutions.append(("%wgtrace-view", config.wgtrace_view))

# The algorithm oracle test builds with clang's sanitizer coverage: the
# clang of the LLVM the tool is built with.
clang = os.path.join(tools, "clang++")
if os.path.exists(clang):
    config.available_features.add("clang-sancov")
    config.substitutions.append(("%clang-sancov", clang))
