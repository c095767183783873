"""Expectations files of the conformance runners (cts/run_cts.py, piglit/run_piglit.py).

One line per known non-pass result, `test name | status | reason`; `#` starts a
comment line. A result better than its line is accepted (and reported, so the
line can go); a worse one, or a non-pass result that is not listed, fails the
run. The statuses and their order are the runner's own.
"""


class Expectation:
    def __init__(self, name, status, reason, lineno):
        self.name = name
        self.status = status
        self.reason = reason
        self.lineno = lineno


class StatusOrder:
    """`rank`: the soft statuses from best (pass, 0) to worst; `hard`: the
    statuses that must be listed as exactly themselves (crashes, hangs)."""

    def __init__(self, rank, hard):
        self.rank = rank
        self.hard = hard

    def covers(self, expected, actual):
        """Whether an expected status allows the actual one."""
        if actual == 'pass':
            return True
        if actual in self.hard or expected in self.hard:
            # A crash or a hang must be listed as exactly that; a test expected
            # to crash or hang may do anything else but hang or crash differently.
            return actual == expected or actual not in self.hard
        return self.rank[actual] <= self.rank[expected]


def load_expectations(path, statuses):
    """The lines of `path` by test name; `statuses`: those a line may give.
    Returns (expectations, errors); errors are `path:line: what` strings."""
    exp = {}
    errors = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split(' | ')]
            if len(parts) != 3 or not all(parts):
                errors.append('%s:%d: expected "test name | status | reason"' % (path, lineno))
                continue
            name, status, reason = parts
            if status not in statuses:
                errors.append('%s:%d: unknown status %r (one of %s)'
                              % (path, lineno, status, ', '.join(statuses)))
                continue
            if name in exp:
                errors.append('%s:%d: %s is listed twice (first on line %d)'
                              % (path, lineno, name, exp[name].lineno))
                continue
            exp[name] = Expectation(name, status, reason, lineno)
    return exp, errors


def fmt_seconds(seconds):
    if seconds is None:
        return '-'
    seconds = int(round(seconds))
    if seconds < 60:
        return '%ds' % seconds
    return '%dm%02ds' % (seconds // 60, seconds % 60)
