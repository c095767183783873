#!/usr/bin/env python3
"""Run pyopencl's own test suite against one ICD through the loader.

The suite is Debian's (`python3-pyopencl` with `python-pyopencl-doc`, whose
examples folder holds pyopencl's `test_*.py`). Each test file runs in a
pytest process of its own, with the loader restricted to the ICD
(OCL_ICD_VENDORS), pyopencl's kernel cache in a fresh folder, and a timeout:
a file whose process dies of a signal counts its unfinished tests as a crash,
one that outlives the timeout as a hang. The runner prints per file the
pass/fail/skip counts and the reason of every skip, then checks the results
against an expectations file (conformance/expectations.py format: every
non-pass result must be listed with its reason; crashes and hangs never are).

Exit status: 0 when every result is a pass or as listed, 1 otherwise, 2 on a
usage error, 77 when pyopencl, pytest or the test files are not installed.

Only the Python 3 standard library is used by the runner itself.
"""

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import expectations  # noqa: E402  (conformance/expectations.py)
from expectations import fmt_seconds  # noqa: E402

DEFAULT_TESTS = '/usr/share/doc/python-pyopencl-doc/examples'
DEFAULT_EXPECTATIONS = os.path.join(HERE, 'expectations.txt')
SKIP_EXIT = 77
STATUSES = ['pass', 'skip', 'fail', 'crash', 'timeout']
STATUS_ORDER = expectations.StatusOrder({'pass': 0, 'skip': 1, 'fail': 2}, ('crash', 'timeout'))


def find_python(candidates):
    """The first interpreter that imports pyopencl and pytest."""
    for python in candidates:
        if not python or not shutil.which(python):
            continue
        probe = subprocess.run([python, '-c', 'import pyopencl, pytest'],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if probe.returncode == 0:
            return python
    return None


def read_junit(path):
    """{test id: (status, message)} from a pytest junit file."""
    results = {}
    root = ElementTree.parse(path).getroot()
    for case in root.iter('testcase'):
        name = '%s::%s' % (case.get('classname', '').split('.')[-1], case.get('name'))
        status, message = 'pass', ''
        for child in case:
            if child.tag == 'skipped':
                status, message = 'skip', child.get('message', '')
            elif child.tag in ('failure', 'error'):
                status, message = 'fail', (child.get('message') or '').splitlines()[0:1]
                message = message[0] if message else child.tag
        results[name] = (status, message)
    return results


def run_file(python, test_file, work, env, timeout):
    """Runs one test file; returns (results, file status, seconds, output)."""
    junit = os.path.join(work, os.path.basename(test_file) + '.xml')
    command = [python, '-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-rs',
               '--junitxml', junit, os.path.basename(test_file)]
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        status = 'crash' if process.returncode < 0 else 'ok'
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        status = 'timeout'
    seconds = time.monotonic() - start
    results = read_junit(junit) if os.path.exists(junit) else {}
    text = output.decode(errors='replace')
    if status == 'ok' and process.returncode not in (0, 1) and not results:
        status = 'crash'  # pytest could not collect or run the file
    return results, status, seconds, text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--icd', required=True,
                        help='vendors folder (or .icd file) of the driver under test')
    parser.add_argument('--tests', default=DEFAULT_TESTS,
                        help='folder of pyopencl\'s test_*.py (default: %(default)s)')
    parser.add_argument('--expectations', default=DEFAULT_EXPECTATIONS)
    parser.add_argument('--python', help='interpreter with pyopencl and pytest')
    parser.add_argument('--timeout', type=int, default=900, help='seconds per test file')
    parser.add_argument('--verbose', action='store_true', help='print pytest\'s output')
    parser.add_argument('files', nargs='*', help='test file names (default: all)')
    args = parser.parse_args()

    python = find_python([args.python] if args.python else [sys.executable, '/usr/bin/python3'])
    test_files = sorted(glob.glob(os.path.join(args.tests, 'test_*.py')))
    if args.files:
        test_files = [f for f in test_files if os.path.basename(f) in args.files]
    if not python or not test_files:
        print('run_pyopencl: pyopencl, pytest or pyopencl\'s tests are not installed '
              '(python3-pyopencl python-pyopencl-doc python3-pytest): skipped')
        return SKIP_EXIT
    expected, errors = expectations.load_expectations(args.expectations, STATUSES)
    if errors:
        print('\n'.join(errors), file=sys.stderr)
        return 2

    icd = os.path.abspath(args.icd)
    work = tempfile.mkdtemp(prefix='usmcl-pyopencl-')
    env = dict(os.environ)
    env['OCL_ICD_VENDORS'] = icd
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    env['XDG_CACHE_HOME'] = os.path.join(work, 'cache')  # pyopencl's kernel cache
    env.pop('PYOPENCL_CTX', None)
    env.pop('PYOPENCL_TEST', None)
    for test_file in test_files:
        shutil.copy(test_file, work)
    for extra in glob.glob(os.path.join(args.tests, '*.spv')) + \
            glob.glob(os.path.join(args.tests, '*.h')):
        shutil.copy(extra, work)

    print('pyopencl suite (%s) against %s' % (args.tests, icd))
    print('%-28s %6s %6s %6s %8s %8s' % ('file', 'pass', 'fail', 'skip', 'status', 'time'))
    all_results = {}
    bad = []
    for test_file in test_files:
        results, status, seconds, output = run_file(python, test_file, work, env, args.timeout)
        counts = {s: 0 for s in STATUSES}
        for outcome, _ in results.values():
            counts[outcome] += 1
        print('%-28s %6d %6d %6d %8s %8s' % (os.path.basename(test_file), counts['pass'],
                                             counts['fail'], counts['skip'], status,
                                             fmt_seconds(seconds)), flush=True)
        if status != 'ok':
            # The file did not finish: the test running when it died is not in
            # the junit file; the file itself stands for it.
            results[os.path.basename(test_file)] = (status, 'the pytest process ended: ' + status)
        if args.verbose or status != 'ok':
            print(output[-4000:])
        all_results.update(results)

    skips = sorted((n, m) for n, (s, m) in all_results.items() if s == 'skip')
    if skips:
        print('\nskipped, with pyopencl\'s reason:')
        for name, message in skips:
            print('  %s: %s' % (name, message))
    for name, (status, message) in sorted(all_results.items()):
        if status == 'pass':
            continue
        line = expected.get(name)
        if status == 'skip' and line is None:
            # A skip carries its reason from pyopencl; it is listed above.
            continue
        if line is None or not STATUS_ORDER.covers(line.status, status):
            bad.append('%s: %s (%s)' % (name, status, message))
    for name, line in sorted(expected.items()):
        if name in all_results and all_results[name][0] == 'pass':
            print('note: %s passes now; its line in %s can go' % (name, args.expectations))
    total = {s: sum(1 for v in all_results.values() if v[0] == s) for s in STATUSES}
    print('\n%d passed, %d failed, %d skipped, %d crashed, %d timed out' %
          (total['pass'], total['fail'], total['skip'], total['crash'], total['timeout']))
    if bad:
        print('\nnot as expected:')
        for entry in bad:
            print('  ' + entry)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
