#!/usr/bin/env python3
"""wgtrace_instrument_target's build options in an outside project built by
another compiler (g++):

- a target compiled with GCC-only options builds, the rewrite naming the
  options it left out in one note, and records its accesses (STRICT ON
  passes: every access is traced);
- an access the rewriter cannot wrap is a warning (the build goes on and
  the trace's metadata lists it as untraced), and with STRICT ON an error
  that stops the build;
- ACCESS_SITES OFF writes a file IREE's tools read exactly: no access site
  table, bare addresses; its records are those of the same program built
  with access sites, once the site bits are taken off (addresses compared
  as offsets into the kernel's buffers, which the buffer records name);
- the default build stores its records with ordinary stores (no `movnti`
  in its code), also in a file with atomic operations; TEMPORAL_RECORDS
  OFF builds the same programs with non-temporal stores, which record
  what the default builds record;
- the default build reserves room per statement (WGTRACE_RESERVE_AT in
  its rewritten source); RESERVE_RECORDS OFF checks per record (none), and
  computes and records what the default build does;
- `wgtrace-view convert --iree` of the trace with sites is such a file
  too: no access site table, no wgtrace VALUE records, the workgroups and
  accesses (kind, length) of the ACCESS_SITES OFF build in order, and the
  original's address words with the site bits taken off.

Usage: build_options_test.py <wgtrace-rewrite> <runtime library>
                             <wgtrace source dir> <c++ compiler> <work dir>
                             <wgtrace-view>
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference_decoder  # noqa: E402
from checks import check, clean_env, finish  # noqa: E402

REWRITE, RUNTIME, SOURCE_DIR, CXX, WORK, VIEW = sys.argv[1:7]
BUILD = os.path.join(WORK, "build")
BUFFER_BASE, BUFFER_EXTENT = 0x40, 0x41


def build(target):
    result = subprocess.run(["cmake", "--build", BUILD, "--target", target],
                            capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def trace(target, *arguments):
    path = os.path.join(WORK, target + ".trace")
    result = subprocess.run([os.path.join(BUILD, target)] + list(arguments), capture_output=True,
                            text=True, env=clean_env({"WGTRACE_FILE": path,
                                                      "WGTRACE_DEVICE": "local-sync"}))
    check(result.returncode == 0, "%s failed: %s" % (target, result.stderr))
    with open(path, "rb") as f:
        records, meta = reference_decoder.records(f.read())
    return result.stdout, records, meta


def relative(records):
    """The records with each address made an offset into the buffer
    parameter of its workgroup that holds it (by the workgroup's buffer
    records), and the site bits left out."""
    out, bases = [], []
    for r in records:
        if r["kind"] == "WORKGROUP":
            bases = []
            out.append(("WORKGROUP", r["site"], r["id"]))
        elif r["kind"] == "VALUE" and r["type"] == BUFFER_BASE:
            bases.append((r["bits"], r["ordinal"]))
            out.append(("BASE", r["ordinal"]))
        elif r["kind"] == "VALUE":
            out.append(("VALUE", r["type"], r["ordinal"], r["bits"]))
        elif r["kind"] in ("LOAD", "STORE"):
            below = [b for b in bases if b[0] <= r["address"]]
            base, ordinal = max(below) if below else (0, -1)
            out.append((r["kind"], r["length"], ordinal, r["address"] - base))
    return out


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
configure = subprocess.run(
    ["cmake", "-G", "Ninja", "-S", os.path.join(HERE, "build_options", "project"),
     "-B", BUILD, "-DCMAKE_CXX_COMPILER=" + CXX, "-DWGTRACE_REWRITE=" + REWRITE,
     "-DWGTRACE_RUNTIME=" + RUNTIME, "-DWGTRACE_SOURCE_DIR=" + SOURCE_DIR,
     "-DSOURCES=" + os.path.join(HERE, "build_options", "sources")],
    capture_output=True, text=True)
check(configure.returncode == 0, "configure failed: %s" % configure.stderr)

# 1. GCC-only options.
status, log = build("gcc_flags_app")
check(status == 0, "the target with GCC-only options does not build:\n%s" % log)
check("ignoring flags that clang does not know: -fopt-info-vec-missed=" in log
      and "-fno-tree-pre -fipa-pta" in log,
      "no note naming the options left out:\n%s" % log)
check("-fno-semantic-interposition" not in log.split("does not know:")[-1].split("\n")[0],
      "an option clang knows is named as left out:\n%s" % log)
output, records, _ = trace("gcc_flags_app")
check(output.strip() == "160", "gcc_flags_app computes %r, not 160" % output)
check(sum(r["kind"] == "WORKGROUP" for r in records) == 8, "8 workgroups")
check(sum(r["kind"] == "STORE" for r in records) == 64, "64 stores")

# 2. STRICT: a warning by default, an error with STRICT ON.
status, log = build("lenient_app")
check(status == 0, "lenient_app does not build:\n%s" % log)
check("warning: store of '(p)[1]' is not traced" in log,
      "no warning for the untraced store:\n%s" % log)
output, records, meta = trace("lenient_app")
check(output.strip() == "0", "lenient_app computes %r, not 0" % output)
check([(u["text"], u["place"][1]) for u in meta["untraced"]] == [("(p)[1]", 9)],
      "the metadata does not list the untraced store: %r" % meta["untraced"])
status, log = build("strict_app")
check(status != 0, "strict_app builds despite an untraced access")
check("error: store of '(p)[1]' is not traced" in log,
      "STRICT ON does not stop on the untraced store:\n%s" % log)

# 3. ACCESS_SITES OFF against the default.
for target in ("sites_app", "iree_app"):
    status, log = build(target)
    check(status == 0, "%s does not build:\n%s" % (target, log))
_, with_sites, sites_meta = trace("sites_app")
_, without, iree_meta = trace("iree_app")
memory = [r for r in with_sites if r["kind"] in ("LOAD", "STORE")]
check(sites_meta["access_sites"] is not None and len(sites_meta["access_sites"]) == 3,
      "sites_app has not its 3 access sites: %r" % sites_meta["access_sites"])
check(memory and all(r["site"] != 0 for r in memory),
      "a record of sites_app carries no access site")
check(iree_meta["access_sites"] is None, "iree_app's metadata has access sites")
check(all(r["word"] >> 48 == 0 for r in without if r["kind"] in ("LOAD", "STORE")),
      "iree_app's address words have bits above the address")
check(relative(with_sites) == relative(without),
      "the records of the two builds differ once the site bits are left out")
check(len(relative(without)) == 8 * (1 + 2 + 8 * 3),
      "%d records, not 8 workgroups of 27" % len(relative(without)))

# 4. wgtrace-view convert --iree of the trace with sites: what ACCESS_SITES
# OFF writes, from the same run (IREE's tables only, no wgtrace values).
converted_path = os.path.join(WORK, "converted.trace")
result = subprocess.run([VIEW, "convert", "--iree", os.path.join(WORK, "sites_app.trace"),
                         "-o", converted_path], capture_output=True, text=True)
check(result.returncode == 0, "convert --iree failed: %s" % result.stderr)
with open(converted_path, "rb") as f:
    converted, converted_meta = reference_decoder.records(f.read())
check(converted_meta["access_sites"] is None, "the converted file has access sites")
check(not [r for r in converted if r["kind"] == "VALUE"],
      "the converted file keeps wgtrace's VALUE records")
shape = lambda rs: [(r["kind"], r.get("length"), r.get("id")) for r in rs
                    if r["kind"] in ("WORKGROUP", "LOAD", "STORE")]
check(shape(converted) == shape(without),
      "the converted file's workgroups and accesses are not those ACCESS_SITES OFF writes")
check([r["word"] for r in converted if r["kind"] in ("LOAD", "STORE")] ==
      [r["word"] & ((1 << 48) - 1) for r in with_sites if r["kind"] in ("LOAD", "STORE")],
      "the converted file's address words are not the original's without site bits")

# 5. The record path's defaults and their opposites: the store kind, seen
# in the programs' code (`movnti` is the non-temporal store on x86-64:
# GCC's asm statement, Clang's builtin), and reserved statements, seen in
# the rewritten text; each build records what the default build records.
def nontemporal_stores(target):
    result = subprocess.run(["objdump", "-d", os.path.join(BUILD, target)],
                            capture_output=True, text=True)
    check(result.returncode == 0, "objdump -d %s failed: %s" % (target, result.stderr))
    return result.stdout.count("movnti")


def rewritten_text(target):
    """The text of every file the rewrite of target wrote."""
    texts = []
    for root, _, names in os.walk(os.path.join(BUILD, "wgtrace", target)):
        texts += [open(os.path.join(root, n)).read() for n in names if n.endswith(".cc")]
    check(texts, "no rewritten source of %s" % target)
    return "\n".join(texts)


for target in ("nontemporal_app", "reserved_app", "checked_app", "atomics_app",
               "atomics_nontemporal_app"):
    status, log = build(target)
    check(status == 0, "%s does not build:\n%s" % (target, log))
check("WGTRACE_RESERVE_AT(" in rewritten_text("reserved_app"),
      "the default build reserves no statement")
check("WGTRACE_RESERVE_AT(" not in rewritten_text("checked_app"),
      "RESERVE_RECORDS OFF reserved a statement")
reserved_output, reserved, _ = trace("reserved_app")
checked_output, checked, _ = trace("checked_app")
check(reserved_output == checked_output and relative(reserved) == relative(checked),
      "RESERVE_RECORDS OFF computes or records otherwise than the default")
check(len(reserved) > 1000, "axpy recorded %d records" % len(reserved))
if os.uname().machine == "x86_64":
    check(nontemporal_stores("sites_app") == 0, "the default build has non-temporal stores")
    check(nontemporal_stores("nontemporal_app") > 0,
          "TEMPORAL_RECORDS OFF did not make non-temporal stores")
    check(nontemporal_stores("atomics_app") == 0,
          "a file with atomic operations has non-temporal stores by default")
    check(nontemporal_stores("atomics_nontemporal_app") > 0,
          "TEMPORAL_RECORDS OFF did not make non-temporal stores with atomics")
_, nontemporal, _ = trace("nontemporal_app")
check(relative(nontemporal) == relative(with_sites),
      "TEMPORAL_RECORDS OFF records other records than the default")
histograms = []
for target in ("atomics_app", "atomics_nontemporal_app"):
    output, records, _ = trace(target, "atomic")
    histograms.append((output, relative(records)))
check(histograms[0] == histograms[1],
      "TEMPORAL_RECORDS OFF computes or records otherwise than the default")
check(len(histograms[0][1]) > 4000, "the histogram recorded %d records" %
      len(histograms[0][1]))

# 6. A C++14 target builds instrumented as C++17 in its own dialect (gnu++:
# the kernel uses `typeof`), and configuring says so.
check("wgtrace_instrument_target(cxx14_app): compiled as C++17 (its CXX_STANDARD "
      "is 14)" in configure.stdout,
      "configuring does not say cxx14_app builds as C++17:\n%s" % configure.stdout)
status, log = build("cxx14_app")
check(status == 0, "cxx14_app does not build:\n%s" % log)
output, records, _ = trace("cxx14_app")
check(output.strip() == "64", "cxx14_app computes %r, not 64" % output)
check(sum(r["kind"] == "WORKGROUP" for r in records) == 4, "cxx14_app: 4 workgroups")
check(sum(r["kind"] == "LOAD" for r in records) == 32
      and sum(r["kind"] == "STORE" for r in records) == 32,
      "cxx14_app: not 32 loads and 32 stores")
finish()
