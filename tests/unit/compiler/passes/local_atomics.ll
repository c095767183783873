; PASSES: function(kc-local-atomics)
; Atomics on local memory (address space 3, also through a generic pointer
; cast from it) become plain accesses; atomics on global memory stay.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @k_wg(
define void @k_wg(ptr addrspace(3) %l, ptr addrspace(1) %g, i32 %v) #0 {
; CHECK: [[OLD:%.*]] = load volatile i32, ptr addrspace(4) [[P:%.*]], align 4
; CHECK-NEXT: [[NEW:%.*]] = add i32 [[OLD]], %v
; CHECK-NEXT: store volatile i32 [[NEW]], ptr addrspace(4) [[P]], align 4
  %gen = addrspacecast ptr addrspace(3) %l to ptr addrspace(4)
  %a = atomicrmw volatile add ptr addrspace(4) %gen, i32 %v seq_cst, align 4
; CHECK: [[X:%.*]] = load i32, ptr addrspace(3) [[Q:%.*]], align 4
; CHECK-NEXT: [[EQ:%.*]] = icmp eq i32 [[X]], 0
; CHECK-NEXT: [[SEL:%.*]] = select i1 [[EQ]], i32 %v, i32 [[X]]
; CHECK-NEXT: store i32 [[SEL]], ptr addrspace(3) [[Q]], align 4
  %q = getelementptr inbounds i32, ptr addrspace(3) %l, i64 1
  %c = cmpxchg ptr addrspace(3) %q, i32 0, i32 %v monotonic monotonic, align 4
; CHECK: load i32, ptr addrspace(3) %l, align 4
  %ld = load atomic i32, ptr addrspace(3) %l acquire, align 4
; CHECK: atomicrmw xchg ptr addrspace(1) %g, i32 %v monotonic
  %x = atomicrmw xchg ptr addrspace(1) %g, i32 %v monotonic, align 4
  ret void
}

attributes #0 = { "kc-work-group-function"="k" }
