;; The inner product the router's hot loops need, in WebAssembly SIMD (f32x4): V8 does not vectorise a
;; JavaScript loop, and this ran 512-dimension products about ten times faster than the best JavaScript
;; version here (96 products: 8.5-14.8 µs against 86-92 µs). `npm run build:wasm` compiles this file into
;; simd.ts; a test checks the two agree.
(module
  (memory (export "memory") 1)
  ;; The inner product of the n floats at byte offsets a and b; n a multiple of 8.
  (func $dot (export "dot") (param $a i32) (param $b i32) (param $n i32) (result f32)
    (local $end i32) (local $s0 v128) (local $s1 v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        ;; Two running sums, so one multiply-add does not wait for the one before it.
        (local.set $s0 (f32x4.add (local.get $s0)
          (f32x4.mul (v128.load (local.get $a)) (v128.load (local.get $b)))))
        (local.set $s1 (f32x4.add (local.get $s1)
          (f32x4.mul (v128.load offset=16 (local.get $a)) (v128.load offset=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 32)))
        (local.set $b (i32.add (local.get $b) (i32.const 32)))
        (br $next)))
    (local.set $s0 (f32x4.add (local.get $s0) (local.get $s1)))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $s0)) (f32x4.extract_lane 1 (local.get $s0)))
      (f32.add (f32x4.extract_lane 2 (local.get $s0)) (f32x4.extract_lane 3 (local.get $s0)))))
  ;; The inner products of the query at byte offset q with `count` consecutive rows of n floats starting at
  ;; byte offset rows, written as floats from byte offset out: an exact search in one call from JavaScript.
  (func (export "dots") (param $q i32) (param $rows i32) (param $n i32) (param $count i32) (param $out i32)
    (local $end i32) (local $step i32)
    (local.set $step (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (f32.store (local.get $out) (call $dot (local.get $q) (local.get $rows) (local.get $n)))
        (local.set $rows (i32.add (local.get $rows) (local.get $step)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next)))))
