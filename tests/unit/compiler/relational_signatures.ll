; The relational builtins of the library (kernels-compiler/builtins/relational.cl)
; return int for every scalar argument type, double included: SPIR-V
; producers call _Z5isnand & co. returning i32, and a long result links
; only by accident of the x86-64 calling convention. (The vector forms
; return the element-sized integer vector; the host ABI rewrites their
; signatures in IR, so they are checked by running kernels elsewhere.)
; Checked on the disassembled builtins.bc (meson test
; compiler_relational_signatures).
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z8isfinitef(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z8isfinited(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z5isinff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z5isinfd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z5isnanf(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z5isnand(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z8isnormalf(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z8isnormald(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z7signbitf(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z7signbitd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z7isequalff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z7isequaldd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z10isnotequalff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z10isnotequaldd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z9isgreaterff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z9isgreaterdd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z14isgreaterequalff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z14isgreaterequaldd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z6islessff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z6islessdd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z11islessequalff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z11islessequaldd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z13islessgreaterff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z13islessgreaterdd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z9isorderedff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z9isordereddd(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z11isunorderedff(
; CHECK-DAG: {{^}}define {{.*}} i32 @_Z11isunordereddd(
