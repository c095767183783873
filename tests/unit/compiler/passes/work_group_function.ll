; PASSES: kc-work-group-function
; The wrapper: arguments unpacked from the buffer at the offsets of
; describeKernel (global pointer @0, local pointer @8 as an offset into the
; arena, int @16, struct @20 copied to an aligned alloca), kernel inlined.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { i32, float }

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %scratch, i32 %n, ptr byval(%struct.S) align 4 %s) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  %v = load i32, ptr %s, align 4
  %sum = add i32 %v, %n
  store i32 %sum, ptr addrspace(3) %scratch, align 4
  store i32 %sum, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define void @k_wg(
; CHECK-SAME: ptr noalias nocapture readonly %args, ptr noalias nocapture readonly %ctx) #[[ATTRS:[0-9]+]]
; CHECK: entry:
; CHECK: alloca %struct.S, align {{[48]}}
; CHECK: [[OUT:%.*]] = load ptr addrspace(1), ptr {{%.*}}, align 1
; CHECK: [[SLOT1:%.*]] = getelementptr inbounds i8, ptr %args, i64 8
; CHECK: [[OFFSET:%.*]] = load i64, ptr [[SLOT1]], align 1
; CHECK: [[FIELD:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 152
; CHECK: [[ARENA:%.*]] = load ptr, ptr [[FIELD]]
; CHECK: [[LOCAL:%.*]] = getelementptr inbounds i8, ptr [[ARENA]], i64 [[OFFSET]]
; CHECK: [[SCRATCH:%.*]] = addrspacecast ptr [[LOCAL]] to ptr addrspace(3)
; CHECK: [[SLOT2:%.*]] = getelementptr inbounds i8, ptr %args, i64 16
; CHECK: [[N:%.*]] = load i32, ptr [[SLOT2]], align 1
; CHECK: [[SLOT3:%.*]] = getelementptr inbounds i8, ptr %args, i64 20
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align {{[48]}} {{%.*}}, ptr align 1 [[SLOT3]], i64 8, i1 false)
; CHECK: br label %body
; CHECK: body:
; CHECK: [[V:%.*]] = load i32, ptr {{%.*}}
; CHECK: [[SUM:%.*]] = add i32 [[V]], [[N]]
; CHECK: store i32 [[SUM]], ptr addrspace(3) [[SCRATCH]]
; CHECK: store i32 [[SUM]], ptr addrspace(1) [[OUT]]
; CHECK: ret void
; CHECK: attributes #[[ATTRS]] = { {{.*}}"kc-work-group-function"="k"

!0 = !{i32 1, i32 3, i32 0, i32 0}
!1 = !{!"none", !"none", !"none", !"none"}
!2 = !{!"int*", !"int*", !"int", !"S"}
!3 = !{!"", !"", !"", !""}
