/*
 * simd128.h: the few 4-lane float operations the _simd128 kernels use, on two back ends.
 *
 * In the wasm build (-msimd128) they map to <wasm_simd128.h> intrinsics, so the shipped .wasm
 * holds f32x4 instructions. In the native gcc/clang build they map to SSE2, which has the same
 * 128-bit width: the native tests run the very same _simd128 kernel code, and the native
 * benchmark measures it at SSE width. Nothing here is used by the _scalar twins.
 *
 * AL_SIMD128 is 1 when a back end exists; every _simd128.c compiles to nothing otherwise (the
 * scalar .wasm), and kernels/dispatch.c then picks the _scalar twins.
 *
 * Deliberately absent: fused multiply-add (wasm SIMD128 has none), gathers, and anything wider.
 */
#ifndef AL_SIMD128_H
#define AL_SIMD128_H

#include <stdint.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define AL_SIMD128 1
typedef v128_t al_v4;
typedef v128_t al_v4i;
static inline al_v4 al_v4_load(const float *p) { return wasm_v128_load(p); }
static inline void al_v4_store(float *p, al_v4 a) { wasm_v128_store(p, a); }
static inline al_v4 al_v4_splat(float x) { return wasm_f32x4_splat(x); }
static inline al_v4 al_v4_zero(void) { return wasm_f32x4_splat(0.0f); }
static inline al_v4 al_v4_add(al_v4 a, al_v4 b) { return wasm_f32x4_add(a, b); }
static inline al_v4 al_v4_sub(al_v4 a, al_v4 b) { return wasm_f32x4_sub(a, b); }
static inline al_v4 al_v4_mul(al_v4 a, al_v4 b) { return wasm_f32x4_mul(a, b); }
static inline al_v4 al_v4_div(al_v4 a, al_v4 b) { return wasm_f32x4_div(a, b); }
/* pmax/pmin: b < a ? a : b. Cheaper than NaN-propagating max/min in V8; callers never feed NaN. */
static inline al_v4 al_v4_max(al_v4 a, al_v4 b) { return wasm_f32x4_pmax(a, b); }
static inline al_v4 al_v4_min(al_v4 a, al_v4 b) { return wasm_f32x4_pmin(a, b); }
static inline float al_v4_lane(al_v4 a, int i)
{
    switch (i) {
    case 0: return wasm_f32x4_extract_lane(a, 0);
    case 1: return wasm_f32x4_extract_lane(a, 1);
    case 2: return wasm_f32x4_extract_lane(a, 2);
    default: return wasm_f32x4_extract_lane(a, 3);
    }
}
static inline float al_v4_hsum(al_v4 a)
{
    al_v4 s = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
    s = wasm_f32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2));
    return wasm_f32x4_extract_lane(s, 0);
}
static inline float al_v4_hmax(al_v4 a)
{
    al_v4 s = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
    s = wasm_f32x4_pmax(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2));
    return wasm_f32x4_extract_lane(s, 0);
}
/* lane i (a constant) of a in all four lanes */
#define al_v4_bcast(a, i) wasm_i32x4_shuffle(a, a, i, i, i, i)
/* (r0..r3 as rows) → columns, in place: the 4×4 transpose of packing and of dot reductions */
#define AL_V4_TRANSPOSE4(r0, r1, r2, r3)                                                           \
    do {                                                                                           \
        al_v4 t0_ = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);                                        \
        al_v4 t1_ = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);                                        \
        al_v4 t2_ = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);                                        \
        al_v4 t3_ = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);                                        \
        r0 = wasm_i32x4_shuffle(t0_, t1_, 0, 1, 4, 5);                                             \
        r1 = wasm_i32x4_shuffle(t0_, t1_, 2, 3, 6, 7);                                             \
        r2 = wasm_i32x4_shuffle(t2_, t3_, 0, 1, 4, 5);                                             \
        r3 = wasm_i32x4_shuffle(t2_, t3_, 2, 3, 6, 7);                                             \
    } while (0)
