; PASSES: kc-work-group-function,kc-work-item-builtins,function(kc-canonicalize-barriers,kc-subcfg-formation,kc-work-item-loops)
; No barrier: one z/y/x loop nest around the body; get_global_id(0) is the
; group's base (from the launch context, once) plus the x induction
; variable; the x loop is marked for vectorization with parallel accesses.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)

define spir_kernel void @copy(ptr addrspace(1) %a, ptr addrspace(1) %c) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %n = call i64 @_Z14get_local_sizej(i32 1)
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %x = load float, ptr addrspace(1) %pa, align 4
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %n
  store float %x, ptr addrspace(1) %pc, align 4
  ret void
}

; CHECK-LABEL: define void @copy_wg(
; CHECK-NOT: call
; CHECK: getelementptr inbounds i8, ptr %ctx, i64 104
; CHECK: getelementptr inbounds i8, ptr %ctx, i64 56
; CHECK: getelementptr inbounds i8, ptr %ctx, i64 32
; CHECK: [[BASE:%.*]] = add i64
; CHECK: wi.z.header:
; CHECK: %lid.z = phi i64 [ 0, %wi.preheader ], [ {{%.*}}, %wi.z.latch ]
; CHECK: wi.x.header:
; CHECK: %lid.x = phi i64 [ 0, %wi.y.header ], [ {{%.*}}, %wi.x.latch ]
; CHECK: [[GID:%.*]] = add i64 [[BASE]], %lid.x
; CHECK: getelementptr inbounds float, ptr addrspace(1) {{%.*}}, i64 [[GID]]
; CHECK: load float, {{.*}}, !llvm.access.group [[GROUP:![0-9]+]]
; CHECK: store float {{.*}}, !llvm.access.group [[GROUP]]
; CHECK: wi.x.latch:
; CHECK: br i1 {{%.*}}, label %wi.x.header, label %wi.y.latch, !llvm.loop [[LOOP:![0-9]+]]
; CHECK: br i1 {{%.*}}, label %wi.y.header, label %wi.z.latch, !llvm.loop [[YLOOP:![0-9]+]]
; CHECK: br i1 {{%.*}}, label %wi.z.header, label %exit, !llvm.loop [[ZLOOP:![0-9]+]]
; CHECK: [[GROUP]] = distinct !{}
; CHECK: [[LOOP]] = distinct !{[[LOOP]], [[VECTORIZE:![0-9]+]], [[PARALLEL:![0-9]+]], [[NORUNTIME:![0-9]+]]}
; CHECK: [[VECTORIZE]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[GROUP]]}
; CHECK: [[NORUNTIME]] = !{!"llvm.loop.unroll.runtime.disable"}
; CHECK: [[YLOOP]] = distinct !{[[YLOOP]], [[NORUNTIME]]}
; CHECK: [[ZLOOP]] = distinct !{[[ZLOOP]], [[NORUNTIME]]}

!0 = !{i32 1, i32 1}
!1 = !{!"none", !"none"}
!2 = !{!"float*", !"float*"}
!3 = !{!"const", !""}
