; PASSES: kc-work-group-function,kc-local-memory
; A kernel's __local variables, laid out in the arena in the order they are
; found, each at its alignment (an int after a 16-byte-aligned float4[8]).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@k.tile = internal addrspace(3) global [8 x <4 x float>] undef, align 16
@k.flag = internal addrspace(3) global i32 undef, align 4
@k.more = internal addrspace(3) global [3 x double] undef, align 8

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  store i32 1, ptr addrspace(3) @k.flag, align 4
  %e = getelementptr inbounds [8 x <4 x float>], ptr addrspace(3) @k.tile, i64 0, i64 2
  store <4 x float> zeroinitializer, ptr addrspace(3) %e, align 16
  store double 1.0, ptr addrspace(3) getelementptr inbounds ([3 x double], ptr addrspace(3) @k.more, i64 0, i64 1), align 8
  ret void
}

; CHECK-LABEL: define void @k_wg(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; CHECK: [[ARENA:%.*]] = load ptr, ptr {{%.*}}
; CHECK: [[TILE:%.*]] = getelementptr inbounds i8, ptr [[ARENA]], i64 0
; CHECK: addrspacecast ptr [[TILE]] to ptr addrspace(3)
; CHECK: [[FLAG:%.*]] = getelementptr inbounds i8, ptr [[ARENA]], i64 128
; CHECK: [[MORE:%.*]] = getelementptr inbounds i8, ptr [[ARENA]], i64 136
; CHECK-NOT: @k.flag
; CHECK: attributes #[[ATTRS]] = { {{.*}}"kc-static-local-mem-size"="160"

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"float*"}
!3 = !{!""}
