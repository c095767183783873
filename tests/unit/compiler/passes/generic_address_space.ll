; PASSES: kc-work-group-function,kc-generic-address-space
; to_local, to_private, to_global and get_fence become range checks against
; the launch context: the local arena (LocalMemory at 152, LocalMemorySize
; at 168) and the worker's stack (PrivateBegin at 176, PrivateEnd at 184).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare ptr addrspace(1) @__to_global(ptr addrspace(4))
declare ptr addrspace(3) @__to_local(ptr addrspace(4))
declare ptr @__to_private(ptr addrspace(4))
declare i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4))

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %p) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  %g = addrspacecast ptr addrspace(1) %p to ptr addrspace(4)
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %g)
  %pr = call ptr @__to_private(ptr addrspace(4) %g)
  %gl = call ptr addrspace(1) @__to_global(ptr addrspace(4) %g)
  %f = call i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4) %g)
  %li = ptrtoint ptr addrspace(3) %l to i64
  %pi = ptrtoint ptr %pr to i64
  %gi = ptrtoint ptr addrspace(1) %gl to i64
  %s1 = add i64 %li, %pi
  %s2 = add i64 %s1, %gi
  %fi = zext i32 %f to i64
  %s3 = add i64 %s2, %fi
  store i64 %s3, ptr addrspace(1) %out, align 8
  ret void
}

; CHECK-LABEL: define void @k_wg(
; CHECK-DAG: getelementptr inbounds i8, ptr {{%.*}}, i64 152
; CHECK-DAG: getelementptr inbounds i8, ptr {{%.*}}, i64 168
; CHECK-DAG: getelementptr inbounds i8, ptr {{%.*}}, i64 176
; CHECK-DAG: getelementptr inbounds i8, ptr {{%.*}}, i64 184
; CHECK: [[LOCAL:%.*]] = icmp ult i64
; CHECK: [[PRIVATE:%.*]] = icmp ult i64
; CHECK: select i1 [[LOCAL]], ptr addrspace(3) {{%.*}}, ptr addrspace(3) null
; CHECK: select i1 {{%.*}}, ptr {{%.*}}, ptr null
; CHECK: select i1 {{%.*}}, ptr addrspace(1) {{%.*}}, ptr addrspace(1) null
; CHECK: select i1 {{%.*}}, i32 1, i32 {{%.*}}
; CHECK-NOT: call {{.*}}@__to_
; CHECK-NOT: call {{.*}}@_Z9get_fence

!0 = !{i32 1, i32 1}
!1 = !{!"none", !"none"}
!2 = !{!"long*", !"int*"}
!3 = !{!"", !""}
