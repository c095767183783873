; PASSES: kc-large-globals
; Program-scope variables of 1 MiB or more become external declarations,
; reached through the GOT, whose storage the JIT allocates; a non-zero
; initializer stays as a constant without its zero tail. Smaller variables
; stay where they are.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@var = internal addrspace(1) global [3221225472 x i8] zeroinitializer, align 16
@table = internal addrspace(1) global <{ i32, i32, [1048574 x i32] }> <{ i32 7, i32 8, [1048574 x i32] zeroinitializer }>, align 4
@small = internal addrspace(1) global i32 5, align 4

; CHECK-DAG: @small = internal addrspace(1) global i32 5, align 4
; CHECK-DAG: @__kc_ginit.table = constant <{ i32, i32 }> <{ i32 7, i32 8 }>, align 4
; CHECK-DAG: @__kc_gvar.3221225472.0.var = external addrspace(1) global [3221225472 x i8], align 16
; CHECK-DAG: @__kc_gvar.4194304.8.table = external addrspace(1) global <{ i32, i32, [1048574 x i32] }>, align 4

; CHECK-LABEL: define void @k_wg(
; CHECK: getelementptr inbounds [3221225472 x i8], ptr addrspace(1) @__kc_gvar.3221225472.0.var
; CHECK: load i32, ptr addrspace(1) @__kc_gvar.4194304.8.table
; CHECK: load i32, ptr addrspace(1) @small
define void @k_wg(i64 %i) {
  %p = getelementptr inbounds [3221225472 x i8], ptr addrspace(1) @var, i64 0, i64 %i
  store i8 1, ptr addrspace(1) %p
  %t = load i32, ptr addrspace(1) @table
  %s = load i32, ptr addrspace(1) @small
  ret void
}
