#!/bin/sh
# Runs one reader test: kcc -stage=object on the assembled module, its output
# (and messages) checked by FileCheck against the CHECK lines of the
# assembly. A test with a "; RUN-FAIL" line expects the build to fail.
# usage: run_spirv_filecheck.sh KCC FILECHECK TEST.spv TEST.spvasm
set -e
out="${TMPDIR:-/tmp}/kcc-spirv-$$.txt"
status=0
"$1" -stage=object "$3" > "$out" 2>&1 || status=$?
if grep -q '^; RUN-FAIL' "$4"; then
  if [ $status -eq 0 ]; then
    echo "expected the build to fail"; cat "$out"; rm -f "$out"; exit 1
  fi
elif [ $status -ne 0 ]; then
  cat "$out"; rm -f "$out"; exit 1
fi
status=0
"$2" --input-file="$out" "$4" || status=$?
rm -f "$out"
exit $status
