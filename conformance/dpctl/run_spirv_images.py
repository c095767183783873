#!/usr/bin/env python3
"""Build every SPIR-V image of one of dpctl's libraries on usmcl.

dpctl's libraries carry the kernels DPC++ 2025 compiled for them as SPIR-V
images, which Intel's SYCL runtime registers when the library is loaded;
with SYCL_DUMP_IMAGES=1 it also writes each one to the current folder
(sycl_spir64_<n>.spv). This script loads one library that way, in an empty
temporary folder, with the Python that has dpctl (only the library: dpctl
itself is not imported, so no other library's images are written), then runs
build_spirv_images (build_spirv_images.cpp) on the folder through the loader
restricted to usmcl: clCreateProgramWithIL, clBuildProgram and
clCreateKernelsInProgram on every image, a failure reported with its file and
build log. usmcl's on-disk cache is off (USMCL_CACHE=0): every image is built
from its SPIR-V.

The Python that has dpctl: --python, else $USMCL_TEST_DPCTL_PYTHON, else
python3. Exit status: 0 when every image built, 1 when one did not, when no
image was written, or when a Python named by --python or
$USMCL_TEST_DPCTL_PYTHON cannot import dpctl; 77 (skipped) when python3, the
default, cannot.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from run_dpctl import SKIP_EXIT, can_import_dpctl  # noqa: E402  (this folder's dpctl test)

# 768 images; about 100 s of CPU time for the builds (README.md).
DEFAULT_LIBRARY = 'tensor/_tensor_linalg_impl'

# Run in the dump folder: finds the library's file without importing dpctl
# (whose own extensions would add their images) and loads it.
LOADER = r'''
import ctypes, glob, importlib.util, os, sys
package = importlib.util.find_spec("dpctl").submodule_search_locations[0]
found = glob.glob(os.path.join(package, sys.argv[1] + ".*so"))
if len(found) != 1:
    sys.exit("no single dpctl library matches %s: %s" % (sys.argv[1], found))
ctypes.CDLL(found[0])
print(os.path.relpath(found[0], os.path.dirname(package)))
'''


def dump_images(python, library, folder):
    """Writes the library's images into folder; returns its file name."""
    env = dict(os.environ, SYCL_DUMP_IMAGES='1')
    proc = subprocess.run([python, '-c', LOADER, library], cwd=folder, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError('loading %s failed (exit status %d):\n%s'
                           % (library, proc.returncode, proc.stdout[-2000:]))
    return proc.stdout.strip().splitlines()[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--icd', required=True, help='the folder with usmcl.icd (OCL_ICD_VENDORS)')
    parser.add_argument('--program', required=True, help='build_spirv_images, built by meson')
    parser.add_argument('--python', default=os.environ.get('USMCL_TEST_DPCTL_PYTHON') or 'python3')
    parser.add_argument('--library', default=DEFAULT_LIBRARY,
                        help='a library of dpctl, relative to its package folder, without '
                             'the suffix (default: %(default)s)')
    parser.add_argument('--jobs', type=int, help='build threads (default: the CPUs usable)')
    args = parser.parse_args()

    if not can_import_dpctl(args.python):
        # Named explicitly (run.sh installs dpctl for it), a Python without
        # dpctl is a failure; only the default python3 may lack it.
        if os.environ.get('USMCL_TEST_DPCTL_PYTHON') or args.python != 'python3':
            print('dpctl cannot be imported by %s' % args.python)
            return 1
        print('dpctl cannot be imported by %s: skipped' % args.python)
        return SKIP_EXIT
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='usmcl-dpctl-images-') as folder:
        try:
            name = dump_images(args.python, args.library, folder)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(e)
            return 1
        images = sorted(f for f in os.listdir(folder) if f.endswith('.spv'))
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in images)
        print('%s: %d SPIR-V images (%.1f MB) written in %.1f s'
              % (name, len(images), size / 1e6, time.monotonic() - start))
        sys.stdout.flush()
        if not images:
            print('no image written: failed')
            return 1
        command = [args.program, folder]
        if args.jobs:
            command[1:1] = ['--jobs', str(args.jobs)]
        env = dict(os.environ, OCL_ICD_VENDORS=os.path.abspath(args.icd), USMCL_CACHE='0')
        status = subprocess.run(command, env=env).returncode
    print('%s: %s in %.1f s' % (name, 'every image built' if status == 0 else 'FAILED',
                                time.monotonic() - start))
    return 0 if status == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
