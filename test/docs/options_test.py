"""One list of options everywhere: README.md, docs/*.md, each tool's
--help and the man pages (man/) name the same options for the
wgtrace-view subcommands and wgtrace-rewrite, the same WGTRACE_*
environment variables (the ones the runtime reads) and the same keywords
of the CMake function wgtrace_instrument_target (the ones
cmake/WgtraceInstrument.cmake parses). A mismatch fails with the missing
and extra names of each place.

Where each list is:
- wgtrace-view: `wgtrace-view SUB --help` (the truth); docs/VIEWER.md's
  "Options at a glance" table and each subcommand's heading; README.md's
  table of subcommands (its "options" column); man/wgtrace-view.h2m's
  prose may name only options the tool has (the page's OPTIONS section is
  --help itself, which test man.pages checks).
- wgtrace-rewrite: --help; docs/REWRITER.md's table of options; the
  options man/wgtrace-rewrite.h2m and README.md name.
- environment: the getenv calls of runtime/; README.md's and docs/DESIGN.md's
  tables; man/wgtrace.7's ENVIRONMENT section; the
  variables the ENVIRONMENT sections of the .h2m pages name.
- CMake: cmake_parse_arguments in cmake/WgtraceInstrument.cmake; the
  signature in README.md, docs/DESIGN.md and man/wgtrace.7.

Usage: options_test.py <wgtrace-view> <wgtrace-rewrite> <source dir>
"""

import os
import re
import subprocess
import sys

VIEW, REWRITE, SRC = sys.argv[1:4]
# Every llvm::cl tool has these; no document needs to repeat them.
GENERIC = {"--help", "--help-list", "--version"}
failures = []


def read(path):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return f.read()


def help_options(*command):
    """The options llvm::cl's --help lists: '  --name=<v>  - text'."""
    out = subprocess.run(list(command) + ["--help"], capture_output=True, text=True,
                         check=True).stdout
    return {m.group(1) for m in re.finditer(r"^  (-[^ =]+).* - ", out, re.M)} - GENERIC


def compare(what, where, listed, truth):
    missing, extra = sorted(truth - listed), sorted(listed - truth)
    if missing or extra:
        failures.append("%s: %s lists %s; missing: %s; extra: %s" % (
            what, where, " ".join(sorted(listed)) or "nothing",
            " ".join(missing) or "none", " ".join(extra) or "none"))


