//! The pair search of a dense layout: merge cursors over the sorted keys, four lanes at a
//! time, then a test of the listed candidates' boxes.

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::sorted::Sorted;

/// Moves cursor `s` to the first entry whose key is at least `first` (`f`: in four lanes; it
/// only ever moves forward: `first` grows with the home key).
///
/// # Safety
///
/// `*s <= c.len()`; it stays so: the sentinel key at index `c.len()` is never below `first`
/// (nothing is above `i32::MAX`), so the run of lanes below `first` that `s` skips stops at
/// the latest there, and the loop goes on only when all four lanes were below, that is,
/// before the sentinel.
#[allow(unsafe_code)]
#[inline(always)]
unsafe fn advance(c: &Sorted<'_>, s: &mut usize, f: wide::i32x4) {
    loop {
        // The keys below `first` are a prefix: skip it (the leading lanes below `first`).
        // SAFETY: `*s <= c.len()`, the precondition, kept by every step (see above).
        let below = f.simd_gt(unsafe { c.keys4(*s) }).to_bitmask();
        *s += (below + 1).trailing_zeros() as usize;
        if below != 0xF {
            break;
        }
    }
}

/// Candidate pairs held before they are tested (room for 1024 and one entry's five ranges of
/// four).
const CANDIDATES: usize = 1024 + 20;

/// Candidate pairs `(i[t], j[t])` of entry indices, found by key ranges and not yet tested; on
/// the stack (8 KiB), so the search allocates nothing but the pairs. The length is kept by the
/// caller (in a register).
struct Candidates {
    i: [u32; CANDIDATES],
    j: [u32; CANDIDATES],
}

/// The lane offsets `0, 1, 2, 3`.
const IOTA: [u32; 4] = [0, 1, 2, 3];

impl Candidates {
    /// Writes the four candidates `(i, s + t)`, `t < 4`, at `w .. w + 4` (unconditional
    /// stores; the caller counts those that are real).
    #[inline(always)]
    fn list(&mut self, w: usize, i: wide::u32x4, s: usize) {
        let js = wide::u32x4::splat(s as u32) + wide::u32x4::new(IOTA);
        self.j[w..w + 4].copy_from_slice(&js.to_array());
        self.i[w..w + 4].copy_from_slice(&i.to_array());
    }

    /// Lists entry `i` (`iv`: `i` in four lanes) against the entries of a key range starting at
    /// index `s` (every key from `s` on is at least the range's first key) and ending at key
    /// `last` (`lastv` in four lanes): the first four at `w`, returning the new length; more in
    /// range are tested at once, out of line. Keys are sorted, so the lanes in range are a
    /// prefix.
    ///
    /// # Safety
    ///
    /// `s <= c.len()`.
    #[allow(clippy::too_many_arguments, unsafe_code)]
    #[inline(always)]
    unsafe fn range(
        &mut self,
        c: &Sorted<'_>,
        w: usize,
        (i, iv): (usize, wide::u32x4),
        s: usize,
        (last, lastv): (i32, wide::i32x4),
        out: &mut Vec<u64>,
    ) -> usize {
        // SAFETY: `s <= c.len()`, the precondition.
        let above = unsafe { c.keys4(s) }.simd_gt(lastv).to_bitmask();
        self.list(w, iv, s);
        if above == 0 {
            long_range(c, i, s + 4, last, out);
        }
        w + (above | 0x10).trailing_zeros() as usize
    }

    /// Moves `cursor` to the first entry whose key is at least `first = k + d` (it only ever
    /// moves forward: `first` grows with the home key `k`) and lists entry `i` against the
    /// range of keys `first ..= first + 2` from there, as [`Self::range`] does (`kv` is `k` in
    /// four lanes, `dv` is `d`). One four-lane load usually does both (the cursor moves about
    /// one entry per home entry, and the four entries from the old cursor reach past the
    /// range); otherwise [`advance`] and [`Self::range`].
    ///
    /// # Safety
    ///
    /// `*cursor <= c.len()`, `d >= 0` and `k + d <= i32::MAX`; the cursor then stays at most
    /// `c.len()` (as in [`advance`]: the sentinel key `i32::MAX` at `c.len()` is not below
    /// `first = k + d`, and the cursor only skips lanes below `first`).
    #[allow(clippy::too_many_arguments, unsafe_code)]
    #[inline(always)]
    unsafe fn row(
        &mut self,
        c: &Sorted<'_>,
        w: usize,
        i: (usize, wide::u32x4),
        cursor: &mut usize,
        (k, kv, kv2): (i32, wide::i32x4, wide::i32x4),
        (d, dv): (i32, wide::i32x4),
        out: &mut Vec<u64>,
    ) -> usize {
        let s = *cursor;
        // SAFETY: `s <= c.len()`, the precondition.
        let rel = unsafe { c.keys4(s) } - dv;
        // Keys are sorted: the lanes below `first` are a prefix, those above `first + 2` a
        // suffix. The keys are compared after subtracting `d`, against the home key's lanes,
        // which are broadcast once per home entry (no overflow for a sentinel: `d >= 0`; and
        // none is below: `k + d <= i32::MAX`).
        let below = kv.simd_gt(rel).to_bitmask();
        let above = rel.simd_gt(kv2).to_bitmask();
        if above == 0 {
            // The range may go on past these four lanes, or start after them (rare).
            let mut s = s;
            // SAFETY: `s <= c.len()`; `advance` keeps it so, and so does `range` need it.
            unsafe {
                advance(c, &mut s, kv + dv);
                *cursor = s;
                let last = k + d + 2;
                return self.range(c, w, i, s, (last, wide::i32x4::splat(last)), out);
            }
        }
        // Some lane is above the range, hence not below it: the range starts at lane `b` and
        // ends before the first lane above it, both within the four. `s + b <= c.len()`: the
        // lanes before `b` are below `first`, which a sentinel never is.
        let b = (below + 1).trailing_zeros();
        let s = s + b as usize;
        *cursor = s;
        self.list(w, i.1, s);
        w + (above.trailing_zeros() - b) as usize
    }