/* Bit casts and integer lanes, for exp's 2^n scaling. */
static inline al_v4i al_v4_as_i(al_v4 a) { return a; }
static inline al_v4 al_v4i_as_f(al_v4i a) { return a; }
static inline al_v4i al_v4i_sub(al_v4i a, al_v4i b) { return wasm_i32x4_sub(a, b); }
static inline al_v4i al_v4i_add(al_v4i a, al_v4i b) { return wasm_i32x4_add(a, b); }
static inline al_v4i al_v4i_splat(int32_t x) { return wasm_i32x4_splat(x); }
static inline al_v4i al_v4i_shl23(al_v4i a) { return wasm_i32x4_shl(a, 23); }
/* a with lanes where keep is false set to 0 (keep: a compare result, all ones or all zeros) */
static inline al_v4 al_v4_gt(al_v4 a, al_v4 b) { return wasm_f32x4_gt(a, b); }
static inline al_v4 al_v4_and(al_v4 a, al_v4 keep) { return wasm_v128_and(a, keep); }

#elif defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#define AL_SIMD128 1
typedef __m128 al_v4;
typedef __m128i al_v4i;
static inline al_v4 al_v4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void al_v4_store(float *p, al_v4 a) { _mm_storeu_ps(p, a); }
static inline al_v4 al_v4_splat(float x) { return _mm_set1_ps(x); }
static inline al_v4 al_v4_zero(void) { return _mm_setzero_ps(); }
static inline al_v4 al_v4_add(al_v4 a, al_v4 b) { return _mm_add_ps(a, b); }
static inline al_v4 al_v4_sub(al_v4 a, al_v4 b) { return _mm_sub_ps(a, b); }
static inline al_v4 al_v4_mul(al_v4 a, al_v4 b) { return _mm_mul_ps(a, b); }
static inline al_v4 al_v4_div(al_v4 a, al_v4 b) { return _mm_div_ps(a, b); }
static inline al_v4 al_v4_max(al_v4 a, al_v4 b) { return _mm_max_ps(b, a); }
static inline al_v4 al_v4_min(al_v4 a, al_v4 b) { return _mm_min_ps(b, a); }
static inline float al_v4_lane(al_v4 a, int i)
{
    float t[4];
    _mm_storeu_ps(t, a);
    return t[i & 3];
}
static inline float al_v4_hsum(al_v4 a)
{
    __m128 s = _mm_add_ps(a, _mm_movehl_ps(a, a));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}
static inline float al_v4_hmax(al_v4 a)
{
    __m128 s = _mm_max_ps(a, _mm_movehl_ps(a, a));
    s = _mm_max_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}
static inline al_v4i al_v4_as_i(al_v4 a) { return _mm_castps_si128(a); }
static inline al_v4 al_v4i_as_f(al_v4i a) { return _mm_castsi128_ps(a); }
static inline al_v4i al_v4i_sub(al_v4i a, al_v4i b) { return _mm_sub_epi32(a, b); }
static inline al_v4i al_v4i_add(al_v4i a, al_v4i b) { return _mm_add_epi32(a, b); }
static inline al_v4i al_v4i_splat(int32_t x) { return _mm_set1_epi32(x); }
static inline al_v4i al_v4i_shl23(al_v4i a) { return _mm_slli_epi32(a, 23); }
static inline al_v4 al_v4_gt(al_v4 a, al_v4 b) { return _mm_cmpgt_ps(a, b); }
static inline al_v4 al_v4_and(al_v4 a, al_v4 keep) { return _mm_and_ps(a, keep); }
#define al_v4_bcast(a, i) _mm_shuffle_ps(a, a, _MM_SHUFFLE(i, i, i, i))
#define AL_V4_TRANSPOSE4(r0, r1, r2, r3) _MM_TRANSPOSE4_PS(r0, r1, r2, r3)

#else
#define AL_SIMD128 0
#endif

