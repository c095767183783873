#!/usr/bin/env python3
"""Run piglit's OpenCL profile against one or more ICDs through the loader.

Each ICD (a vendors folder or a single .icd file) is run with the loader
restricted to it (OCL_ICD_VENDORS), by piglit's own runner (`piglit run cl`)
with a per-test timeout: a test that outlives it is killed with its process
group and counted as a timeout (a hang).  The runner then prints, per ICD,
the pass/fail/skip/crash/timeout counts and a side-by-side table of the tests
whose result differs, and checks the first ICD against an expectations file.

Exit status: 0 when every result of the first ICD is at least as good as its
expectation, 1 when one is worse (or a crash or hang is not listed), 2 on a
usage error, 77 when piglit (or its OpenCL profile) is not installed.

Only the Python 3 standard library is used.
"""

import argparse
import bz2
import collections
import glob
import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import expectations  # noqa: E402  (conformance/expectations.py)
from expectations import fmt_seconds  # noqa: E402
DEFAULT_EXPECTATIONS = os.path.join(HERE, 'expectations.txt')
SKIP_EXIT = 77

# Order of the columns; the comparison ranks of the ordinary statuses.  A crash
# or a timeout is never "better" or "worse" than another status: it must be
# listed as exactly that.
STATUSES = ['pass', 'fail', 'warn', 'skip', 'crash', 'timeout', 'incomplete', 'notrun']
ALWAYS_SHOWN = ['pass', 'fail', 'skip', 'crash', 'timeout']
RANK = {'pass': 0, 'skip': 1, 'warn': 2, 'fail': 3}
HARD = ('crash', 'timeout', 'incomplete', 'notrun')
STATUS_ORDER = expectations.StatusOrder(RANK, HARD)
# piglit's other statuses, folded into the ones above.
FOLD = {'dmesg-warn': 'warn', 'dmesg-fail': 'fail'}


def die(message):
    """A usage error: the message, then exit status 2."""
    print('run_piglit: ' + message, file=sys.stderr)
    sys.exit(2)


def norm_status(status):
    status = str(status).lower()
    return FOLD.get(status, status)


# --------------------------------------------------------------------------
# ICDs


class Icd:
    """One ICD under test: a label, the OCL_ICD_VENDORS value, a results folder."""

    def __init__(self, spec):
        label = None
        path = spec
        # LABEL=PATH names the ICD explicitly.
        if '=' in spec and not os.path.exists(spec):
            label, path = spec.split('=', 1)
        self.path = os.path.abspath(path)
        if os.path.isdir(self.path):
            icds = sorted(glob.glob(os.path.join(self.path, '*.icd')))
            if not icds:
                die('no .icd file in %s' % self.path)
            stems = [os.path.splitext(os.path.basename(p))[0] for p in icds]
        elif os.path.isfile(self.path):
            stems = [os.path.splitext(os.path.basename(self.path))[0]]
        else:
            die('no such ICD (folder or .icd file): %s' % path)
        self.label = label or '+'.join(stems)
        self.results_dir = None
        self.seconds = None  # wall time of the run, None when reused
        self.tests = {}      # name -> result dict


def unique_labels(icds):
    seen = collections.Counter()
    for icd in icds:
        seen[icd.label] += 1
        if seen[icd.label] > 1:
            icd.label = '%s#%d' % (icd.label, seen[icd.label])


# --------------------------------------------------------------------------
# Running piglit


def piglit_filters(args):
    out = []
    for regex in args.include:
        out += ['-t', regex]
    for regex in args.exclude:
        out += ['-x', regex]
    return out


def list_tests(args):
    """The names of the tests the profile holds after the filters (None: no profile)."""
    cmd = [args.piglit, 'print-cmd', '--format', '{name}'] + piglit_filters(args) + [args.profile]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, check=False)
    if proc.returncode != 0:
        print('run_piglit: %s failed:\n%s' % (' '.join(cmd), proc.stderr.strip()))
        return None
    return [line for line in proc.stdout.splitlines() if line]


