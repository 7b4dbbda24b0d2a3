#!/usr/bin/env python3
"""Shows a wgtrace tool's --help in the GNU layout help2man reads.

Usage: gnu_help.py <tool> --help | --version

llvm::cl prints "USAGE:", "OPTIONS:" and one "  --opt=<v>  - text" line per
option; help2man wants "Usage:", "Options:" and the option separated from
its text by two spaces. A tool with subcommands (wgtrace-view) gets one
usage line and one "<Subcommand> options:" section per subcommand, so that
its manual page lists every option of every subcommand. Nothing is written
by hand here: the text is the tool's own.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"^  (-\S.*?)\s+- (.*)$")
ENTRY = re.compile(r"^  (\S+)\s+- (.*)$")


def run(tool, *args):
    return subprocess.run([tool, *args], check=True, capture_output=True,
                          text=True).stdout


def sections(text):
    """The parts of llvm::cl's help: usage, options, subcommands, the rest."""
    usage, options, subcommands, rest = [], [], [], []
    part = None
    for line in text.splitlines():
        if line.startswith("OVERVIEW:") or line.startswith("SUBCOMMAND '"):
            part = None
        elif line.startswith("USAGE:"):
            usage.append(line[len("USAGE:"):].strip())
            part = None
        elif line == "OPTIONS:":
            part = options
        elif line == "SUBCOMMANDS:":
            part = subcommands
        elif part is options and line and not line.startswith(" "):
            # "Generic Options:", "<tool> options:" headings, or the extra
            # help that follows the options.
            if not line.endswith("ptions:"):
                part = rest
                rest.append(line)
        elif part is subcommands and line.strip().startswith("Type \""):
            part = None
        elif part is not None:
            part.append(line)
    return usage, options, subcommands, rest


def gnu_options(lines):
    out = []
    for line in lines:
        m = OPTION.match(line)
        if m:
            out.append("  %s  %s" % (m.group(1), m.group(2)))
    return out


def main():
    tool, what = sys.argv[1], sys.argv[2]
    if what == "--version":
        sys.stdout.write(run(tool, "--version"))
        return
    usage, options, subcommands, _ = sections(run(tool, "--help"))
    names = [m.group(1) for m in map(ENTRY.match, subcommands) if m]
    sub_usage, sub_options = [], []
    for name in names:
        u, o, _, _ = sections(run(tool, name, "--help"))
        sub_usage += u
        # The generic options (--help) are listed once, with the tool's.
        own = [line for line in gnu_options(o)
               if not re.match(r"  --help(-list)?  ", line)]
        sub_options.append((name, own))
    lines = []
    for i, u in enumerate(sub_usage or usage):
        lines.append(("Usage: " if i == 0 else "  or:  ") + u)
    lines.append("")
    if names:
        lines.append("Subcommands:")
        for m in map(ENTRY.match, subcommands):
            if m:
                lines.append("  %s  %s" % (m.group(1), m.group(2)))
        lines.append("")
    lines.append("Options:")
    lines += gnu_options(options)
    for name, own in sub_options:
        if own:
            lines += ["", "%s options:" % name.capitalize()] + own
    # The tool's closing notes (rest) are prose for a terminal; the manual
    # page has its own, from <tool>.h2m.
    print("\n".join(lines))


if __name__ == "__main__":
    main()