#if AL_SIMD128
/* Code-size controls for the -O3 twins (the SIMD .wasm has a 150 KB budget): AL_V4_NOINLINE keeps a
 * tile kernel in one copy however many drivers call it; AL_V4_SCALAR_LOOP stops clang vectorising
 * and unrolling a scalar tail loop (a few elements; the vector copy would never run). */
#if defined(__GNUC__) || defined(__clang__)
#define AL_V4_NOINLINE __attribute__((noinline))
#else
#define AL_V4_NOINLINE
#endif
#if defined(__clang__)
#define AL_V4_SCALAR_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#else
#define AL_V4_SCALAR_LOOP
#endif

/*
 * exp(x) on four lanes: Cephes' expf, the same maths as al_expf_scalar in kernels.h
 * (range reduction x = n·ln2 + r, degree-5 polynomial for e^r, then 2^n built in the exponent
 * bits). Round-to-nearest n without a float→int conversion: adding 1.5·2^23 leaves n in the
 * low mantissa bits. Inputs are clamped to [-87.3, 88]; max relative error about 2 ulp.
 */
static inline al_v4 al_v4_exp(al_v4 x)
{
    const al_v4 magic = al_v4_splat(12582912.0f); /* 1.5 * 2^23 */
    x = al_v4_min(al_v4_max(x, al_v4_splat(-87.3f)), al_v4_splat(88.0f));
    al_v4 t = al_v4_add(al_v4_mul(x, al_v4_splat(1.44269504088896341f)), magic);
    al_v4 n = al_v4_sub(t, magic);
    al_v4 r = al_v4_sub(x, al_v4_mul(n, al_v4_splat(0.693359375f)));
    r = al_v4_sub(r, al_v4_mul(n, al_v4_splat(-2.12194440e-4f)));
    al_v4 p = al_v4_splat(1.9875691500e-4f);
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(1.3981999507e-3f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(8.3334519073e-3f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(4.1665795894e-2f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(1.6666665459e-1f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(5.0000001201e-1f));
    p = al_v4_add(al_v4_add(al_v4_mul(al_v4_mul(p, r), r), r), al_v4_splat(1.0f));
    /* 2^n: n sits in the low bits of t's mantissa; shift (n + 127) into the exponent field.
     * The clamp keeps n in [-126, 127], so 2^n is a normal float. */
    al_v4i ni = al_v4i_sub(al_v4_as_i(t), al_v4_as_i(magic));
    al_v4 pow2n = al_v4i_as_f(al_v4i_shl23(al_v4i_add(ni, al_v4i_splat(127))));
    return al_v4_mul(p, pow2n);
}

/*
 * al_v4_exp for x <= 0 (softmax's s − max; −inf gives the clamp value): the same clamp, reduction
 * and polynomial, so the same bits, with the upper clamp dropped and the exponent bias folded
 * into the rounding constant (2^n is then t's bits shifted into place).
 */
static inline al_v4 al_v4_exp_neg(al_v4 x)
{
    const al_v4 magic = al_v4_splat(12583039.0f); /* 1.5 * 2^23 + 127 */
    x = al_v4_max(x, al_v4_splat(-87.3f));
    al_v4 t = al_v4_add(al_v4_mul(x, al_v4_splat(1.44269504088896341f)), magic);
    al_v4 n = al_v4_sub(t, magic);
    al_v4 r = al_v4_sub(x, al_v4_mul(n, al_v4_splat(0.693359375f)));
    r = al_v4_sub(r, al_v4_mul(n, al_v4_splat(-2.12194440e-4f)));
    al_v4 p = al_v4_splat(1.9875691500e-4f);
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(1.3981999507e-3f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(8.3334519073e-3f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(4.1665795894e-2f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(1.6666665459e-1f));
    p = al_v4_add(al_v4_mul(p, r), al_v4_splat(5.0000001201e-1f));
    p = al_v4_add(al_v4_add(al_v4_mul(al_v4_mul(p, r), r), r), al_v4_splat(1.0f));
    return al_v4_mul(p, al_v4i_as_f(al_v4i_shl23(al_v4_as_i(t))));
}
#endif

#endif /* AL_SIMD128_H */
