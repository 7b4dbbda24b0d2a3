"""Budget results as bench/budgets.py reads them: every benchmark script that
judges a budget writes, with --json PATH, one object per budget it measured
(the key bench/budgets.py lists it under, what was measured as text, the
number compared with the limit, and whether the budget is met), next to the
table it prints for people."""
import json


class Results:
    def __init__(self, path):
        self.path = path
        self.rows = []

    def add(self, key, value, met, measured):
        """key: the budget's name in bench/budgets.py; value: the number
        judged (a ratio, a rate); measured: how to print it."""
        self.rows.append({"key": key, "value": value, "met": bool(met), "measured": measured})

    def write(self):
        if self.path:
            with open(self.path, "w") as out:
                json.dump(self.rows, out, indent=1)
