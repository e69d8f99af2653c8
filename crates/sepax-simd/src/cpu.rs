//! Run-time CPU detection: the zero-sized tokens [`Avx`] and [`Avx2`], each the proof that the
//! running CPU has its feature, and the one way to run code compiled for it: [`Avx::run`],
//! which calls a [`LaneKernel`] with the AVX lane vector inside a function compiled with the
//! feature. Off x86-64 neither token exists and callers take their portable path.
#![allow(unsafe_code)]

use crate::avx::V256;
use crate::Lane256;

/// Code generic over its lane vector (it may also ignore it and only want the feature's
/// instruction encoding), with up to four arguments, for [`Avx::run`] and [`Avx2::run`]: they
/// call [`LaneKernel::run`] with the AVX register as `L`, inside a function compiled with the
/// feature. Mark `run` `#[inline(always)]` so that its body (and what it inlines) is compiled
/// there.
///
/// The arguments are passed to that function one by one (unused ones as `()`), not in a
/// struct: a reference argument keeps its no-alias guarantee there, which lets the compiler
/// keep a loop's loads of one argument out of the loop while it writes through another.
pub trait LaneKernel<A, B, C = (), D = ()> {
    /// What the kernel returns.
    type Output;
    /// The kernel on the lane vector `L`.
    fn run<L: Lane256>(self, a: A, b: B, c: C, d: D) -> Self::Output;
}

#[cfg(feature = "bench-internals")]
std::thread_local! {
    /// When set, both tokens' `detect` answer `None` on this thread.
    static PORTABLE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Tests only (feature `bench-internals`): while `on`, [`Avx::detect`] and [`Avx2::detect`] answer
/// `None` on the calling thread, so that the portable builds run on a CPU with AVX2 too.
#[cfg(feature = "bench-internals")]
pub fn force_portable(on: bool) {
    PORTABLE.with(|p| p.set(on));
}

/// Whether the test switch is set on this thread (always false without `bench-internals`).
#[inline(always)]
fn forced_portable() -> bool {
    #[cfg(feature = "bench-internals")]
    return PORTABLE.with(|p| p.get());
    #[cfg(not(feature = "bench-internals"))]
    false
}

/// A token type: detection, and the two ways to run code compiled for its feature.
macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $feature:tt) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(());

        impl $name {
            /// The token, when the CPU has the feature (`std` caches the detection).
            #[inline]
            pub fn detect() -> Option<$name> {
                if forced_portable() {
                    return None;
                }
                std::arch::is_x86_feature_detected!($feature).then_some($name(()))
            }

            /// `k.run::<L>(a, b, c, d)`, with `L` the AVX register of `LANES` `Real`s, compiled
            /// with the feature enabled (and what `run` inlines with it).
            #[inline]
            pub fn run<K: LaneKernel<A, B, C, D>, A, B, C, D>(
                self,
                k: K,
                a: A,
                b: B,
                c: C,
                d: D,
            ) -> K::Output {
                #[target_feature(enable = $feature)]
                fn inner<K: LaneKernel<A, B, C, D>, A, B, C, D>(
                    k: K,
                    a: A,
                    b: B,
                    c: C,
                    d: D,
                ) -> K::Output {
                    k.run::<V256>(a, b, c, d)
                }
                // SAFETY: the one precondition of a `#[target_feature]` function is that the
                // CPU has the feature; `self` proves it (crate soundness rule 1). The kernel's
                // AVX operations run only on this CPU, which has AVX (rule 2).
                unsafe { inner(k, a, b, c, d) }
            }
        }
    };
}

token!(
    /// Proof that the running CPU has AVX: only [`Avx::detect`] makes one (see the crate's
    /// soundness rules).
    Avx,
    "avx"
);

token!(
    /// Proof that the running CPU has AVX2 (and so AVX): only [`Avx2::detect`] makes one (see
    /// the crate's soundness rules).
    Avx2,
    "avx2"
);

impl Avx2 {
    /// The AVX token this one implies.
    #[inline]
    pub fn avx(self) -> Avx {
        Avx(())
    }
}

/// Asks the processor to start loading the cache lines of `*r` (the lines of its first
/// `size_of::<T>()` bytes, rounded up to whole 64-byte lines from its address). A hint: no
/// effect on results.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    let p = (r as *const T).cast::<i8>();
    for line in 0..core::mem::size_of::<T>().div_ceil(64).max(1) {
        // SAFETY: crate soundness rule 4: `_mm_prefetch` needs SSE, which every x86-64
        // processor has (it is in the target's baseline), and it never faults or reads into
        // the program. (`wrapping_add` forms the address without asserting it is in bounds.)
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line * 64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_matches_std() {
        assert_eq!(
            Avx::detect().is_some(),
            std::arch::is_x86_feature_detected!("avx")
        );
        assert_eq!(
            Avx2::detect().is_some(),
            std::arch::is_x86_feature_detected!("avx2")
        );
        struct Sum;
        impl LaneKernel<u32, u32> for Sum {
            type Output = u32;
            fn run<L: Lane256>(self, a: u32, b: u32, _: (), _: ()) -> u32 {
                a + b
            }
        }
        if let Some(t) = Avx2::detect() {
            assert_eq!(t.run(Sum, 3, 4, (), ()), 7);
        }
    }

    #[cfg(feature = "bench-internals")]
    #[test]
    fn portable_switch_hides_the_tokens() {
        force_portable(true);
        assert_eq!(Avx::detect(), None);
        assert_eq!(Avx2::detect(), None);
        force_portable(false);
        assert_eq!(
            Avx2::detect().is_some(),
            std::arch::is_x86_feature_detected!("avx2")
        );
    }
}
