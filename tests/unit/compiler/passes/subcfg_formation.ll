; PASSES: kc-work-group-function,kc-work-item-builtins,function(kc-canonicalize-barriers,kc-subcfg-formation,kc-work-item-loops)
; A barrier in a loop. The loaded value %x crosses the barrier: it goes
; through a per-work-item array. The loop counter %s is the same for every
; work-item: one slot, read before each work-item loop. The local id is
; recomputed where it is used. A dispatcher enters the sub-CFG after the
; barrier the group reached, or returns.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)

define spir_kernel void @acc(ptr addrspace(1) %in, ptr addrspace(3) %t, i64 %rounds) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %l
  %x = load float, ptr addrspace(1) %p, align 4
  br label %loop

loop:
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %q = getelementptr inbounds float, ptr addrspace(3) %t, i64 %l
  store float %x, ptr addrspace(3) %q, align 4
  call void @_Z7barrierj(i32 1)
  %s.next = add i64 %s, 1
  %more = icmp ult i64 %s.next, %rounds
  br i1 %more, label %loop, label %done

done:
  store float %x, ptr addrspace(1) %p, align 4
  ret void
}

; CHECK-LABEL: define void @acc_wg(
; CHECK-NOT: call void @__kc_barrier
; CHECK-NOT: call i64 @__kc_local
; CHECK-DAG: %next.barrier.slot = alloca i32
; CHECK-DAG: [[ARRAY:%x.*\.wi]] = alloca float, i64 %work_items, align 64, !kc.work_item_array
; CHECK-DAG: [[SLOT:%s.*\.uni]] = alloca i64
; CHECK-DAG: store i32 1, ptr %next.barrier.slot
; CHECK-DAG: store i32 2, ptr %next.barrier.slot
; CHECK: dispatch:
; CHECK-NEXT: %next.barrier = load i32, ptr %next.barrier.slot
; CHECK-NEXT: switch i32 %next.barrier, label %exit [
; CHECK-NEXT: i32 1, label %subcfg1.preheader
; CHECK-NEXT: ]
; CHECK: exit:
; CHECK-NEXT: ret void
; CHECK: subcfg0.x.header:
; CHECK: [[LINEAR0:%lid.linear[0-9]*]] = add i64 {{%.*}}, %lid.x
; CHECK: [[ELEMENT:%.*]] = getelementptr inbounds float, ptr [[ARRAY]], i64 [[LINEAR0]]
; CHECK: store float %x{{.*}}, ptr [[ELEMENT]]
; CHECK: store i64 {{%.*}}, ptr [[SLOT]]
; CHECK: subcfg1.preheader:
; CHECK-NEXT: load i64, ptr [[SLOT]]
; CHECK: subcfg1.x.header:
; CHECK: [[LINEAR1:%lid.linear[0-9]*]] = add i64
; CHECK: getelementptr inbounds float, ptr [[ARRAY]], i64 [[LINEAR1]]

!0 = !{i32 1, i32 3, i32 0}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"float*", !"float*", !"ulong"}
!3 = !{!"", !"", !""}
