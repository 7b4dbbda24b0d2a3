"""What the end-to-end scripts share: counted checks and a clean
environment for the programs they run."""
import os
import sys

_failures = []
_checks = 0


def check(condition, message):
    """Counts one check; prints and remembers it when it fails."""
    global _checks
    _checks += 1
    if not condition:
        _failures.append(message)
        print("FAIL: " + message)


def finish():
    """Prints the closing 'N passed, M failed' line and exits with the
    script's status."""
    print("%d passed, %d failed" % (_checks - len(_failures), len(_failures)))
    sys.exit(1 if _failures else 0)


def clean_env(extra=None):
    """The environment without any WGTRACE_* setting of the caller's, plus
    \\p extra."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WGTRACE_")}
    env.update(extra or {})
    return env
