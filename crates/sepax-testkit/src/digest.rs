//! A digest of every bit of the box–box manifolds (normal, depth, points, depths, feature ids)
//! on the contact benchmark's data sets ([`crate::box_pairs`]), 300,000 pairs each, both orders,
//! both contact configs, and with the boxes' world AABBs in all kind mixes: two builds give the
//! same digests exactly when their results are bit-identical on these calls. It also checks
//! that the in-place `box_box::manifold_into`, into one reused manifold, gives the same bits,
//! and that the batch `box_box::manifolds_into` over all the pairs of each kind mix (stale
//! manifolds in its output) does too, both with the run-time selected instruction set and in its
//! portable build (`box_box::manifolds_into_portable`, no run-time AVX2).
//! The narrow phase's `tests/suite/digest.rs` compares them with `tools/golden/` in both
//! precisions; `manifold_digest` of sepax-tools prints them (and `scripts/digests.sh --bless`
//! writes them).

use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{ContactConfig, ContactManifold, ContactPoint, FeatureId};
use sepax_narrowphase::intersect::BoxShape;
use sepax_shapes::math::{Point3, Real, Vector3};

use crate::box_pairs as data;

/// FNV-1a-like running hash over 64-bit words.
struct H(u64);
impl H {
    fn add(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x100000001b3);
    }
    fn r(&mut self, x: Real) {
        self.add(x.to_bits() as u64);
    }
    fn m(&mut self, m: &Option<ContactManifold>) {
        match m {
            None => self.add(7),
            Some(m) => {
                for k in 0..3 {
                    self.r(m.normal[k]);
                }
                self.r(m.depth);
                self.add(m.points.len() as u64);
                for p in &m.points {
                    for k in 0..3 {
                        self.r(p.point_a[k]);
                        self.r(p.point_b[k]);
                    }
                    self.r(p.depth);
                    self.add(p.id.0 as u64);
                }
            }
        }
    }
}

/// `box_box::manifold_into` into `out` (whatever it held before), as an `Option`.
fn into<A: BoxShape, B: BoxShape>(
    a: &A,
    b: &B,
    cfg: &ContactConfig,
    out: &mut ContactManifold,
) -> Option<ContactManifold> {
    box_box::manifold_into(a, b, cfg, out).then(|| out.clone())
}

/// A manifold holding stale values (what a reused output slot may hold).
fn stale() -> ContactManifold {
    let mut m = ContactManifold {
        normal: Vector3::new(9.0, -9.0, 9.0),
        depth: -9.0,
        points: Default::default(),
    };
    m.points.push(ContactPoint {
        point_a: Point3::new(1.0, 2.0, 3.0),
        point_b: Point3::new(4.0, 5.0, 6.0),
        depth: 7.0,
        id: FeatureId(8),
    });
    m
}

/// `box_box::manifolds_into` over `pairs` into stale slots, as `Option`s (`None` where the
/// points are empty, after checking that the slot's normal and depth were left as they were).
fn batch<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    cfg: &ContactConfig,
    portable: bool,
) -> Vec<Option<ContactManifold>> {
    let mut out = vec![stale(); pairs.len()];
    let n = if portable {
        box_box::manifolds_into_portable(pairs, cfg, &mut out)
    } else {
        box_box::manifolds_into(pairs, cfg, &mut out)
    };
    let s = stale();
    let r: Vec<_> = out
        .into_iter()
        .map(|m| {
            if m.points.is_empty() {
                assert!(m.normal == s.normal && m.depth.to_bits() == s.depth.to_bits());
                None
            } else {
                Some(m)
            }
        })
        .collect();
    assert_eq!(n, r.iter().filter(|m| m.is_some()).count());
    r
}

/// The digest lines, one per data set and contact config (what `tools/golden/` holds). Panics
/// where the in-place calls or either build of the batch give other bits than the single calls.
pub fn manifold_digest() -> String {
    let mut lines = String::new();
    for name in ["random", "resting"] {
        let pairs = data::data_set(name, 300_000);
        for (ci, cfg) in [ContactConfig::default(), ContactConfig::with_margin(0.05)]
            .iter()
            .enumerate()
        {
            let mut h = H(0xcbf29ce484222325);
            let mut hab = H(0xcbf29ce484222325);
            // The in-place calls, hashed the same way (a `false` as `None`).
            let (mut hi, mut habi) = (H(h.0), H(hab.0));
            let mut reused = ContactManifold::empty();
            let mut npts = 0;
            for p in &pairs {
                let m = box_box::manifold(&p.a, &p.b, cfg);
                npts += m.as_ref().map_or(0, |m| m.points.len());
                h.m(&m);
                h.m(&box_box::manifold(&p.b, &p.a, cfg));
                // AABB mixes: the boxes' bounding boxes and an axis-aligned copy.
                let aa = p.a.world_aabb();
                let ab = p.b.world_aabb();
                hab.m(&box_box::manifold(&aa, &p.b, cfg));
                hab.m(&box_box::manifold(&p.a, &ab, cfg));
                hab.m(&box_box::manifold(&aa, &ab, cfg));
                hi.m(&into(&p.a, &p.b, cfg, &mut reused));
                hi.m(&into(&p.b, &p.a, cfg, &mut reused));
                habi.m(&into(&aa, &p.b, cfg, &mut reused));
                habi.m(&into(&p.a, &ab, cfg, &mut reused));
                habi.m(&into(&aa, &ab, cfg, &mut reused));
            }
            // The batch API over each kind mix, hashed in the same order.
            let aabbs: Vec<_> = pairs
                .iter()
                .map(|p| (p.a.world_aabb(), p.b.world_aabb()))
                .collect();
            let ab: Vec<_> = pairs.iter().map(|p| (&p.a, &p.b)).collect();
            let ba: Vec<_> = pairs.iter().map(|p| (&p.b, &p.a)).collect();
            let aa_b: Vec<_> = pairs
                .iter()
                .zip(&aabbs)
                .map(|(p, x)| (&x.0, &p.b))
                .collect();
            let a_ab: Vec<_> = pairs
                .iter()
                .zip(&aabbs)
                .map(|(p, x)| (&p.a, &x.1))
                .collect();
            let aa_ab: Vec<_> = aabbs.iter().map(|x| (&x.0, &x.1)).collect();
            // Both builds of the batch: the run-time selected one and the portable one.
            for portable in [false, true] {
                let (m_ab, m_ba) = (batch(&ab, cfg, portable), batch(&ba, cfg, portable));
                let (m1, m2, m3) = (
                    batch(&aa_b, cfg, portable),
                    batch(&a_ab, cfg, portable),
                    batch(&aa_ab, cfg, portable),
                );
                let (mut hbt, mut habt) = (H(0xcbf29ce484222325), H(0xcbf29ce484222325));
                for k in 0..pairs.len() {
                    hbt.m(&m_ab[k]);
                    hbt.m(&m_ba[k]);
                    habt.m(&m1[k]);
                    habt.m(&m2[k]);
                    habt.m(&m3[k]);
                }
                assert_eq!(
                    (hbt.0, habt.0),
                    (h.0, hab.0),
                    "{name} cfg{ci}: the batch (portable: {portable}) differs"
                );
            }
            assert_eq!(
                (hi.0, habi.0),
                (h.0, hab.0),
                "{name} cfg{ci}: in-place differs"
            );
            lines += &format!(
                "{name} cfg{ci}: obb {:016x} aabb {:016x} points {npts}\n",
                h.0, hab.0
            );
        }
    }
    lines
}