    /// Tests the `n` listed candidates and pushes the overlapping pairs.
    #[inline(always)]
    fn flush(&self, n: usize, c: &Sorted<'_>, out: &mut Vec<u64>) {
        for (&i, &j) in self.i[..n].iter().zip(&self.j[..n]) {
            let (i, j) = (i as usize, j as usize);
            if c.overlap(i, j) {
                out.push(c.pair(i, j));
            }
        }
    }
}

/// The entries from index `j` on with keys up to `last` (a range holding more than four: rare
/// with a cell size near the box size), tested against entry `i` one at a time.
#[cold]
#[inline(never)]
fn long_range(c: &Sorted<'_>, i: usize, mut j: usize, last: i32, out: &mut Vec<u64>) {
    // The sentinel keys stop the walk.
    while c.key(j) <= last {
        if c.overlap(i, j) {
            out.push(c.pair(i, j));
        }
        j += 1;
    }
}

/// The regular pairs of a dense layout. In key order, the 13 forward neighbour cells of a home
/// cell are five key ranges: the rest of the home cell with the next cell on z, and the rows
/// `(x, y + 1)`, `(x + 1, y - 1)`, `(x + 1, y)`, `(x + 1, y + 1)`, three cells each
/// (`z - 1 ..= z + 1`); a neighbour off the layout's y or z range is a padding cell, which
/// holds no entry. The range starts only grow with the home key, so four cursors that only
/// move forward find them: `O(n + pairs)` with no per-cell work.
///
/// Two passes over small batches: the first only reads keys, moving the cursors and listing
/// the first four entries of each range as candidates (four lanes at a time, no branch per
/// range); the second tests the candidates' boxes, read from the entries (one lane vector
/// per corner). With about one box per eight cells most ranges are empty, so this tests ~1.7
/// candidates per entry where testing every range four lanes wide tests 20 lanes; and only
/// the keys are copied out of the entries each frame (a box column cost more in memory
/// traffic than it saved in loads, measured).
///
/// On a CPU with AVX2 the same code runs compiled for AVX2 (see [`avx2`]): the same operations
/// in VEX encoding (three-operand forms, loads folded into other instructions), so the same
/// pairs.
#[inline(never)]
pub(super) fn dense_pairs(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = avx2::Avx2::detect() {
        return avx2::dense_pairs(cpu, c, dims, out);
    }
    dense_pairs_body(c, dims, out);
}

/// The body of [`dense_pairs`], instantiated for the build's own target features and for
/// AVX2.
#[inline(always)]
pub(super) fn dense_pairs_body(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    let n = c.len();
    let (py, pz) = ((dims[1] + 1) as i32, (dims[2] + 1) as i32);
    let plane = py * pz;
    // First keys of the four forward rows relative to the home key.
    let (d1, d2, d3, d4) = (pz - 1, plane - pz - 1, plane - 1, plane + pz - 1);
    // The layout keeps every key plus every offset at most `i32::MAX` (see `dense_layout`);
    // checked here once per search (one pass over the keys), as the cursors' bounds rest on
    // it (see `row`).
    let kmax = c.max_key();
    assert!(
        [d1, d2, d3, d4]
            .iter()
            .all(|&d| d >= 0 && kmax <= i32::MAX - d),
        "dense layout offsets out of range"
    );
    // Cursors (entry indices).
    let (mut c1, mut c2, mut c3, mut c4) = (0usize, 0usize, 0usize, 0usize);
    let mut cand = Candidates {
        i: [0; CANDIDATES],
        j: [0; CANDIDATES],
    };
    let mut w = 0;
    let splat = wide::i32x4::splat;
    let (r1, r2, r3, r4) = (
        (d1, splat(d1)),
        (d2, splat(d2)),
        (d3, splat(d3)),
        (d4, splat(d4)),
    );
    // An index loop: `i` is also a cursor value (measured: a few instructions per entry
    // fewer than iterating the keys).
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        let k = c.key(i);
        let kv = splat(k);
        let home = (k, kv, kv + splat(2));
        let iv = (i, wide::u32x4::splat(i as u32));
        // The rest of the home cell and the next cell on z, then the four rows.
        // SAFETY: `i + 1 <= n` (`i < n`); the cursors are at most `n`: they start at 0 and
        // only `row` moves them, which keeps them so as every `d` is at least 0 and
        // `k + d <= kmax + d <= i32::MAX` (asserted above).
        #[allow(unsafe_code)]
        unsafe {
            w = cand.range(c, w, iv, i + 1, (k + 1, kv + splat(1)), out);
            w = cand.row(c, w, iv, &mut c1, home, r1, out);
            w = cand.row(c, w, iv, &mut c2, home, r2, out);
            w = cand.row(c, w, iv, &mut c3, home, r3, out);
            w = cand.row(c, w, iv, &mut c4, home, r4, out);
        }
        if w > CANDIDATES - 20 {
            cand.flush(w, c, out);
            w = 0;
        }
    }
    cand.flush(w, c, out);
}