def run_icd(icd, args, total):
    """Run the profile against one ICD; leave piglit's results in icd.results_dir."""
    os.makedirs(icd.results_dir, exist_ok=True)
    log_path = icd.results_dir + '.log'
    env = dict(os.environ)
    env['OCL_ICD_VENDORS'] = icd.path
    env.pop('OPENCL_VENDOR_PATH', None)
    # piglit's timeout would be switched off by this.
    env.pop('PIGLIT_NO_TIMEOUT', None)
    cmd = [args.piglit, 'run', '-b', 'json', '-l', 'quiet', '-o',
           '--timeout', str(args.timeout), '-n', icd.label]
    if args.jobs > 1:
        # piglit runs OpenCL tests one at a time unless told they may run
        # together (it assumes a GPU); CPU ICDs are safe to run side by side.
        cmd += ['-c', '-j', str(args.jobs)]
    else:
        cmd += ['-1']
    cmd += piglit_filters(args) + [args.profile, icd.results_dir]
    print('==> %s: OCL_ICD_VENDORS=%s %s' % (icd.label, icd.path, ' '.join(cmd)), flush=True)
    start = time.monotonic()
    last_report = start
    with open(log_path, 'w') as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            while proc.poll() is None:
                time.sleep(1)
                now = time.monotonic()
                if now - last_report >= args.progress:
                    last_report = now
                    done = len(glob.glob(os.path.join(icd.results_dir, 'tests', '*.json')))
                    print('    %s: %d/%d tests done, %s' % (icd.label, done, total,
                                                          fmt_seconds(now - start)), flush=True)
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            raise
    icd.seconds = time.monotonic() - start
    if proc.returncode != 0:
        print('    %s: piglit exited with status %d (log: %s)' % (icd.label, proc.returncode, log_path))
        with open(log_path, errors='replace') as log:
            tail = log.read().splitlines()[-15:]
        for line in tail:
            print('    | ' + line)
    print('    %s: done in %s' % (icd.label, fmt_seconds(icd.seconds)), flush=True)


# --------------------------------------------------------------------------
# Reading piglit's results


def read_json(path):
    opener = {'.bz2': bz2.open, '.gz': gzip.open, '.xz': lzma.open}.get(
        os.path.splitext(path)[1], open)
    with opener(path, 'rt') as f:
        return json.load(f)


def load_results(results_dir):
    """name -> {'result', 'subtests', 'out', 'err', 'returncode', 'time'}.

    Reads the final results.json[.bz2|.gz|.xz] or, for an interrupted run,
    the per-test files piglit leaves in tests/."""
    tests = {}
    finals = [p for p in glob.glob(os.path.join(results_dir, 'results.json*'))
              if not p.endswith('.old')]
    if finals:
        data = read_json(sorted(finals)[0])
        tests = data.get('tests', {})
    else:
        for path in glob.glob(os.path.join(results_dir, 'tests', '*.json')):
            try:
                tests.update(read_json(path))
            except (ValueError, OSError):
                pass  # a test still being written when piglit was stopped
    out = {}
    for name, res in tests.items():
        subtests = {k: norm_status(v) for k, v in (res.get('subtests') or {}).items()
                    if k != '__type__'}
        elapsed = None
        t = res.get('time') or {}
        if 'start' in t and 'end' in t:
            elapsed = t['end'] - t['start']
        out[name] = {
            'result': norm_status(res.get('result', 'notrun')),
            'subtests': subtests,
            'out': res.get('out') or '',
            'err': res.get('err') or '',
            'returncode': res.get('returncode'),
            'time': elapsed,
        }
    return out


def has_results(results_dir):
    return bool(glob.glob(os.path.join(results_dir, 'results.json*')) or
                glob.glob(os.path.join(results_dir, 'tests', '*.json')))


# --------------------------------------------------------------------------
# Expectations


def load_expectations(path):
    """Lines `test name | status | reason`; `#` starts a comment line."""
    statuses = [s for s in RANK if s != 'pass'] + ['crash', 'timeout']
    exp, errors = expectations.load_expectations(path, statuses)
    if errors:
        die('bad expectations file:\n' + '\n'.join(errors))
    return exp


covers = STATUS_ORDER.covers


def check_units(tests):
    """(unit name, test name, actual status) for every non-pass result.

    A test with subtests gives one unit per non-pass subtest ("test@subtest"),
    unless the whole test crashed or hung; any other test is one unit."""
    units = []
    for name, res in sorted(tests.items()):
        status = res['result']
        if status == 'pass':
            continue
        bad_subs = [(s, st) for s, st in sorted(res['subtests'].items()) if st != 'pass']
        if status in HARD or not bad_subs:
            units.append((name, name, status))
        else:
            for sub, st in bad_subs:
                units.append(('%s@%s' % (name, sub), name, st))
    return units


