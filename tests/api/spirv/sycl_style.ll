; A kernel as SYCL compilers write it, in LLVM IR for the spir64 target: the
; work-item ids as the __spirv_BuiltIn* variables, and __spirv_* calls for a
; barrier, an atomic and OpenCL.std math (llvm-spirv turns them into SPIR-V
; builtins, extended instructions and instructions).
;   tmp[lid] = fma(sqrt((float)gid), 2, 1); barrier;
;   out[gid] = tmp[local_size - 1 - lid]; atomic count += 1
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64"

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInLocalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInWorkgroupSize = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

declare spir_func void @_Z22__spirv_ControlBarrierjjj(i32, i32, i32)
declare spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEi(ptr addrspace(1), i32, i32, i32)
declare spir_func float @_Z16__spirv_ocl_sqrtf(float)
declare spir_func float @_Z15__spirv_ocl_fmafff(float, float, float)

define spir_kernel void @sycl_style(ptr addrspace(1) %out, ptr addrspace(1) %count, ptr addrspace(3) %tmp) {
entry:
  %gid.v = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %gid = extractelement <3 x i64> %gid.v, i64 0
  %lid.v = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInLocalInvocationId, align 32
  %lid = extractelement <3 x i64> %lid.v, i64 0
  %ls.v = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInWorkgroupSize, align 32
  %ls = extractelement <3 x i64> %ls.v, i64 0
  %f = uitofp i64 %gid to float
  %s = call spir_func float @_Z16__spirv_ocl_sqrtf(float %f)
  %m = call spir_func float @_Z15__spirv_ocl_fmafff(float %s, float 2.0, float 1.0)
  %slot = getelementptr float, ptr addrspace(3) %tmp, i64 %lid
  store float %m, ptr addrspace(3) %slot
  call spir_func void @_Z22__spirv_ControlBarrierjjj(i32 2, i32 2, i32 272)
  %rev = sub i64 %ls, %lid
  %rev1 = sub i64 %rev, 1
  %oslot = getelementptr float, ptr addrspace(3) %tmp, i64 %rev1
  %v = load float, ptr addrspace(3) %oslot
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %gid
  store float %v, ptr addrspace(1) %dst
  %old = call spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEi(ptr addrspace(1) %count, i32 1, i32 0, i32 1)
  ret void
}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
