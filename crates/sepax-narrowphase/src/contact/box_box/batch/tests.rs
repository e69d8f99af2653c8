//! The lane groups against the single-pair path.

use super::*;
use sepax_shapes::math::UnitQuaternion;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> Real {
        (lo + (hi - lo) * self.next()) as Real
    }
}

fn bits(m: &ContactManifold) -> Vec<u64> {
    let r = |x: Real| x.to_bits() as u64;
    let mut v = vec![r(m.normal.x), r(m.normal.y), r(m.normal.z), r(m.depth)];
    for p in &m.points {
        for k in 0..3 {
            v.push(r(p.point_a[k]));
            v.push(r(p.point_b[k]));
        }
        v.push(r(p.depth));
        v.push(u64::from(p.id.0));
    }
    v
}

/// A box near the origin: random, nearly aligned with `base` (nearly parallel edges,
/// resting-like), or flat (a zero extent).
fn boxes(rng: &mut Rng, n: usize) -> Vec<Obb> {
    let base = UnitQuaternion::from_euler_angles(0.3, -1.1, 0.7);
    (0..n)
        .map(|k| {
            let c = Point3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let mut h = Vector3::new(
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
            );
            let rot = match k % 4 {
                0 | 1 => UnitQuaternion::from_euler_angles(
                    rng.range(-3.2, 3.2),
                    rng.range(-3.2, 3.2),
                    rng.range(-3.2, 3.2),
                ),
                2 => {
                    base * UnitQuaternion::from_euler_angles(
                        rng.range(-1e-3, 1e-3),
                        rng.range(-3.2, 3.2),
                        rng.range(-1e-3, 1e-3),
                    )
                }
                _ => {
                    h.y = 0.0;
                    base
                }
            };
            Obb::from_rotation(c, rot, h).unwrap()
        })
        .collect()
}

/// Pairs of nearly parallel boxes (angle `1e-7..1e-2`) placed near contact along their
/// SAT witness (the accurate edge path's cases), and pairs of boxes rotated by multiples of
/// 45 degrees on an offset grid (exact ties between axes, signed zeros, touching).
fn hard_pairs(rng: &mut Rng) -> Vec<(Obb, Obb)> {
    let mut v = Vec::new();
    for _ in 0..2000 {
        let ra = UnitQuaternion::from_euler_angles(
            rng.range(-3.2, 3.2),
            rng.range(-3.2, 3.2),
            rng.range(-3.2, 3.2),
        );
        let angle = (1e-7f64.ln() + (1e-2f64.ln() - 1e-7f64.ln()) * rng.next()).exp();
        let axis = Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let rb = ra * UnitQuaternion::from_scaled_axis(axis.normalize() * angle as Real);
        let h = |rng: &mut Rng| {
            Vector3::new(
                rng.range(0.05, 2.0),
                rng.range(0.05, 2.0),
                rng.range(0.05, 2.0),
            )
        };
        let a = Obb::from_rotation(Point3::origin(), ra, h(rng)).unwrap();
        let c = Point3::new(
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let b = Obb::from_rotation(c, rb, h(rng)).unwrap();
        let w = crate::intersect::explain(&a, &b);
        let target = if rng.next() < 0.2 {
            0.0
        } else {
            rng.range(-0.05, 0.05)
        };
        v.push((
            a,
            b.translate(&(w.direction * (target - w.distance)))
                .unwrap_or(b),
        ));
    }
    let q = core::f64::consts::FRAC_PI_4;
    for k in 0..6 {
        let e = |m: usize| ((k * m + m / 2) % 8) as f64 * q;
        let ra = UnitQuaternion::from_euler_angles(e(1) as Real, 0.0, e(3) as Real);
        let rb = UnitQuaternion::from_euler_angles(0.0, e(2) as Real, e(5) as Real);
        let a = Obb::from_rotation(Point3::origin(), ra, Vector3::new(0.5, 0.5, 0.5)).unwrap();
        for x in [-1.0, -0.5, 0.0, 0.25, 1.0] {
            for y in [0.0, 0.5, 1.0] {
                for z in [-0.5, 0.0, 0.75] {
                    let hb = if (x as i32 + k as i32) % 2 == 0 {
                        0.5
                    } else {
                        0.25
                    };
                    let c = Point3::new(x, y, z);
                    v.push((
                        a,
                        Obb::from_rotation(c, rb, Vector3::new(0.5, hb, 0.5)).unwrap(),
                    ));
                }
            }
        }
    }
    v
}

/// The lane groups (whatever the build's `LANE_GROUPS`) against the single-pair path.
#[test]
fn lane_groups_match_the_single_path() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let bx = boxes(&mut rng, 4000);
    let stale = ContactManifold {
        normal: Vector3::new(9.0, 9.0, 9.0),
        depth: 9.0,
        points: ArrayVec::new(),
    };
    let configs = [ContactConfig::default(), ContactConfig::with_margin(0.05)];
    let mut some = 0;
    // Random and resting-like boxes, four pairs per group, and the hard pairs.
    let mut pairs: Vec<(&Obb, &Obb)> = bx.chunks_exact(2).map(|g| (&g[0], &g[1])).collect();
    let hard = hard_pairs(&mut rng);
    pairs.extend(hard.iter().map(|(a, b)| (a, b)));
    for cfg in &configs {
        for g in pairs.chunks_exact(4) {
            let a = [g[0].0, g[1].0, g[2].0, g[3].0];
            let b = [g[0].1, g[1].1, g[2].1, g[3].1];
            for (a, b) in [(a, b), (b, a)] {
                let mut got = [stale.clone(), stale.clone(), stale.clone(), stale.clone()];
                let n = manifolds4(a, b, cfg, &mut got);
                let mut count = 0;
                for p in 0..4 {
                    let mut want = stale.clone();
                    count += usize::from(manifold_into(a[p], b[p], cfg, &mut want));
                    assert_eq!(bits(&got[p]), bits(&want), "a={:?} b={:?}", a[p], b[p]);
                }
                assert_eq!(n, count);
                some += count;
            }
        }
    }
    assert!(some > 1000, "{some}");
    // The AVX2 build (eight-lane groups in `f32`, then four-lane ones and the tail), where
    // the CPU has AVX2, against the single path: both orders, all the pairs in one call,
    // and a call whose length leaves a group of four and a tail.
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = avx::Avx2::detect() {
        let swapped: Vec<(&Obb, &Obb)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
        for cfg in &configs {
            for ps in [&pairs[..], &swapped[..], &pairs[3..3 + 8 * 40 + 4 + 3]] {
                let mut got = vec![stale.clone(); ps.len()];
                let n = avx::groups_avx2(avx2, ps, cfg, &mut got);
                let mut count = 0;
                for (k, &(a, b)) in ps.iter().enumerate() {
                    let mut want = stale.clone();
                    count += usize::from(manifold_into(a, b, cfg, &mut want));
                    assert_eq!(bits(&got[k]), bits(&want), "avx2: a={a:?} b={b:?}");
                }
                assert_eq!(n, count);
            }
        }
    }
}
