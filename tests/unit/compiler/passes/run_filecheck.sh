#!/bin/sh
# Runs one IR test: kc-opt with the pipeline on the test's "; PASSES:" line,
# its output checked by FileCheck against the test's CHECK lines.
# usage: run_filecheck.sh KC_OPT FILECHECK TEST.ll
set -e
passes=$(sed -n 's/^; PASSES: //p' "$3")
"$1" -passes="$passes" "$3" > "${TMPDIR:-/tmp}/kc-opt-$$.ll"
status=0
"$2" --input-file="${TMPDIR:-/tmp}/kc-opt-$$.ll" "$3" || status=$?
rm -f "${TMPDIR:-/tmp}/kc-opt-$$.ll"
exit $status
