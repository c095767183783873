#!/usr/bin/env bash
# usmcl's front door for developers and users on Debian bookworm.
#
#   ./run.sh demo   install what is missing, build, and run the demo:
#                   clinfo restricted to usmcl, then the sample programs
#                   (hello_usmcl, usm_samples), all through the ICD loader
#   ./run.sh test   install what is missing (dpctl from PyPI into the build
#                   folder too), build, and run the whole test suite
#   ./run.sh conformance   also install piglit, and run the conformance suite
#                   (conformance/: the USM conformance program, piglit's OpenCL
#                   profile, pyopencl's test suite, dpctl)
#
# Environment: BUILD_DIR (default: build), MESON_ARGS (extra meson setup options).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
mode="${1:-}"

# Debian packages the build, the demo and the tests need (pyopencl and its
# test suite are a real client the tests run: conformance/pyopencl).
packages=(
    meson ninja-build g++ pkg-config
    opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo
    libhwloc-dev catch2 python3
    clang-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-cpp19-dev
    spirv-headers spirv-tools
    python3-pyopencl python-pyopencl-doc python3-pytest python3-scipy
    python3-venv
)
# piglit's OpenCL profile (conformance/piglit): 2 GB installed, almost all of
# it OpenGL tests, so only `./run.sh conformance` installs it; without it the
# piglit test reports a skip.
conformance_packages=(piglit)

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 2
}

install_missing_packages() {
    local missing=()
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    if [[ $(id -u) -ne 0 ]]; then
        echo "usmcl needs these Debian packages, which are not installed:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    echo "==> installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
    if [[ ! -f "$build_dir/build.ninja" ]]; then
        echo "==> configuring $build_dir"
        # shellcheck disable=SC2086
        meson setup "$build_dir" "$here" ${MESON_ARGS:-}
    fi
    echo "==> building"
    ninja -C "$build_dir"
}

icd_dir() { echo "$build_dir/driver/icd"; }

run_demo() {
    echo "==> clinfo, with the loader restricted to usmcl (OCL_ICD_VENDORS=$(icd_dir))"
    OCL_ICD_VENDORS="$(icd_dir)" clinfo
    echo
    echo "==> examples/hello_usmcl through the loader"
    OCL_ICD_VENDORS="$(icd_dir)" "$build_dir/examples/hello_usmcl"
    echo
    echo "==> examples/usm_samples (cl_intel_unified_shared_memory) through the loader"
    OCL_ICD_VENDORS="$(icd_dir)" "$build_dir/examples/usm_samples"
}

# dpctl (Intel's SYCL runtime with dpctl.tensor, from PyPI: about 240 MB) in
# a virtual environment of the build folder, for conformance/dpctl.
install_dpctl() {
    local venv="$build_dir/venv-dpctl"
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import dpctl" 2>/dev/null; then
        echo "==> installing dpctl 0.21.1 from PyPI into $venv"
        /usr/bin/python3 -m venv --system-site-packages "$venv"
        "$venv/bin/pip" install -q --disable-pip-version-check dpctl==0.21.1
    fi
    USMCL_TEST_DPCTL_PYTHON="$(cd "$venv" && pwd)/bin/python"
    export USMCL_TEST_DPCTL_PYTHON
}

run_tests() {
    echo "==> meson test"
    local log status=0
    log="$(mktemp)"
    meson test -C "$build_dir" --print-errorlogs --num-processes 2 2>&1 | tee "$log" || status=$?
    # One closing line any reader understands.
    local ok fail
    ok=$(awk '/^Ok:/ {print $2}' "$log")
    fail=$(awk '/^Fail:/ {print $2}' "$log")
    rm -f "$log"
    echo "${ok:-0} passed, ${fail:-0} failed"
    return "$status"
}

run_conformance() {
    echo "==> meson test --suite conformance"
    meson test -C "$build_dir" --print-errorlogs --suite conformance
}

case "$mode" in
demo) install_missing_packages; build; run_demo ;;
test) install_missing_packages; build; install_dpctl; run_tests ;;
conformance)
    packages+=("${conformance_packages[@]}")
    install_missing_packages; build; install_dpctl; run_conformance ;;
*) usage ;;
esac
