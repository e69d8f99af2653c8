//! Shared helpers for the integration tests: a tiny deterministic RNG and box builders.
#![allow(dead_code)]

use sepax_exact::ExactBox;

/// SplitMix64: deterministic, dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn vec(&mut self, lo: f64, hi: f64) -> [f64; 3] {
        [self.range(lo, hi), self.range(lo, hi), self.range(lo, hi)]
    }
    /// Rows of a random rotation matrix (from a random unit quaternion), rounded to f32 when asked.
    pub fn rotation(&mut self, f32_valued: bool) -> [[f64; 3]; 3] {
        let mut q;
        loop {
            q = [
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            ];
            let n: f64 = q.iter().map(|x| x * x).sum();
            if n > 1e-3 && n <= 1.0 {
                let n = n.sqrt();
                q = q.map(|x| x / n);
                break;
            }
        }
        let [w, x, y, z] = q;
        let m = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
            ],
            [
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
            ],
            [
                2.0 * (x * z + w * y),
                2.0 * (y * z - w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        if f32_valued {
            m.map(|r| r.map(|v| f64::from(v as f32)))
        } else {
            m
        }
    }
}

/// A box description kept in plain floats (for naive reference code).
#[derive(Clone, Copy, Debug)]
pub struct FBox {
    pub c: [f64; 3],
    pub u: [[f64; 3]; 3],
    pub h: [f64; 3],
}

impl FBox {
    pub fn exact(&self) -> ExactBox {
        ExactBox::new(self.c, self.u, self.h)
    }
    /// Corners `c ± h0 u0 ± h1 u1 ± h2 u2` in f64 (exact for small grid inputs only).
    pub fn corner(&self, signs: [f64; 3]) -> [f64; 3] {
        let mut p = self.c;
        for (k, sign) in signs.iter().enumerate() {
            for (pc, uc) in p.iter_mut().zip(self.u[k]) {
                *pc += sign * self.h[k] * uc;
            }
        }
        p
    }
    /// The 12 edges as corner pairs.
    pub fn edges(&self) -> Vec<([f64; 3], [f64; 3])> {
        let mut out = Vec::new();
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            for si in [-1.0, 1.0] {
                for sj in [-1.0, 1.0] {
                    let mut a = [0.0; 3];
                    let mut b = [0.0; 3];
                    a[i] = si;
                    a[j] = sj;
                    b[i] = si;
                    b[j] = sj;
                    a[k] = -1.0;
                    b[k] = 1.0;
                    out.push((self.corner(a), self.corner(b)));
                }
            }
        }
        out
    }
}

pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Naive f64 SAT over the 15 axes: (margin, axis index) with margin = −min s/|n|.
pub fn naive_sat(a: &FBox, b: &FBox) -> (f64, usize) {
    let u = [a.u[0], a.u[1], a.u[2], b.u[0], b.u[1], b.u[2]];
    let h = [a.h[0], a.h[1], a.h[2], b.h[0], b.h[1], b.h[2]];
    let p = [b.c[0] - a.c[0], b.c[1] - a.c[1], b.c[2] - a.c[2]];
    let pairs = [
        (1, 2),
        (2, 0),
        (0, 1),
        (4, 5),
        (5, 3),
        (3, 4),
        (0, 3),
        (0, 4),
        (0, 5),
        (1, 3),
        (1, 4),
        (1, 5),
        (2, 3),
        (2, 4),
        (2, 5),
    ];
    let mut best = (f64::INFINITY, usize::MAX);
    for (idx, &(i, j)) in pairs.iter().enumerate() {
        let n = cross(u[i], u[j]);
        let len = dot(n, n).sqrt();
        if len < 1e-6 {
            continue;
        }
        let sigma: f64 = (0..6).map(|k| h[k] * dot(n, u[k]).abs()).sum();
        let v = (sigma - dot(n, p).abs()) / len;
        if v < best.0 {
            best = (v, idx);
        }
    }
    (-best.0, best.1)
}
