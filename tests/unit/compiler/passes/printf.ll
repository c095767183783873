; PASSES: kc-printf,kc-work-group-function,kc-printf-buffer
; A printf call becomes one record in the launch's printf buffer: reserved
; (144 bytes: a 16-byte header, five 4-byte sizes padded to 24, then the
; arguments each padded to 8), filled only when the reservation succeeded,
; and 0 or -1 as the result. A vector passed byval is copied from its copy.
; The buffer is Ctx->Printf (offset 160) in the work-group function.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr addrspace(2) constant [25 x i8] c"%d %f %v4hlf %v16hlf %s\0A\00", align 1
@.str.1 = private unnamed_addr addrspace(2) constant [2 x i8] c"s\00", align 1

declare i32 @printf(ptr addrspace(2), ...)

define spir_kernel void @k(ptr addrspace(1) %out, <4 x float> %v) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  %big = alloca <16 x float>, align 64
  store <16 x float> zeroinitializer, ptr %big, align 64
  %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, i32 7, double 1.5, <4 x float> %v, ptr byval(<16 x float>) align 64 %big, ptr addrspace(2) @.str.1)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define internal ptr @__kc_printf_reserve(
; CHECK: atomicrmw or ptr {{%.*}}, i64 -9223372036854775808
; CHECK: cmpxchg ptr
; CHECK-LABEL: define void @k_wg(
; CHECK: [[FIELD:%.*]] = getelementptr inbounds i8, ptr {{%.*}}, i64 160
; CHECK: [[BUFFER:%.*]] = load ptr, ptr [[FIELD]]
; CHECK: [[RECORD:%.*]] = call ptr @__kc_printf_reserve(ptr [[BUFFER]], i64 144)
; CHECK: [[WRITTEN:%.*]] = icmp ne ptr [[RECORD]], null
; CHECK: br i1 [[WRITTEN]]
; CHECK: store i32 144, ptr [[RECORD]]
; CHECK: store i32 5,
; CHECK: store i64 ptrtoint (ptr addrspace(2) @.str to i64)
; CHECK: store i32 4,
; CHECK: store i32 8,
; CHECK: store i32 16,
; CHECK: store i32 64,
; CHECK: store i32 8,
; CHECK: store i32 7,
; CHECK: store double 1.5
; CHECK: store <4 x float>
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 {{%.*}}, ptr align 1 {{%.*}}, i64 64, i1 false)
; CHECK: store i64 ptrtoint (ptr addrspace(2) @.str.1 to i64)
; CHECK: select i1 [[WRITTEN]], i32 0, i32 -1
; CHECK-NOT: @printf(
; CHECK-NOT: @__kc_printf_buffer

!0 = !{i32 1, i32 0}
!1 = !{!"none", !"none"}
!2 = !{!"int*", !"float4"}
!3 = !{!"", !""}
