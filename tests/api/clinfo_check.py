#!/usr/bin/env python3
"""Runs clinfo through the ICD loader (OCL_ICD_VENDORS from the test
environment) and checks that it sees exactly the usmcl platform and prints no
error for any of usmcl's answers.

usage: clinfo_check.py <path of clinfo, or '' when it is not installed>
Exit codes: 0 pass, 1 fail, 77 skip (meson's skip code).
"""
import os
import re
import subprocess
import sys

SKIP = 77

# Property names that merely contain the word "error".
HARMLESS = re.compile(r"Error Correction support|CL_DEVICE_ERROR_CORRECTION_SUPPORT")


def error_names():
    """Every OpenCL error code name (macros defined to a negative number)."""
    names = set()
    for header in ("/usr/include/CL/cl.h", "/usr/include/CL/cl_ext.h"):
        try:
            with open(header, encoding="utf-8", errors="replace") as source:
                for match in re.finditer(r"#define\s+(CL_\w+)\s+-\d+", source.read()):
                    names.add(match.group(1))
        except OSError:
            pass
    names.discard("CL_BUILD_NONE")
    names.discard("CL_BUILD_ERROR")
    names.discard("CL_BUILD_IN_PROGRESS")
    return names


def run(clinfo, *args):
    env = dict(os.environ)
    # A sanitizer build's driver needs its runtime preloaded into clinfo.
    preload = env.get("CLINFO_CHECK_PRELOAD")
    if preload:
        env["LD_PRELOAD"] = preload
    result = subprocess.run([clinfo, *args], capture_output=True, text=True, timeout=60, env=env)
    return result.returncode, result.stdout, result.stderr


def problems_in(output, names):
    """Lines that report an error, an invalid answer or an OpenCL error code."""
    generic = re.compile(r"invalid|error", re.IGNORECASE)
    codes = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b") if names else None
    fallback = re.compile(r"\bCL_(INVALID|OUT_OF)_\w+|\bCL_\w*(NOT_FOUND|NOT_AVAILABLE|FAILED|FAILURE)\b")
    bad = []
    for line in output.splitlines():
        text = HARMLESS.sub("", line)
        if generic.search(text) or fallback.search(text) or (codes and codes.search(text)):
            bad.append(line)
    return bad


def main():
    clinfo = sys.argv[1] if len(sys.argv) > 1 else ""
    if not clinfo or not os.access(clinfo, os.X_OK):
        print("clinfo is not installed: skipped")
        return SKIP
    if os.environ.get("CLINFO_CHECK_SKIP"):
        print(f"{os.environ['CLINFO_CHECK_SKIP']}: skipped")
        return SKIP
    vendors = os.environ.get("OCL_ICD_VENDORS", "")
    print(f"OCL_ICD_VENDORS={vendors}")
    failures = []
    names = error_names()

    code, out, err = run(clinfo)
    print(out)
    if code != 0:
        failures.append(f"clinfo exited with {code}: {err.strip()}")
    if not re.search(r"^Number of platforms\s+1$", out, re.MULTILINE):
        failures.append("clinfo does not report exactly one platform")
    platform_names = re.findall(r"^\s+Platform Name\s+(.*?)\s*$", out, re.MULTILINE)
    if not platform_names or set(platform_names) != {"usmcl"}:
        failures.append(f"platform names: {platform_names}, expected only usmcl")
    if not re.search(r"^\s+Device Name\s+\S", out, re.MULTILINE):
        failures.append("no device listed")
    for line in problems_in(out + err, names):
        failures.append(f"error line: {line.strip()}")

    # The raw listing shows every query with its symbolic answer or error.
    # clinfo 3.0.23.01.25 overflows a heap buffer of its own in --raw mode
    # (AddressSanitizer catches it with any ICD, PoCL's too), so a sanitizer
    # build skips this listing.
    if os.environ.get("CLINFO_CHECK_PRELOAD"):
        print("sanitizer build: clinfo --raw skipped")
    else:
        code, raw, err = run(clinfo, "--raw")
        if code != 0:
            failures.append(f"clinfo --raw exited with {code}: {err.strip()}")
        for line in problems_in(raw + err, names):
            failures.append(f"error line (--raw): {line.strip()}")

    code, listing, err = run(clinfo, "-l")
    print(listing)
    if code != 0:
        failures.append(f"clinfo -l exited with {code}: {err.strip()}")
    platforms = re.findall(r"^Platform #\d+: (.*)$", listing, re.MULTILINE)
    if platforms != ["usmcl"]:
        failures.append(f"clinfo -l platforms: {platforms}, expected ['usmcl']")
    if not re.search(r"Device #0: \S", listing):
        failures.append("clinfo -l lists no device")
    for line in problems_in(listing + err, names):
        failures.append(f"error line (-l): {line.strip()}")

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
