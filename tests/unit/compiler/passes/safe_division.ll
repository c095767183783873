; PASSES: function(kc-safe-division)
; Integer division and remainder never trap: the divisor becomes 1 where it
; is 0 (and, signed, where it is -1 and the dividend the minimum); constant
; divisors known safe are left alone.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @udiv(
; CHECK: [[Z:%.*]] = icmp eq i32 %d, 0
; CHECK: [[S:%.*]] = select i1 [[Z]], i32 1, i32 %d
; CHECK: udiv i32 %x, [[S]]
define i32 @udiv(i32 %x, i32 %d) {
  %q = udiv i32 %x, %d
  ret i32 %q
}

; CHECK-LABEL: define i64 @srem(
; CHECK: [[Z:%.*]] = icmp eq i64 %d, 0
; CHECK: [[M1:%.*]] = icmp eq i64 %d, -1
; CHECK: [[MIN:%.*]] = icmp eq i64 %x, -9223372036854775808
; CHECK: [[OV:%.*]] = and i1 [[M1]], [[MIN]]
; CHECK: [[BAD:%.*]] = or i1 [[Z]], [[OV]]
; CHECK: [[S:%.*]] = select i1 [[BAD]], i64 1, i64 %d
; CHECK: srem i64 %x, [[S]]
define i64 @srem(i64 %x, i64 %d) {
  %r = srem i64 %x, %d
  ret i64 %r
}

; CHECK-LABEL: define <4 x i32> @sdiv_vector(
; CHECK: [[Z:%.*]] = icmp eq <4 x i32> %d, zeroinitializer
; CHECK: [[S:%.*]] = select <4 x i1> {{%.*}}, <4 x i32> <i32 1, i32 1, i32 1, i32 1>, <4 x i32> %d
; CHECK: sdiv <4 x i32> %x, [[S]]
define <4 x i32> @sdiv_vector(<4 x i32> %x, <4 x i32> %d) {
  %q = sdiv <4 x i32> %x, %d
  ret <4 x i32> %q
}

; CHECK-LABEL: define i32 @constants(
; CHECK-NEXT: udiv i32 %x, 7
; CHECK-NEXT: sdiv i32 %x, -3
; CHECK-NEXT: urem <2 x i32> %v, <i32 3, i32 -1>
; CHECK: sdiv i32 %x, {{%.*}}
define i32 @constants(i32 %x, <2 x i32> %v) {
  %a = udiv i32 %x, 7
  %b = sdiv i32 %x, -3
  %c = urem <2 x i32> %v, <i32 3, i32 -1>
  %d = sdiv i32 %x, -1
  %s = add i32 %a, %b
  %t = add i32 %s, %d
  ret i32 %t
}
