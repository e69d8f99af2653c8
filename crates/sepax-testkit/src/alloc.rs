//! A counting global allocator for the "warm frames allocate nothing" tests. Each test binary
//! installs it itself (a library must not choose the allocator of every binary that links it):
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: sepax_testkit::alloc::Counting = sepax_testkit::alloc::Counting;
//! ```
//!
//! and reads [`allocations`] before and after the measured code.

// `GlobalAlloc` is an unsafe trait; see the soundness note on the impl.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts allocations (and reallocations) made through it, then defers to `System`.
pub struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// The number of allocations and reallocations made through [`Counting`] so far.
pub fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::Relaxed)
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counter is an atomic side effect that touches no memory the
// allocator hands out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as is (see above).
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is (see above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as is (see above).
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
