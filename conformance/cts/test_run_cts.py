#!/usr/bin/env python3
"""Check run_cts.py against a fake OpenCL-CTS build made of small shell scripts.

The scripts behave like CTS test binaries (the harness's sub-test lines and
closing counts, its exit status, the JSON file asked for with
CL_CONFORMANCE_RESULTS_FILENAME): one passes, one fails by exit status, one
reports FAILED with status 0, two skip (sub-tests not supported, suite skipped
at start), two die by a signal, one hangs with a child process, and one line
of the list names a binary that does not exist.  The checks cover every
result class, the sub-test counts, the summary table, the exit status, the
environment a test gets, the timeout kill of the whole process group, the
filters, device-specific lines, an install layout, the default list found in
the CTS source tree, and the expectations file (unexpected results, stale
lines).

Run: python3 conformance/cts/test_run_cts.py   (about 5 seconds)
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, 'run_cts.py')

HEADER = '''#!/bin/sh
echo "env CL_DEVICE_TYPE=$CL_DEVICE_TYPE CL_PLATFORM_INDEX=$CL_PLATFORM_INDEX"
echo "env OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
echo "cwd $(pwd)"
echo "args [$*]"
results() {  # write the harness's JSON file: results NAME=STATUS...
  [ -n "$CL_CONFORMANCE_RESULTS_FILENAME" ] || return 0
  {
    printf '{\\n\\t"cmd": "%s",\\n\\t"results": {\\n' "$0"
    sep=""
    for pair in "$@"; do
      printf '%s\\t\\t"%s": "%s"' "$sep" "${pair%%=*}" "${pair#*=}"
      sep=",\\n"
    done
    printf '\\n\\t}\\n}\\n'
  } > "$CL_CONFORMANCE_RESULTS_FILENAME"
}
'''

BINARIES = {
    # Everything passes; the JSON file agrees.
    'basic/test_basic': '''
echo "hostptr..."; echo "hostptr passed"
echo "fpmath..."; echo "fpmath passed"
echo "PASSED 2 of 2 tests."
results hostptr=pass fpmath=pass
exit 0
''',
    # One sub-test fails; exit status 1.
    'api/test_api': '''
echo "create_context..."; echo "create_context passed"
echo "retain_queue..."; echo "ERROR: clRetainCommandQueue returned -36"; echo "retain_queue FAILED"
echo "FAILED 1 of 2 tests."
results create_context=pass retain_queue=fail
exit 1
''',
    # FAILED reported, but exit status 0 (run_conformance.py fails it too).
    'compiler/test_compiler': '''
echo "load_program_source..."; echo "load_program_source FAILED"
echo "FAILED test."
exit 0
''',
    # Every sub-test reports "not supported".
    'half/test_half': '''
echo "vload_half..."; echo "vload_half test not supported"
echo "vstore_half..."; echo "vstore_half test not supported"
echo "PASSED sub-test."
echo "PASSED test."
exit 0
''',
    # The suite skips itself at start (suite_did_not_pass_init).
    'pipes/test_pipes': '''
echo "Test skipped while initialization"
echo "SKIPPED 3 of 3 tests."
exit 0
''',
    # A crash by SIGSEGV after one sub-test.
    'SVM/test_svm': '''
echo "svm_byte_granularity..."; echo "svm_byte_granularity passed"
echo "svm_fine_grain..."
kill -SEGV $$
''',
    # An abort().
    'events/test_events': '''
echo "event_flush..."
kill -ABRT $$
''',
    # A hang, with a child that must die with it.
    'workgroups/test_workgroups': '''
echo "work_group_all..."
sleep 300 &
echo $! > "$FAKE_CTS_STATE/hang.pid"
wait
''',
    # Prints its arguments: "quick*" must arrive as it is, not expanded.
    'thread_dimensions/test_thread_dimensions': '''
echo "quick_1d_explicit_local..."; echo "quick_1d_explicit_local passed"
echo "PASSED test."
exit 0
''',
}

LIST = '''#
# a fake list in the CTS's format
#
Basic,basic/test_basic
API,api/test_api
Compiler,compiler/test_compiler

Half Ops,half/test_half -w
Pipes,pipes/test_pipes
SVM,SVM/test_svm
Events,events/test_events
Workgroups,workgroups/test_workgroups
Thread Dimensions,thread_dimensions/test_thread_dimensions quick*
Printf,printf/test_printf
CL_DEVICE_TYPE_CPU, Basic (CPU only),basic/test_basic cpu_only
'''

EXPECTED = {
    'Basic': 'pass', 'API': 'fail', 'Compiler': 'fail', 'Half Ops': 'skip', 'Pipes': 'skip',
    'SVM': 'crash', 'Events': 'crash', 'Workgroups': 'timeout', 'Thread Dimensions': 'pass',
    'Printf': 'missing',
}


def write_executable(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too.
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().split(') ')[-1].split()[0] != 'Z'
    except OSError:
        return False


class FakeCtsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='fake-cts-')
        # A source tree with the build inside it, as the CTS's README builds.
        cls.source = os.path.join(cls.tmp, 'OpenCL-CTS')
        cls.build = os.path.join(cls.source, 'build')
        for rel, body in BINARIES.items():
            write_executable(os.path.join(cls.build, 'test_conformance', rel), HEADER + body)
        # A file "quick*" would match if the shell expanded it.
        open(os.path.join(cls.build, 'test_conformance', 'thread_dimensions', 'quick_x'),
             'w').close()
        cls.list = os.path.join(cls.tmp, 'list.csv')
        with open(cls.list, 'w') as f:
            f.write(LIST)
        os.makedirs(os.path.join(cls.source, 'test_conformance'))
        with open(os.path.join(cls.source, 'test_conformance',
                               'opencl_conformance_tests_full.csv'), 'w') as f:
            f.write('Basic,basic/test_basic\nAPI,api/test_api\n')
        cls.icd = os.path.join(cls.tmp, 'vendors')
        os.makedirs(cls.icd)
        with open(os.path.join(cls.icd, 'usmcl.icd'), 'w') as f:
            f.write('/nonexistent/libusmcl.so\n')
        cls.state = os.path.join(cls.tmp, 'state')
        os.makedirs(cls.state)

        # The whole list once: every class of result.
        cls.results = os.path.join(cls.tmp, 'results')
        start = time.monotonic()
        cls.full = cls.run_cts(['--list', cls.list, '--icd', cls.icd, '--timeout', '2',
                                '-j', '4', '--results', cls.results])
        cls.full_seconds = time.monotonic() - start
        with open(os.path.join(cls.results, 'results.json')) as f:
            cls.data = json.load(f)
        cls.by_name = {t['name']: t for t in cls.data['tests']}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def run_cts(cls, args, cts_dir=None):
        env = dict(os.environ, FAKE_CTS_STATE=cls.state)
        return subprocess.run([sys.executable, RUNNER, cts_dir or cls.build] + args,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, env=env, timeout=60, check=False)

    def log_of(self, name):
        with open(os.path.join(self.results, self.by_name[name]['log'])) as f:
            return f.read()

    def test_every_result_class(self):
        got = {name: t['result'] for name, t in self.by_name.items()}
        self.assertEqual(got, EXPECTED, self.full.stdout)

    def test_exit_status_fails_on_fail_crash_timeout(self):
        self.assertEqual(self.full.returncode, 1, self.full.stdout)

    def test_notes(self):
        self.assertIn('SIGSEGV', self.by_name['SVM']['note'])
        self.assertIn('SIGABRT', self.by_name['Events']['note'])
        self.assertIn('exit status 1', self.by_name['API']['note'])
        self.assertIn('no binary printf/test_printf', self.by_name['Printf']['note'])

    def test_subtest_counts(self):
        self.assertEqual(self.by_name['API']['subtests'],
                         {'create_context': 'pass', 'retain_queue': 'fail'})
        self.assertEqual(self.by_name['Half Ops']['subtests'],
                         {'vload_half': 'skip', 'vstore_half': 'skip'})
        self.assertEqual(self.by_name['SVM']['subtests'], {'svm_byte_granularity': 'pass'})

    def test_summary_table(self):
        out = self.full.stdout
        self.assertIn('totals: 10 tests: 2 pass, 2 fail, 2 skip, 2 crash, 1 timeout, 1 missing',
                      out)
        self.assertIn('sub-tests: 5 passed, 2 failed, 2 skipped', out)
        row = [l for l in out.splitlines() if l.startswith('API ')]
        self.assertEqual(len(row), 1, out)
        self.assertEqual(row[0].split()[1:5], ['fail', '1', '1', '0'])
        with open(os.path.join(self.results, 'summary.txt')) as f:
            self.assertIn('totals: 10 tests', f.read())

    def test_timeout_kills_the_process_group(self):
        # 2 s timeout, 4 at once: far below the hang's 300 s.
        self.assertLess(self.full_seconds, 15)
        with open(os.path.join(self.state, 'hang.pid')) as f:
            child = int(f.read())
        self.assertFalse(pid_alive(child), 'the hanging test\'s child survived')
        self.assertIn('killed after 2 s (timeout)', self.log_of('Workgroups'))

    def test_environment_and_arguments(self):
        log = self.log_of('Basic')
        self.assertIn('CL_DEVICE_TYPE=CL_DEVICE_TYPE_DEFAULT CL_PLATFORM_INDEX=0', log)
        self.assertIn('OCL_ICD_VENDORS=' + self.icd, log)
        self.assertIn('cwd ' + os.path.join(self.build, 'test_conformance', 'basic'), log)
        self.assertIn('args [quick*]', self.log_of('Thread Dimensions'))
        self.assertIn('args [-w]', self.log_of('Half Ops'))
        # The CTS's JSON results were asked for and kept.
        self.assertTrue(os.path.isfile(os.path.join(
            self.results, self.by_name['Basic']['log'][:-4] + '.json')))

    def test_filters_and_clean_exit(self):
        res = self.run_cts(['--list', self.list, '-t', '^(Basic|Half|Pipes|Printf)',
                            '-x', 'CPU only', '--results', os.path.join(self.tmp, 'r2')])
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn('totals: 4 tests: 1 pass, 0 fail, 2 skip, 0 crash, 0 timeout, 1 missing',
                      res.stdout)

    def test_device_specific_lines(self):
        res = self.run_cts(['--list', self.list, '--device-type', 'cpu', '-t', '^Basic',
                            '--results', os.path.join(self.tmp, 'r3')])
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn('Basic (CPU only)', res.stdout)
        with open(os.path.join(self.tmp, 'r3', '11-Basic_CPU_only.log')) as f:
            self.assertIn('CL_DEVICE_TYPE=CL_DEVICE_TYPE_CPU', f.read())
        self.assertNotIn('CPU only', self.full.stdout)

    def test_platform_without_icd(self):
        res = self.run_cts(['--list', self.list, '--platform', '2', '-t', '^Basic$',
                            '--results', os.path.join(self.tmp, 'r4')])
        self.assertEqual(res.returncode, 0, res.stdout)
        with open(os.path.join(self.tmp, 'r4', '01-Basic.log')) as f:
            log = f.read()
        self.assertIn('CL_PLATFORM_INDEX=2', log)
        self.assertIn('OCL_ICD_VENDORS=%s\n' % os.environ.get('OCL_ICD_VENDORS', ''), log)

    def test_expectations(self):
        exp = os.path.join(self.tmp, 'expectations.txt')
        with open(exp, 'w') as f:
            f.write('# known results\n'
                    'API@retain_queue | fail | queue refcount bug\n'
                    'Compiler | fail | reports FAILED\n'
                    'SVM | crash | crashes in fine grain\n'
                    'Basic | fail | fixed since: stale\n'
                    'Half Ops | fail | skips now: stale\n'
                    'Events@event_flush | fail | sub-test of a crashed test: not stale\n')
        res = self.run_cts(['--list', self.list, '-x', 'Workgroups', '--expectations', exp,
                            '--results', os.path.join(self.tmp, 'r5')])
        self.assertEqual(res.returncode, 1, res.stdout)
        out = res.stdout
        self.assertIn('1 unexpected result(s)', out)
        self.assertIn('crash    expected pass (not listed)  Events', out)
        self.assertIn('2 stale line(s)', out)
        self.assertIn('line 5    fail -> pass  Basic', out)
        self.assertIn('line 6    fail -> skip  Half Ops', out)

        with open(exp, 'a') as f:
            f.write('Events | crash | aborts\n')
        res = self.run_cts(['--list', self.list, '-x', 'Workgroups', '--expectations', exp,
                            '--results', os.path.join(self.tmp, 'r6')])
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn('no unexpected result', res.stdout)

    def test_install_layout(self):
        install = os.path.join(self.tmp, 'install')
        write_executable(os.path.join(install, 'bin', 'Release', 'test_basic'),
                         HEADER + BINARIES['basic/test_basic'])
        res = self.run_cts(['--list', self.list, '-t', '^Basic$', '--dry-run'], cts_dir=install)
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn(os.path.join(install, 'bin', 'Release', 'test_basic'), res.stdout)

    def test_default_and_own_lists(self):
        # The build sits in the CTS sources: their full list is the default.
        res = self.run_cts(['--dry-run'])
        self.assertIn('opencl_conformance_tests_full.csv: 2 of 2 tests', res.stdout)
        # The project's own list parses; none of its binaries is in the fake.
        res = self.run_cts(['--list', 'usmcl', '--dry-run', '-x', '^(Basic|API)$'])
        self.assertEqual(res.returncode, 0, res.stdout)
        self.assertIn('usmcl.csv', res.stdout)
        self.assertIn('MISSING computeinfo/test_computeinfo', res.stdout)

    def test_project_program_lines(self):
        # conformance/usm's program: "<name> PASSED", "<name> SKIPPED (why)".
        write_executable(os.path.join(self.tmp, 'own', 'usm', 'usm_conformance'), HEADER + '''
echo "alloc_sizes PASSED"; echo "free FAILED"; echo "migrate SKIPPED (no migration)"
echo "1 passed, 1 failed"
exit 1
''')
        own_list = os.path.join(self.tmp, 'own.csv')
        with open(own_list, 'w') as f:
            f.write('USM,usm/usm_conformance --platform usmcl\n')
        res = self.run_cts(['--list', own_list, '--results', os.path.join(self.tmp, 'r7')],
                           cts_dir=os.path.join(self.tmp, 'own'))
        self.assertEqual(res.returncode, 1, res.stdout)
        self.assertIn('sub-tests: 1 passed, 1 failed, 1 skipped', res.stdout)

    def test_usage_errors(self):
        res = self.run_cts([], cts_dir=os.path.join(self.tmp, 'nowhere'))
        self.assertEqual(res.returncode, 2)
        res = self.run_cts(['--list', 'nosuchlist'])
        self.assertEqual(res.returncode, 2)


if __name__ == '__main__':
    unittest.main(verbosity=2)
