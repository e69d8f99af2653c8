//! A digest of every bit of the box–box manifolds (normal, depth, points, depths, feature ids)
//! on the contact benchmark's data sets, 300,000 pairs each, both orders, both contact configs,
//! and with the boxes' world AABBs in all kind mixes: two builds give the same digests exactly
//! when their results are bit-identical on these calls. Run the same command on both builds
//! (and with `--features f64`): `cargo run --release --example manifold_digest`. It also checks
//! that the in-place `contact_manifold_into`, into one reused manifold, gives the same bits.

// The data module also serves the bench, which uses all of it.
#![allow(dead_code)]
// `to_bits() as u64` widens in f32 and is the identity in f64.
#![allow(clippy::unnecessary_cast)]
use sepax::narrowphase::contact::box_box::{contact_manifold, contact_manifold_into};
use sepax::narrowphase::contact::{ContactConfig, ContactManifold};
use sepax::prelude::*;

#[path = "../benches/data/box_pairs.rs"]
mod data;
#[path = "../benches/data/shared.rs"]
mod shared;

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

/// `contact_manifold_into` into `out` (whatever it held before), as an `Option`.
fn into<A: BoxShape, B: BoxShape>(
    a: &A,
    b: &B,
    cfg: &ContactConfig,
    out: &mut ContactManifold,
) -> Option<ContactManifold> {
    contact_manifold_into(a, b, cfg, out).then(|| out.clone())
}

fn main() {
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
            let mut reused = ContactManifold {
                normal: Vector3::zeros(),
                depth: 0.0,
                points: Default::default(),
            };
            let mut npts = 0;
            for p in &pairs {
                let m = contact_manifold(&p.a, &p.b, cfg);
                npts += m.as_ref().map_or(0, |m| m.points.len());
                h.m(&m);
                h.m(&contact_manifold(&p.b, &p.a, cfg));
                // AABB mixes: the boxes' bounding boxes and an axis-aligned copy.
                let aa = p.a.world_aabb();
                let ab = p.b.world_aabb();
                hab.m(&contact_manifold(&aa, &p.b, cfg));
                hab.m(&contact_manifold(&p.a, &ab, cfg));
                hab.m(&contact_manifold(&aa, &ab, cfg));
                hi.m(&into(&p.a, &p.b, cfg, &mut reused));
                hi.m(&into(&p.b, &p.a, cfg, &mut reused));
                habi.m(&into(&aa, &p.b, cfg, &mut reused));
                habi.m(&into(&p.a, &ab, cfg, &mut reused));
                habi.m(&into(&aa, &ab, cfg, &mut reused));
            }
            assert_eq!(
                (hi.0, habi.0),
                (h.0, hab.0),
                "{name} cfg{ci}: in-place differs"
            );
            println!(
                "{name} cfg{ci}: obb {:016x} aabb {:016x} points {npts}",
                h.0, hab.0
            );
        }
    }
}