def check_expectations(icd, exp, ran):
    """Print the comparison; return the number of results worse than expected."""
    tests = icd.tests
    worse = []
    for unit, test, actual in check_units(tests):
        e = exp.get(unit) or exp.get(test)
        if e is None or not covers(e.status, actual):
            worse.append((unit, actual, e))
    better = []
    for e in sorted(exp.values(), key=lambda e: e.lineno):
        actual = unit_status(tests, e.name)
        if actual is None:
            test = e.name if e.name in ran else e.name.rsplit('@', 1)[0]
            if test not in ran:
                continue  # filtered out of this run
            if test in tests and tests[test]['result'] in HARD:
                continue  # the test crashed or hung before that subtest
            if test in tests and tests[test]['result'] == 'pass':
                better.append((e, 'pass'))
            else:
                better.append((e, 'not reported'))
            continue
        if actual != e.status and covers(e.status, actual):
            better.append((e, actual))

    print()
    print('==> %s against %s' % (icd.label, icd.expectations_path))
    if worse:
        print('%d result(s) worse than expected:' % len(worse))
        for unit, actual, e in worse:
            expected = e.status if e else 'pass (not listed)'
            print('  %-9s expected %-18s %s' % (actual, expected, unit))
            msg = failure_summary(tests, unit)
            if msg:
                print('            ' + msg)
    else:
        print('no result worse than expected')
    if better:
        print('%d listed result(s) better than expected or gone (shrink the expectations):' % len(better))
        for e, actual in better:
            print('  line %-4d %s -> %s  %s' % (e.lineno, e.status, actual, e.name))
    return len(worse)


def unit_status(tests, unit):
    if unit in tests:
        return tests[unit]['result']
    if '@' in unit:
        test, sub = unit.rsplit('@', 1)
        if test in tests and sub in tests[test]['subtests']:
            return tests[test]['subtests'][sub]
    return None


def failure_summary(tests, unit):
    """A one-line hint from the test's output: its last meaningful line."""
    test = unit if unit in tests else unit.rsplit('@', 1)[0]
    res = tests.get(test)
    if not res:
        return ''
    lines = [l.strip() for l in (res['out'] + '\n' + res['err']).splitlines()]
    # piglit's headers start with '#', except the reason a device is skipped.
    lines = [l for l in lines if l and not l.startswith('PIGLIT') and
             (not l.startswith('#') or l.startswith('# Skipping'))]
    return lines[-1][:160] if lines else ''


def write_suggestions(icd, exp, path):
    """Write an expectations file for the current results, keeping known reasons."""
    with open(path, 'w') as f:
        f.write('# Suggested from a run against %s; fill in every TODO.\n' % icd.label)
        for unit, test, actual in check_units(icd.tests):
            e = exp.get(unit) or exp.get(test)
            reason = e.reason if e else 'TODO: ' + (failure_summary(icd.tests, unit) or 'reason')
            f.write('%s | %s | %s\n' % (unit, actual, reason))
    print('wrote %s' % path)


# --------------------------------------------------------------------------
# Reports


def counts_of(tests):
    c = collections.Counter(res['result'] for res in tests.values())
    s = collections.Counter(st for res in tests.values() for st in res['subtests'].values())
    return c, s


def print_counts(icds, names):
    shown = [s for s in STATUSES if s in ALWAYS_SHOWN or
             any(counts_of(i.tests)[0][s] for i in icds)]
    width = max(10, max(len(i.label) for i in icds) + 2)
    print()
    print('==> piglit OpenCL profile: %d tests' % len(names))
    print('%-10s' % '' + ''.join('%*s' % (width, i.label) for i in icds))
    per = [counts_of(i.tests) for i in icds]
    for status in shown:
        print('%-10s' % status + ''.join('%*d' % (width, c[status]) for c, _ in per))
    missing = [len([n for n in names if n not in i.tests]) for i in icds]
    if any(missing):
        print('%-10s' % 'no result' + ''.join('%*d' % (width, m) for m in missing))
    print('%-10s' % 'time' + ''.join('%*s' % (width, fmt_seconds(i.seconds)) for i in icds))
    sub_total = [sum(s.values()) for _, s in per]
    if any(sub_total):
        print('subtests (counted inside the tests above):')
        for status in [st for st in STATUSES if any(s[st] for _, s in per)]:
            print('  %-8s' % status + ''.join('%*d' % (width, s[status]) for _, s in per))


def print_differences(icds, names):
    if len(icds) < 2:
        return
    rows = []
    for name in names:
        row = [i.tests[name]['result'] if name in i.tests else '-' for i in icds]
        if len(set(row)) > 1:
            rows.append((name, row))
    print()
    print('==> %d test(s) whose result differs' % len(rows))
    if not rows:
        return
    width = max(10, max(len(i.label) for i in icds) + 2)
    print(''.join('%-*s' % (width, i.label) for i in icds) + 'test')
    for name, row in rows:
        print(''.join('%-*s' % (width, r) for r in row) + name)


