#!/usr/bin/env python3
"""Run the Khronos OpenCL-CTS test binaries of a user's CTS build against an ICD.

The CTS is not part of this repository: build it yourself (docs/conformance.md)
and point this script at the build folder (or at a folder where the CTS was
installed).  The tests to run come from one of the CTS's own CSV lists
(`opencl_conformance_tests_full.csv`, `..._quick.csv`, ...: lines
`Name,relative/path/to/binary args`, optionally preceded by a device type
column) or from this folder's `usmcl.csv` (the suites that apply to a CPU
device without images).  Each line runs as the CTS's run_conformance.py runs
it: the binary in its own folder, the device chosen by `CL_DEVICE_TYPE`,
`CL_PLATFORM_INDEX` and `CL_DEVICE_INDEX`.  Unlike run_conformance.py, a test
that outlives `--timeout` is killed with its process group and counted as a
timeout, several tests may run at once (`-j`), and a missing binary is
reported as "missing" instead of stopping the run.

Usage:

    run_cts.py CTS_BUILD_DIR [--list full|quick|usmcl|FILE.csv]
               [--icd DIR_OR_ICD_FILE | --platform N] [--device-type TYPE]
               [--timeout SECONDS] [-j JOBS] [-t REGEX] [-x REGEX]
               [--results DIR] [--expectations FILE] [--dry-run]

Each test's full output goes to RESULTS/NN-name.log (and the CTS's own JSON
results, asked for with CL_CONFORMANCE_RESULTS_FILENAME, to NN-name.json).
At the end a table gives each test's result (pass, fail, skip: every sub-test
not supported, crash: killed by a signal, timeout, missing), its sub-test
counts and its time, with totals; RESULTS/summary.txt and RESULTS/results.json
keep them.

Exit status: 0 when no test failed, crashed or timed out (with
`--expectations`: when every such result is listed there), 1 otherwise, 2 on a
usage error.

Only the Python 3 standard library is used.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import expectations  # noqa: E402  (conformance/expectations.py)
from expectations import fmt_seconds  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OWN_LIST = os.path.join(HERE, 'usmcl.csv')

# The CTS's lists, by short name: the file a build's source tree holds.
CTS_LISTS = {
    'full': 'opencl_conformance_tests_full.csv',
    'quick': 'opencl_conformance_tests_quick.csv',
    'no-math': 'opencl_conformance_tests_full_no_math_or_conversions.csv',
    'math': 'opencl_conformance_tests_math.csv',
    'conversions': 'opencl_conformance_tests_conversions.csv',
}

DEVICE_TYPES = ['CL_DEVICE_TYPE_DEFAULT', 'CL_DEVICE_TYPE_CPU', 'CL_DEVICE_TYPE_GPU',
                'CL_DEVICE_TYPE_ACCELERATOR', 'CL_DEVICE_TYPE_CUSTOM', 'CL_DEVICE_TYPE_ALL']

RESULTS = ['pass', 'fail', 'skip', 'crash', 'timeout', 'missing']
# Results that make the run fail unless an expectation lists them.
BAD = ('fail', 'crash', 'timeout')
# Order for "better or worse than expected"; a crash or a timeout must be
# listed as exactly that.
RANK = {'pass': 0, 'skip': 1, 'missing': 1, 'fail': 2}
HARD = ('crash', 'timeout')
STATUS_ORDER = expectations.StatusOrder(RANK, HARD)


def die(message):
    """A usage error: the message, then exit status 2."""
    print('run_cts: ' + message, file=sys.stderr)
    sys.exit(2)


# --------------------------------------------------------------------------
# Test lists


class Test:
    """One line of a CSV list: its name, command and where its binary is."""

    def __init__(self, index, name, command, device_type, lineno):
        self.index = index
        self.name = name
        self.command = command
        self.device_type = device_type
        self.lineno = lineno
        words = shlex.split(command)
        self.binary_rel = words[0] if words else ''
        self.args = words[1:]
        self.binary = None      # absolute path once found
        self.result = None      # one of RESULTS
        self.note = ''          # why: exit status, signal, missing path
        self.subtests = {}      # sub-test name -> pass/fail/skip
        self.counts = None      # (passed, failed, skipped) of the sub-tests
        self.seconds = 0.0
        self.log_path = None
        self.json_path = None


def normalize_device_type(value):
    value = value.strip()
    if value.upper() in DEVICE_TYPES:
        return value.upper()
    full = 'CL_DEVICE_TYPE_' + value.upper()
    if full in DEVICE_TYPES:
        return full
    die('unknown device type %r (one of %s)' % (value, ', '.join(DEVICE_TYPES)))
    return None


def read_list(path):
    """The tests of a CSV list, in its order.

    Lines are `Name,command` or `CL_DEVICE_TYPE_X,Name,command` (a test only
    for that device type); `#` starts a comment line."""
    tests = []
    seen = {}
    with open(path, errors='replace') as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split(',')]
            if len(parts) < 2:
                print('run_cts: %s:%d: not "Name,command": %s' % (path, lineno, line))
                continue
            device_type = None
            if len(parts) >= 3 and parts[0].upper().startswith('CL_DEVICE_TYPE_'):
                device_type = parts[0].upper()
                parts = parts[1:]
            name, command = parts[0], ','.join(parts[1:]).strip()
            if not name or not command:
                print('run_cts: %s:%d: not "Name,command": %s' % (path, lineno, line))
                continue
            # Names are keys of the results and the expectations.
            if name in seen:
                seen[name] += 1
                name = '%s #%d' % (name, seen[name])
            else:
                seen[name] = 1
            tests.append(Test(len(tests) + 1, name, command, device_type, lineno))
    return tests


def find_list(spec, cts_dir):
    """The path of the list: a file, `usmcl`, or a CTS list found near the build."""
    if spec == 'usmcl':
        return OWN_LIST
    if os.path.isfile(spec):
        return os.path.abspath(spec)
    filename = CTS_LISTS.get(spec)
    if filename is None:
        die('no such list: %s (a CSV file, usmcl, or one of %s)'
            % (spec, ', '.join(sorted(CTS_LISTS))))
    found = search_cts_file(cts_dir, filename)
    if found is None:
        die('%s not found in or near %s; give its path with --list '
            '(it is in the CTS sources, test_conformance/%s)' % (filename, cts_dir, filename))
    return found


def search_cts_file(cts_dir, filename):
    """A CTS list in the build or install folder, or in the source tree around it."""
    roots = [cts_dir, os.path.dirname(cts_dir)]
    for root in roots:
        for sub in ('', 'test_conformance', 'bin', os.path.join('share', 'OpenCL-CTS')):
            path = os.path.join(root, sub, filename)
            if os.path.isfile(path):
                return path
    for path in glob.glob(os.path.join(cts_dir, '**', filename), recursive=True):
        return path
    return None


def find_binary(cts_dir, rel):
    """The test binary a list names, in a build tree or an install folder.

    A build keeps the binaries at test_conformance/<suite>/test_<suite>; an
    install puts them all in bin/ or bin/<config>/."""
    rel = rel.replace('\\', '/')
    if rel.startswith('test_conformance/'):
        rel = rel[len('test_conformance/'):]
    base = os.path.basename(rel)
    candidates = [os.path.join(cts_dir, rel),
                  os.path.join(cts_dir, 'test_conformance', rel),
                  os.path.join(cts_dir, base),
                  os.path.join(cts_dir, 'bin', base)]
    candidates += sorted(glob.glob(os.path.join(cts_dir, 'bin', '*', base)))
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    return None


def select_tests(tests, args):
    """The tests of the list for this device type, after the filters."""
    chosen = []
    for test in tests:
        if test.device_type and test.device_type != args.device_type:
            continue
        def matches(regex):
            return re.search(regex, test.name) or re.search(regex, test.command)
        if args.include and not any(matches(r) for r in args.include):
            continue
        if any(matches(r) for r in args.exclude):
            continue
        chosen.append(test)
    return chosen


# --------------------------------------------------------------------------
# Running one test


def slug(test):
    return '%02d-%s' % (test.index, re.sub(r'[^A-Za-z0-9_.-]+', '_', test.name).strip('_'))


def test_environment(args, test):
    env = dict(os.environ)
    if args.icd:
        # The loader sees only the ICD under test.
        env['OCL_ICD_VENDORS'] = args.icd
        env.pop('OPENCL_VENDOR_PATH', None)
        env.pop('OCL_ICD_FILENAMES', None)
    env['CL_DEVICE_TYPE'] = args.device_type
    env['CL_PLATFORM_INDEX'] = str(args.platform)
    env['CL_DEVICE_INDEX'] = str(args.device_index)
    env['CL_CONFORMANCE_RESULTS_FILENAME'] = test.json_path
    return env


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return 'signal %d' % number


def run_test(test, args):
    """Run one test binary; fill in its result."""
    test.log_path = os.path.join(args.results, slug(test) + '.log')
    test.json_path = os.path.join(args.results, slug(test) + '.json')
    if os.path.exists(test.json_path):
        os.remove(test.json_path)
    if test.binary is None:
        test.result = 'missing'
        test.note = 'no binary %s' % test.binary_rel
        with open(test.log_path, 'w') as log:
            log.write('run_cts: %s: binary %s not found in %s\n'
                      % (test.name, test.binary_rel, args.cts_dir))
        return test
    cmd = [test.binary] + test.args
    start = time.monotonic()
    timed_out = False
    with open(test.log_path, 'w') as log:
        log.write('run_cts: %s\nrun_cts: cd %s && %s\n\n'
                  % (test.name, os.path.dirname(test.binary), ' '.join(shlex.quote(c) for c in cmd)))
        log.flush()
        try:
            # Its own process group, so a hang is killed with its children.
            proc = subprocess.Popen(cmd, cwd=os.path.dirname(test.binary), stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=subprocess.STDOUT,
                                    env=test_environment(args, test), start_new_session=True)
        except OSError as error:
            test.result = 'fail'
            test.note = 'cannot start: %s' % error
            log.write('run_cts: cannot start %s: %s\n' % (test.binary, error))
            return test
        with RUNNING_LOCK:
            RUNNING.add(proc)
        try:
            proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc)
        finally:
            if proc.poll() is None:  # interrupted: leave nothing behind
                kill_group(proc)
            with RUNNING_LOCK:
                RUNNING.discard(proc)
        test.seconds = time.monotonic() - start
        if timed_out:
            log.write('\nrun_cts: killed after %d s (timeout)\n' % args.timeout)
    with open(test.log_path, errors='replace') as log:
        output = log.read()
    classify(test, proc.returncode, timed_out, output)
    return test


RUNNING = set()
RUNNING_LOCK = threading.Lock()


def stop_all():
    """Kill every test still running (after an interrupt)."""
    with RUNNING_LOCK:
        procs = list(RUNNING)
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


# The harness's lines (test_common/harness/testHarness.cpp): one per sub-test
# and a closing count for the sub-tests and for the tests.
SUBTEST_LINES = [
    (re.compile(r'^(\S+) passed\s*$'), 'pass'),
    (re.compile(r'^(\S+) FAILED\s*$'), 'fail'),
    (re.compile(r'^(\S+) test not supported\s*$'), 'skip'),
    (re.compile(r'^(\S+) skipped \(requires'), 'skip'),
    (re.compile(r'^(\S+) test currently not implemented'), 'skip'),
    # The project's own CTS-style programs (conformance/usm) print these.
    (re.compile(r'^(\S+) PASSED\s*$'), 'pass'),
    (re.compile(r'^(\S+) SKIPPED \('), 'skip'),
]
CLOSING_COUNT = re.compile(r'^(PASSED|FAILED|SKIPPED) (\d+) of (\d+) (sub-)?tests?\.')
CLOSING_ONE = re.compile(r'^(PASSED|FAILED) (sub-)?test\.')
NOT_SUPPORTED = re.compile(r'not supported|skipping|skipped', re.IGNORECASE)


def parse_output(test, output):
    """Sub-test results from the output, then from the CTS's JSON file.

    Returns (closing lines seen: {'PASSED'|'FAILED'|'SKIPPED'} for the tests)."""
    closing = set()
    for line in output.splitlines():
        line = line.strip()
        for pattern, status in SUBTEST_LINES:
            match = pattern.match(line)
            if match:
                test.subtests[match.group(1)] = status
                break
        match = CLOSING_COUNT.match(line) or CLOSING_ONE.match(line)
        if match:
            closing.add(match.group(1))
    try:
        with open(test.json_path) as f:
            data = json.load(f)
        for name, status in data.get('results', {}).items():
            if status in ('pass', 'fail', 'skip'):
                test.subtests[name] = status
    except (OSError, ValueError, AttributeError):
        pass
    return closing


def classify(test, returncode, timed_out, output):
    closing = parse_output(test, output)
    values = list(test.subtests.values())
    passed, failed, skipped = values.count('pass'), values.count('fail'), values.count('skip')
    if test.subtests:
        test.counts = (passed, failed, skipped)
    if timed_out:
        test.result, test.note = 'timeout', 'killed after %d s' % test.seconds
    elif returncode < 0:
        test.result, test.note = 'crash', 'killed by %s' % signal_name(-returncode)
    elif returncode != 0:
        test.result, test.note = 'fail', 'exit status %d' % returncode
    elif failed or 'FAILED' in closing:
        # run_conformance.py fails these too: status 0 with FAILED lines.
        test.result, test.note = 'fail', 'exit status 0 but FAILED reported'
    elif not passed and (skipped or 'SKIPPED' in closing or
                         ('PASSED' not in closing and NOT_SUPPORTED.search(output))):
        test.result = 'skip'
    else:
        test.result = 'pass'
    return test


# --------------------------------------------------------------------------
# Expectations


def load_expectations(path):
    """Lines `test name | status | reason`, or `test name@sub-test | ...`."""
    exp, errors = expectations.load_expectations(path, RESULTS[1:])
    if errors:
        die('bad expectations file:\n' + '\n'.join(errors))
    return exp


covers = STATUS_ORDER.covers


def units_of(test):
    """(unit, status) for each non-pass result of a test: the failed sub-tests
    of a test that failed by them, else the test itself."""
    if test.result == 'pass':
        return []
    failed_subs = sorted(s for s, st in test.subtests.items() if st == 'fail')
    if test.result == 'fail' and failed_subs:
        return [('%s@%s' % (test.name, s), 'fail') for s in failed_subs]
    return [(test.name, test.result)]


def check_expectations(tests, exp, path):
    """Print unexpected results and stale lines; return the unexpected count."""
    by_name = {t.name: t for t in tests}
    unexpected = []
    for test in tests:
        for unit, actual in units_of(test):
            e = exp.get(unit) or exp.get(test.name)
            if e is None:
                if actual in BAD:
                    unexpected.append((unit, actual, None))
            elif not covers(e.status, actual):
                unexpected.append((unit, actual, e))
    stale = []
    for e in sorted(exp.values(), key=lambda e: e.lineno):
        name, _, sub = e.name.partition('@')
        test = by_name.get(name)
        if test is None:
            continue  # not in this run (another list, or filtered out)
        if sub:
            if test.result in HARD or test.result == 'missing':
                continue  # the sub-test never got its turn
            actual = test.subtests.get(sub)
            if actual is None:
                stale.append((e, 'not reported'))
            elif actual != e.status and covers(e.status, actual):
                stale.append((e, actual))
        elif test.result != e.status and covers(e.status, test.result):
            stale.append((e, test.result))

    print()
    print('==> against %s' % path)
    if unexpected:
        print('%d unexpected result(s):' % len(unexpected))
        for unit, actual, e in unexpected:
            expected = e.status if e else 'pass (not listed)'
            print('  %-8s expected %-18s %s' % (actual, expected, unit))
    else:
        print('no unexpected result')
    if stale:
        print('%d stale line(s): the result is better than listed (remove or lower the line):'
              % len(stale))
        for e, actual in stale:
            print('  line %-4d %s -> %s  %s' % (e.lineno, e.status, actual, e.name))
    return len(unexpected)


# --------------------------------------------------------------------------
# Reports


def summary_lines(tests, wall_seconds):
    width = max([len('test')] + [len(t.name) for t in tests]) + 2
    lines = ['%-*s %-8s %6s %6s %6s %7s  %s' % (width, 'test', 'result', 'pass', 'fail', 'skip',
                                                'time', 'note'),
             '-' * (width + 44)]
    for t in tests:
        counts = ['%6d' % c for c in t.counts] if t.counts else ['%6s' % '-'] * 3
        lines.append('%-*s %-8s %s %7s  %s' % (width, t.name, t.result, ' '.join(counts),
                                               fmt_seconds(t.seconds), t.note))
    lines.append('-' * (width + 44))
    totals = {r: sum(1 for t in tests if t.result == r) for r in RESULTS}
    subs = [sum(t.counts[i] for t in tests if t.counts) for i in range(3)]
    lines.append('totals: %d tests: %s' % (len(tests), ', '.join(
        '%d %s' % (totals[r], r) for r in RESULTS)))
    lines.append('sub-tests: %d passed, %d failed, %d skipped; wall time %s'
                 % (subs[0], subs[1], subs[2], fmt_seconds(wall_seconds)))
    return lines


def write_reports(tests, args, wall_seconds, lines):
    with open(os.path.join(args.results, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    data = {
        'cts_dir': args.cts_dir,
        'list': args.list_path,
        'icd': args.icd,
        'device_type': args.device_type,
        'platform_index': args.platform,
        'wall_seconds': round(wall_seconds, 1),
        'tests': [{'name': t.name, 'command': t.command, 'result': t.result, 'note': t.note,
                   'seconds': round(t.seconds, 1), 'subtests': t.subtests,
                   'log': os.path.basename(t.log_path or '')} for t in tests],
    }
    with open(os.path.join(args.results, 'results.json'), 'w') as f:
        json.dump(data, f, indent=1)


# --------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        description='Run the OpenCL-CTS binaries of a CTS build against an ICD, '
                    'as the CTS\'s CSV lists say, and print a summary table.')
    p.add_argument('cts_dir', metavar='CTS_BUILD_DIR',
                   help='the CTS build folder (holding test_conformance/<suite>/test_<suite>) '
                        'or install folder (holding bin/test_<suite>)')
    p.add_argument('--list', default=None, metavar='full|quick|usmcl|FILE.csv',
                   help='the tests: a CSV list, "usmcl" (%s), or a CTS list by name, found in '
                        'or near the build (default: full when found, else usmcl)'
                        % os.path.relpath(OWN_LIST))
    p.add_argument('--icd', metavar='DIR_OR_ICD',
                   help='test this ICD alone: a folder of .icd files or one .icd file '
                        '(sets OCL_ICD_VENDORS); without it the system\'s loader setup is used')
    p.add_argument('--platform', type=int, default=0, metavar='N',
                   help='platform index (CL_PLATFORM_INDEX, default %(default)s)')
    p.add_argument('--device-index', type=int, default=0, metavar='N',
                   help='device index (CL_DEVICE_INDEX, default %(default)s)')
    p.add_argument('--device-type', default='CL_DEVICE_TYPE_DEFAULT', metavar='TYPE',
                   help='CL_DEVICE_TYPE for the tests, and the device-specific lines of the list '
                        'that run (default %(default)s; cpu, gpu, ... are accepted)')
    p.add_argument('--timeout', type=int, default=3600, metavar='SECONDS',
                   help='seconds one test binary may run before it is killed and counted as a '
                        'timeout (default %(default)s)')
    p.add_argument('-j', '--jobs', type=int, default=1, metavar='N',
                   help='test binaries run at once (default %(default)s; each CTS binary '
                        'already uses every CPU in places)')
    p.add_argument('-t', '--include', action='append', default=[], metavar='REGEX',
                   help='run only tests whose name or command matches (repeatable)')
    p.add_argument('-x', '--exclude', action='append', default=[], metavar='REGEX',
                   help='leave out tests whose name or command matches (repeatable)')
    p.add_argument('--results', default='cts-results', metavar='DIR',
                   help='where each test\'s log and JSON go, with summary.txt and results.json '
                        '(default: %(default)s)')
    p.add_argument('--expectations', metavar='FILE',
                   help='known non-pass results: lines "test name[@sub-test] | status | reason"')
    p.add_argument('--dry-run', action='store_true',
                   help='print the tests and the binaries they would run, run nothing')
    args = p.parse_args(argv)
    args.cts_dir = os.path.abspath(args.cts_dir)
    if not os.path.isdir(args.cts_dir):
        die('no such folder: %s' % args.cts_dir)
    args.device_type = normalize_device_type(args.device_type)
    if args.icd:
        args.icd = os.path.abspath(args.icd)
        if os.path.isdir(args.icd):
            if not glob.glob(os.path.join(args.icd, '*.icd')):
                die('no .icd file in %s' % args.icd)
        elif not os.path.isfile(args.icd):
            die('no such ICD (folder or .icd file): %s' % args.icd)
    if args.jobs < 1 or args.timeout < 1:
        die('--jobs and --timeout must be at least 1')
    for regex in args.include + args.exclude:
        try:
            re.compile(regex)
        except re.error as error:
            die('bad regex %r: %s' % (regex, error))
    if args.list is None:
        found = search_cts_file(args.cts_dir, CTS_LISTS['full'])
        args.list_path = found or OWN_LIST
    else:
        args.list_path = find_list(args.list, args.cts_dir)
    args.results = os.path.abspath(args.results)
    return args


def main(argv):
    args = parse_args(argv)
    exp = load_expectations(args.expectations) if args.expectations else None
    all_tests = read_list(args.list_path)
    tests = select_tests(all_tests, args)
    for test in tests:
        test.binary = find_binary(args.cts_dir, test.binary_rel)
    loader = ('OCL_ICD_VENDORS=%s' % args.icd) if args.icd else 'the system\'s ICD loader setup'
    print('==> CTS %s, list %s: %d of %d tests' % (args.cts_dir, args.list_path, len(tests),
                                                  len(all_tests)))
    print('    %s, CL_DEVICE_TYPE=%s, CL_PLATFORM_INDEX=%d, CL_DEVICE_INDEX=%d, '
          'timeout %d s, %d at once' % (loader, args.device_type, args.platform,
                                        args.device_index, args.timeout, args.jobs))
    if args.dry_run:
        for test in tests:
            print('  %-40s %s' % (test.name, ' '.join([test.binary or
                                                       ('MISSING ' + test.binary_rel)] + test.args)))
        return 0
    if not tests:
        print('run_cts: no test selected')
        return 1
    os.makedirs(args.results, exist_ok=True)

    start = time.monotonic()
    done = [0]
    lock = threading.Lock()

    def run_and_report(test):
        run_test(test, args)
        with lock:
            done[0] += 1
            print('[%d/%d] %-8s %s (%s)%s' % (done[0], len(tests), test.result, test.name,
                                              fmt_seconds(test.seconds),
                                              ': ' + test.note if test.note else ''), flush=True)
        return test

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_and_report, t) for t in tests]
        try:
            for future in futures:
                future.result()
        except KeyboardInterrupt:
            # The tests run in their own sessions: Ctrl-C does not reach them.
            pool.shutdown(wait=False, cancel_futures=True)
            stop_all()
            raise
    wall = time.monotonic() - start

    lines = summary_lines(tests, wall)
    print()
    print('\n'.join(lines))
    write_reports(tests, args, wall, lines)
    print('logs: %s' % args.results)

    if exp is not None:
        return 1 if check_expectations(tests, exp, args.expectations) else 0
    return 1 if any(t.result in BAD for t in tests) else 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
