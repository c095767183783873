#!/usr/bin/env python3
"""Check dpctl.tensor operations on usmcl against numpy.

dpctl (PyPI `dpctl`, with Intel's SYCL runtime `intel-sycl-rt` and its Unified
Runtime OpenCL adapter) runs SYCL kernels compiled to SPIR-V; with
`ONEAPI_DEVICE_SELECTOR=opencl:cpu` and the loader restricted to usmcl
(OCL_ICD_VENDORS) they reach usmcl through clCreateProgramWithIL. Each
operation runs in a Python process of its own (a crash or a hang is that
operation's alone), on arrays of a few thousand elements, its result compared
with numpy's. Results: pass, error (an exception: a kernel that does not
build shows its build log), fail (a wrong result), crash (a signal), timeout.
They are checked against an expectations file (conformance/expectations.py
format); a build log in an error is printed in full.

The Python that runs dpctl: --python, else $USMCL_TEST_DPCTL_PYTHON, else python3.
Exit status: 0 when every result is a pass or as listed, 1 otherwise, 2 on a
usage error, 77 when python3 (the default) cannot import dpctl.tensor; a
Python named by --python or $USMCL_TEST_DPCTL_PYTHON that cannot is a failure.
"""

import argparse
import os
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
STATUSES = ['pass', 'error', 'fail', 'crash', 'timeout']
STATUS_ORDER = expectations.StatusOrder({'pass': 0, 'error': 1, 'fail': 2}, ('crash', 'timeout'))

# Each operation: (name, setup, dpctl expression, numpy expression). The setup
# defines numpy inputs; `dpt` is dpctl.tensor, `np` numpy, `d(a)` a device copy.
OPERATIONS = [
    ('add_float32', 'a = np.arange(4096, dtype=np.float32); b = np.linspace(0, 1, 4096, dtype=np.float32)',
     'dpt.add(d(a), d(b))', 'a + b'),
    ('multiply_int32', 'a = np.arange(4096, dtype=np.int32) % 97; b = np.arange(4096, dtype=np.int32) % 13',
     'dpt.multiply(d(a), d(b))', 'a * b'),
    ('sin_float32', 'a = np.linspace(-10, 10, 4096, dtype=np.float32)', 'dpt.sin(d(a))', 'np.sin(a)'),
    ('where_float32', 'a = np.linspace(-1, 1, 4096, dtype=np.float32)',
     'dpt.where(d(a) > 0, d(a), dpt.zeros_like(d(a)))', 'np.where(a > 0, a, 0)'),
    ('astype_float32_int32', 'a = np.linspace(-100, 100, 4096, dtype=np.float32)',
     'dpt.astype(d(a), dpt.int32)', 'a.astype(np.int32)'),
    ('sum_float32', 'a = np.linspace(0, 1, 10000, dtype=np.float32)', 'dpt.sum(d(a))', 'a.sum()'),
    ('sum_int64', 'a = np.arange(10000, dtype=np.int64)', 'dpt.sum(d(a))', 'a.sum()'),
    ('prod_float64', 'a = np.linspace(0.999, 1.001, 1000, dtype=np.float64)', 'dpt.prod(d(a))', 'a.prod()'),
    ('max_float32', 'a = np.sin(np.arange(10000, dtype=np.float32))', 'dpt.max(d(a))', 'a.max()'),
    ('min_int32', 'a = (np.arange(10000, dtype=np.int32) * 7919) % 10007', 'dpt.min(d(a))', 'a.min()'),
    ('argmax_float32', 'a = np.sin(np.arange(10000, dtype=np.float32))', 'dpt.argmax(d(a))', 'a.argmax()'),
    ('cumulative_sum_int32', 'a = np.arange(5000, dtype=np.int32) % 7', 'dpt.cumulative_sum(d(a))',
     'np.cumsum(a)'),
    # A scan into bool: DPC++'s kernel shuffles 8-bit values across the
    # sub-group (intel_sub_group_shuffle on char); dpctl issue 2017's case.
    ('cumulative_sum_int32_to_bool', 'a = np.array([-1, 1, 0, 2] * 1000, dtype=np.int32)',
     'dpt.cumulative_sum(d(a), dtype="?")', 'np.cumsum(a != 0) != 0'),
    ('sort_float32', 'a = np.sin(np.arange(5000, dtype=np.float32))', 'dpt.sort(d(a))', 'np.sort(a)'),
    ('argsort_int32', 'a = (np.arange(5000, dtype=np.int32) * 7919) % 10007', 'dpt.argsort(d(a))',
     'np.argsort(a, kind="stable")'),
    ('matmul_float32', 'a = np.linspace(0, 1, 64 * 48, dtype=np.float32).reshape(64, 48);'
     ' b = np.linspace(1, 2, 48 * 32, dtype=np.float32).reshape(48, 32)', 'dpt.matmul(d(a), d(b))', 'a @ b'),
]

