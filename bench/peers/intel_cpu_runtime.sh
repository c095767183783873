#!/usr/bin/env bash
# Installs Intel's CPU OpenCL runtime from PyPI into a folder, as a peer for
# the benchmarks (it runs on AMD CPUs too), and writes there what they need:
#
#   bench/peers/intel_cpu_runtime.sh <folder>
#
# <folder>/icd/intel-cpu.icd   the ICD file (absolute path of libintelocl.so)
# <folder>/icd/peer.env        LD_LIBRARY_PATH for its libraries (TBB, SVML)
#
# Then pass --peer Intel=<folder>/icd to a benchmark, or configure the build
# with -Dbench_peers=PoCL=/etc/OpenCL/vendors/pocl.icd,Intel=<folder>/icd.
# Nothing is installed system-wide; the wheels are unpacked, not pip-installed.
set -euo pipefail

folder="${1:?usage: intel_cpu_runtime.sh <folder>}"
mkdir -p "$folder"
folder="$(cd "$folder" && pwd)"
versions=(intel-opencl-rt==2026.2.0 tbb==2023.2.0 intel-cmplr-lib-rt==2026.2.0)

if [[ ! -d "$folder/wheels" ]] || ! ls "$folder"/wheels/intel_opencl_rt-*.whl >/dev/null 2>&1; then
    echo "==> downloading ${versions[*]} from PyPI (about 240 MB)"
    python3 -m pip download --quiet --no-deps --dest "$folder/wheels" "${versions[@]}"
fi
rm -rf "$folder/root"
for wheel in "$folder"/wheels/*.whl; do
    python3 -m zipfile -e "$wheel" "$folder/root/"
done

library="$(find "$folder/root" -name libintelocl.so -print -quit)"
[[ -n "$library" ]] || { echo "libintelocl.so not found in the wheels" >&2; exit 1; }
# One folder of links to the wheels' libraries, without their own ICD loader
# (libOpenCL.so): every driver is measured through the same loader, Debian's.
rm -rf "$folder/lib"
mkdir -p "$folder/lib" "$folder/icd"
find "$folder/root" -name '*.so*' ! -name 'libOpenCL.so*' -exec ln -sf {} "$folder/lib/" \;
echo "$library" > "$folder/icd/intel-cpu.icd"
echo "LD_LIBRARY_PATH=$folder/lib" > "$folder/icd/peer.env"
echo "==> Intel's CPU runtime: --peer Intel=$folder/icd"
