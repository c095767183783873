#!/bin/sh
# run_library_filecheck.sh LLVM-DIS FILECHECK LIBRARY.bc CHECKS: disassembles
# the builtin library and checks it against the CHECK lines of CHECKS.
set -e
"$1" "$3" -o - | "$2" "$4"