def options_in(text):
    """--name and -x options named in markdown or roff text."""
    text = text.replace("\\-", "-")
    return {m.group(1) for m in re.finditer(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", text)} - GENERIC


def table(text, heading):
    """The rows of the first markdown table after `heading`, as lists of
    cells."""
    start = text.find(heading)
    if start < 0:
        failures.append("no table after '%s'" % heading)
        return []
    rows = []
    for line in text[start:].splitlines()[0 if heading.startswith("|") else 1:]:
        if line.startswith("|"):
            cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
            rows.append([c.strip().replace("\\|", "|") for c in cells])
        elif rows:
            break
    return rows[2:]  # the header and its rule


# -- wgtrace-view --------------------------------------------------------------

top = subprocess.run([VIEW, "--help"], capture_output=True, text=True, check=True).stdout
subcommands = re.findall(r"^  (\w[\w-]*) +- ", top.split("SUBCOMMANDS:")[1], re.M)
view_truth = {sub: help_options(VIEW, sub) for sub in subcommands}
all_view_options = set().union(*view_truth.values())

viewer_md = read("docs/VIEWER.md")
glance = {}
for cells in table(viewer_md, "### Options at a glance"):
    glance[cells[0].strip("`")] = options_in(cells[1])
compare("wgtrace-view subcommands", "docs/VIEWER.md's options at a glance",
        set(glance), set(subcommands))
for sub in subcommands:
    compare("wgtrace-view " + sub, "docs/VIEWER.md's options at a glance",
            glance.get(sub, set()), view_truth[sub])
    headings = re.findall(r"^### `%s (.*)`$" % re.escape(sub), viewer_md, re.M)
    if not headings:
        failures.append("wgtrace-view %s: docs/VIEWER.md has no heading '### `%s ...`'"
                        % (sub, sub))
    for heading in headings:
        extra = options_in(heading) - view_truth[sub]
        if extra:
            failures.append("wgtrace-view %s: docs/VIEWER.md's heading names options it "
                            "does not have: %s" % (sub, " ".join(sorted(extra))))

readme = read("README.md")
readme_rows = {}
for cells in table(readme, "## Viewing a trace"):
    m = re.match(r"`wgtrace-view (\w+)", cells[0])
    if m:
        readme_rows[m.group(1)] = options_in(cells[2]) if len(cells) > 2 else set()
compare("wgtrace-view subcommands", "README.md's table", set(readme_rows), set(subcommands))
for sub in subcommands:
    compare("wgtrace-view " + sub, "README.md's table (options column)",
            readme_rows.get(sub, set()), view_truth[sub])

extra = options_in(read("man/wgtrace-view.h2m")) - all_view_options
if extra:
    failures.append("man/wgtrace-view.h2m names options wgtrace-view does not have: "
                    + " ".join(sorted(extra)))

# -- wgtrace-rewrite -----------------------------------------------------------

rewrite_truth = help_options(REWRITE)
rewriter_md = read("docs/REWRITER.md")
rows = table(rewriter_md, "| option | effect |")
compare("wgtrace-rewrite", "docs/REWRITER.md's table of options",
        set().union(*(options_in(cells[0]) for cells in rows)) - {"--"}, rewrite_truth)
for where, text in (("man/wgtrace-rewrite.h2m", read("man/wgtrace-rewrite.h2m")),
                    ("README.md", "\n".join(re.findall(r"wgtrace-rewrite[^\n`]*", readme)))):
    extra = options_in(text) - rewrite_truth - {"--"}
    # The compiler's flags after '--', and pkg-config's, are not the tool's.
    extra = {o for o in extra
             if not re.match(r"-(I|D|f|std|O|iquote|c$|-cflags$|-libs$)", o)}
    if extra:
        failures.append("%s names wgtrace-rewrite options it does not have: %s"
                        % (where, " ".join(sorted(extra))))

# -- environment ---------------------------------------------------------------

runtime_reads = set()
for root, _, files in os.walk(os.path.join(SRC, "runtime")):
    for name in files:
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
            runtime_reads |= set(re.findall(r'(?:getenv|readSwitch)\("(WGTRACE_[A-Z_]+)"',
                                            f.read()))
if not runtime_reads:
    failures.append("no WGTRACE_* variable found in runtime/'s getenv calls")


def variable_table(text):
    return set(re.findall(r"^\| `(WGTRACE_[A-Z_]+)`", text, re.M))


for path in ("README.md", "docs/DESIGN.md"):
    compare("environment", path + "'s table of variables", variable_table(read(path)),
            runtime_reads)


def roff_section(text, name):
    m = re.search(r"^(?:\.SH|\[)\s*\"?%s\"?\]?\s*$(.*?)(?=^(?:\.SH|\[)|\Z)" % name, text,
                  re.M | re.S)
    return m.group(1).replace("\\_", "_").replace("\\-", "-") if m else None


overview = read("man/wgtrace.7")
section = roff_section(overview, "ENVIRONMENT")
compare("environment", "man/wgtrace.7's ENVIRONMENT",
        set(re.findall(r"^\.TP\n\.B\w* (WGTRACE_[A-Z_]+)", section or "", re.M)),
        runtime_reads)
for page in ("man/wgtrace-view.h2m", "man/wgtrace-rewrite.h2m"):
    section = roff_section(read(page), "ENVIRONMENT")
    if section is None:
        failures.append(page + " has no ENVIRONMENT section")
        continue
    extra = set(re.findall(r"WGTRACE_[A-Z_]+", section)) - runtime_reads
    if extra:
        failures.append("%s's ENVIRONMENT names variables the runtime does not read: %s"
                        % (page, " ".join(sorted(extra))))

# -- CMake function ------------------------------------------------------------

cmake = read("cmake/WgtraceInstrument.cmake")
m = re.search(r'cmake_parse_arguments\(PARSE_ARGV 1 ARG\s+"([^"]*)"\s+"([^"]*)"\s+"([^"]*)"',
              cmake)
keywords = set(filter(None, ";".join(m.groups()).split(";"))) if m else set()
if not keywords:
    failures.append("cmake/WgtraceInstrument.cmake: no cmake_parse_arguments found")


def signature_keywords(text):
    m = re.search(r"wgtrace_instrument_target\((?:<target>|\w+)\)?(.*?)(?:\)|$)", text,
                  re.S)
    return set(re.findall(r"\[([A-Z_]+)\b", m.group(1))) if m else set()


compare("wgtrace_instrument_target", "README.md's example",
        set(re.findall(r"\[([A-Z_]+)\b",
                       re.search(r"wgtrace_instrument_target\(my_kernels\)(.*)", readme)
                       .group(1))), keywords)
design = read("docs/DESIGN.md")
compare("wgtrace_instrument_target", "docs/DESIGN.md's signature",
        set(re.findall(r"\[([A-Z_]+)\b",
                       design[design.index("wgtrace_instrument_target(<target>"):]
                       .split("`,")[0])), keywords)
compare("wgtrace_instrument_target", "man/wgtrace.7's CMAKE synopsis",
        set(re.findall(r"\[([A-Z_]+)\b", roff_section(overview, "CMAKE") or "")), keywords)

# -- EXIT STATUS in every man page ---------------------------------------------

for page in ("man/wgtrace-view.h2m", "man/wgtrace-rewrite.h2m", "man/wgtrace.7"):
    if roff_section(read(page), "EXIT STATUS") is None:
        failures.append(page + " has no EXIT STATUS section")

for f in failures:
    print("FAIL: " + f)
print("%d mismatch%s" % (len(failures), "" if len(failures) == 1 else "es"))
sys.exit(1 if failures else 0)