CHILD = r'''
import sys, warnings
warnings.simplefilter("ignore")
import numpy as np
import dpctl, dpctl.tensor as dpt
setup, expression, reference = sys.argv[1:4]
queue = dpctl.SyclQueue("opencl:cpu")
d = lambda a: dpt.asarray(a, sycl_queue=queue)
scope = {"np": np, "dpt": dpt, "d": d}
exec(setup, scope)
try:
    got = dpt.asnumpy(eval(expression, scope))
except Exception as e:
    print("RESULT error %s: %s" % (type(e).__name__, e))
    sys.exit(0)
want = eval(reference, scope)
if got.shape != np.shape(want):
    print("RESULT fail shape %s, numpy's %s" % (got.shape, np.shape(want)))
elif np.issubdtype(got.dtype, np.floating):
    ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
    print("RESULT %s" % ("pass" if ok else "fail: largest difference %g" % np.max(np.abs(got - want))))
else:
    bad = np.count_nonzero(got != want)
    print("RESULT %s" % ("pass" if bad == 0 else "fail: %d of %d elements differ" % (bad, got.size)))
'''


def can_import_dpctl(python):
    if not python or not shutil.which(python):
        return False
    probe = subprocess.run([python, '-c', 'import warnings; warnings.simplefilter("ignore"); import dpctl.tensor'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


def run_operation(python, env, operation, timeout):
    name, setup, expression, reference = operation
    start = time.monotonic()
    try:
        proc = subprocess.run([python, '-c', CHILD, setup, expression, reference], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout', 'no result after %s' % fmt_seconds(timeout), time.monotonic() - start
    elapsed = time.monotonic() - start
    output = proc.stdout
    if proc.returncode < 0:
        return 'crash', 'signal %d\n%s' % (-proc.returncode, output[-2000:]), elapsed
    marker = output.rfind('RESULT ')
    if proc.returncode != 0 or marker < 0:
        return 'crash', 'exit status %d\n%s' % (proc.returncode, output[-2000:]), elapsed
    status, _, detail = output[marker + len('RESULT '):].partition(' ')
    status = status.strip().rstrip(':')
    return status, detail.strip(), elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--icd', required=True, help='the folder with usmcl.icd (OCL_ICD_VENDORS)')
    parser.add_argument('--python', default=os.environ.get('USMCL_TEST_DPCTL_PYTHON') or 'python3')
    parser.add_argument('--expectations', default=DEFAULT_EXPECTATIONS)
    parser.add_argument('--timeout', type=float, default=600, help='seconds per operation')
    parser.add_argument('--only', action='append', help='run only these operations')
    args = parser.parse_args()

    if not can_import_dpctl(args.python):
        # Named explicitly (run.sh installs dpctl for it), a Python without
        # dpctl is a failure; only the default python3 may lack it.
        if os.environ.get('USMCL_TEST_DPCTL_PYTHON') or args.python != 'python3':
            print('dpctl.tensor cannot be imported by %s' % args.python)
            return 1
        print('dpctl.tensor cannot be imported by %s: skipped' % args.python)
        return SKIP_EXIT
    expected, errors = expectations.load_expectations(args.expectations, STATUSES)
    if errors:
        print('\n'.join(errors))
        return 2
    operations = [op for op in OPERATIONS if not args.only or op[0] in args.only]
    if args.only and len(operations) != len(args.only):
        print('unknown operations in --only')
        return 2
    with tempfile.TemporaryDirectory(prefix='usmcl-dpctl-') as cache:
        env = dict(os.environ, OCL_ICD_VENDORS=os.path.abspath(args.icd),
                   ONEAPI_DEVICE_SELECTOR='opencl:cpu', USMCL_CACHE_DIR=cache)
        failed = 0
        for operation in operations:
            name = operation[0]
            status, detail, elapsed = run_operation(args.python, env, operation, args.timeout)
            line = expected.get(name)
            verdict = 'ok'
            if status != 'pass' and (line is None or not STATUS_ORDER.covers(line.status, status)):
                verdict = 'UNEXPECTED'
                failed += 1
            elif status == 'pass' and line is not None:
                verdict = 'better than expected (%s): remove its line' % line.status
            print('%-24s %-8s %6s  %s' % (name, status, fmt_seconds(elapsed), verdict))
            if status != 'pass':
                print('    ' + detail.replace('\n', '\n    '))
    print('%d of %d operations as expected' % (len(operations) - failed, len(operations)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
