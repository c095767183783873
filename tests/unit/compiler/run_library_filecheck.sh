#!/bin/sh
# run_library_filecheck.sh LLVM-DIS FILECHECK LIBRARY.bc CHECKS: disassembles
# the builtin library and checks its function definitions (the lines that
# start with "define") against the CHECK lines of CHECKS. FileCheck over the
# whole 11 MB disassembly took 15 s of CPU; over the 5,600 definitions, 1 s.
set -e
"$1" "$3" -o - | grep '^define' | "$2" "$4"