def print_non_pass(icd, names):
    """Every non-pass test of one ICD with a hint, for --list-failures."""
    print()
    print('==> %s: non-pass tests' % icd.label)
    for name in names:
        res = icd.tests.get(name)
        if res and res['result'] != 'pass':
            print('  %-8s %s' % (res['result'], name))
            msg = failure_summary(icd.tests, name)
            if msg:
                print('           ' + msg)


# --------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run piglit's OpenCL profile against ICDs through the loader "
                    "and check the first ICD against an expectations file.")
    p.add_argument('--icd', action='append', default=[], metavar='[LABEL=]PATH',
                   help='a vendors folder or an .icd file (repeatable); the first is '
                        'checked against the expectations, the others run side by side')
    p.add_argument('--peer', action='append', default=[], metavar='[LABEL=]PATH',
                   help='another ICD to run side by side (e.g. /etc/OpenCL/vendors/pocl.icd)')
    p.add_argument('--expectations', default=DEFAULT_EXPECTATIONS,
                   help='known non-pass results of the first ICD (default: %(default)s)')
    p.add_argument('--no-expectations', action='store_true',
                   help='only run and compare, check nothing')
    p.add_argument('--timeout', type=int, default=60,
                   help='seconds before a test is killed and counted as a hang (default: %(default)s)')
    p.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1,
                   help='tests run at once (default: the number of CPUs, %(default)s)')
    p.add_argument('-t', '--include', action='append', default=[], metavar='REGEX',
                   help="run only the tests matching (piglit's -t; repeatable)")
    p.add_argument('-x', '--exclude', action='append', default=[], metavar='REGEX',
                   help="skip the tests matching (piglit's -x; repeatable)")
    p.add_argument('--results', metavar='DIR',
                   help="keep piglit's results in DIR/<label> (default: a temporary folder, removed)")
    p.add_argument('--reuse', action='store_true',
                   help='with --results, read the results already there instead of running again')
    p.add_argument('--list-failures', action='store_true',
                   help='print every non-pass test of every ICD with the last line of its output')
    p.add_argument('--suggest-expectations', metavar='FILE',
                   help='write an expectations file for the first ICD\'s results to FILE')
    p.add_argument('--progress', type=int, default=60, metavar='SECONDS',
                   help='print a progress line this often (default: %(default)s)')
    p.add_argument('--piglit', default='piglit', help='the piglit command (default: %(default)s)')
    p.add_argument('--profile', default='cl', help='the piglit profile (default: %(default)s)')
    args = p.parse_args(argv)
    if not args.icd:
        p.error('at least one --icd is needed')
    if args.reuse and not args.results:
        p.error('--reuse needs --results')
    return args


def main(argv):
    args = parse_args(argv)
    piglit = shutil.which(args.piglit)
    if piglit is None:
        print('run_piglit: piglit is not installed (apt-get install piglit); skipping')
        return SKIP_EXIT
    args.piglit = piglit

    icds = [Icd(s) for s in args.icd + args.peer]
    unique_labels(icds)
    exp = None
    if not args.no_expectations:
        exp = load_expectations(args.expectations)
        icds[0].expectations_path = args.expectations

    names = list_tests(args)
    if names is None:
        print('run_piglit: piglit has no usable %r profile; skipping' % args.profile)
        return SKIP_EXIT
    if not names:
        print('run_piglit: no test matches the filters')
        return 2

    tmp = None
    root = args.results
    if root is None:
        tmp = tempfile.mkdtemp(prefix='piglit-cl-')
        root = tmp
    try:
        for icd in icds:
            icd.results_dir = os.path.join(os.path.abspath(root), re.sub(r'[^\w.+#-]', '_', icd.label))
            if args.reuse and has_results(icd.results_dir):
                print('==> %s: reusing the results in %s' % (icd.label, icd.results_dir))
            else:
                run_icd(icd, args, len(names))
            icd.tests = load_results(icd.results_dir)

        print_counts(icds, names)
        print_differences(icds, names)
        if args.list_failures:
            for icd in icds:
                print_non_pass(icd, names)
        hard = [(n, icds[0].tests[n]['result']) for n in names
                if n in icds[0].tests and icds[0].tests[n]['result'] in HARD]
        if hard:
            print()
            print('==> %s: %d crash(es) or hang(s)' % (icds[0].label, len(hard)))
            for n, st in hard:
                print('  %-8s %s' % (st, n))
        if args.suggest_expectations:
            write_suggestions(icds[0], exp or {}, args.suggest_expectations)
        worse = 0
        if exp is not None:
            worse = check_expectations(icds[0], exp, set(names))
        if args.results:
            print()
            print("piglit's results: %s (piglit summary html OUT %s ...)"
                  % (os.path.abspath(root), icds[0].results_dir))
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if worse else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
