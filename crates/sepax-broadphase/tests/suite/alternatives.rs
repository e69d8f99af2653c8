//! Differential tests of every broad phase against an all-pairs oracle.
//!
//! Randomised scenes (inserts, removes and moves over many frames) and hand-made degenerate ones
//! (identical boxes, boxes on one point, huge and tiny mixed, coordinates near 1e6, zero-extent
//! and touching boxes) are played through each implementation. After every frame:
//!
//! - `update_pairs` equals the overlapping pairs of the implementation's own stored boxes, or of
//!   the given boxes for a fattening one that reports exact pairs (closed sets, each pair once
//!   as `(a, b)`, `a < b`, sorted);
//! - `query_aabb` reports exactly the stored boxes that overlap the query, each once, and stops
//!   when told to;
//! - a stored box equals the given box (exact implementations) or contains it (fattening ones),
//!   so no overlap of the given boxes is ever lost;
//! - stale handles are rejected by every method.

use proptest::prelude::*;
use sepax_broadphase::brute::BruteForce;
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, UpdateMode};
use sepax_broadphase::grid::{GridConfig, UniformGrid};
use sepax_broadphase::sap::SweepAndPrune;
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Aabb;

/// One implementation under test.
struct Candidate {
    name: &'static str,
    bp: Box<dyn BroadPhase>,
    /// Whether it stores boxes exactly as given (else: stored boxes only contain them).
    exact: bool,
    /// Whether its pairs are those of the given boxes even where the stored ones are fatter.
    pairs_given: bool,
}

/// Every implementation, several grid settings included (cells smaller and larger than the
/// boxes, a tight oversize cap), and the BVH with its defaults and with no margin (a BVH keeps
/// a leaf's box while the new box stays inside it, so even without a margin it is not exact).
fn candidates() -> Vec<Candidate> {
    let grid = |cell_size: Real, max_cells_per_proxy: u32| {
        UniformGrid::new(GridConfig {
            cell_size,
            max_cells_per_proxy,
        })
        .expect("valid grid config")
    };
    vec![
        Candidate {
            name: "brute",
            bp: Box::new(BruteForce::new()),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "sap",
            bp: Box::new(SweepAndPrune::new()),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "grid default",
            bp: Box::new(UniformGrid::default()),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "grid small cells",
            bp: Box::new(grid(0.3, 8)),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "grid large cells",
            bp: Box::new(grid(7.0, 64)),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "sorted grid default",
            bp: Box::new(SortedGrid::default()),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "sorted grid small cells",
            bp: Box::new(SortedGrid::new(0.3).expect("valid cell size")),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "sorted grid large cells",
            bp: Box::new(SortedGrid::new(7.0).expect("valid cell size")),
            exact: true,
            pairs_given: true,
        },
        Candidate {
            name: "bvh default",
            bp: Box::new(DynamicBvh::default()),
            exact: false,
            pairs_given: true,
        },
        Candidate {
            name: "bvh fat pairs, reinsert",
            bp: Box::new(
                DynamicBvh::new(BvhConfig {
                    exact_pairs: false,
                    update_mode: UpdateMode::Reinsert,
                    ..BvhConfig::default()
                })
                .expect("valid bvh config"),
            ),
            exact: false,
            pairs_given: false,
        },
        Candidate {
            name: "bvh always rebuilt whole",
            bp: Box::new(
                DynamicBvh::new(BvhConfig {
                    full_rebuild_fraction: 0.0,
                    ..BvhConfig::default()
                })
                .expect("valid bvh config"),
            ),
            exact: false,
            pairs_given: true,
        },
        Candidate {
            name: "bvh no margin, enlarge, eager rebuilds",
            bp: Box::new(
                DynamicBvh::new(BvhConfig {
                    margin: 0.0,
                    prediction: 0.0,
                    rebuild_ratio: 1.0,
                    rebuild_min_proxies: 2,
                    update_mode: UpdateMode::Enlarge,
                    ..BvhConfig::default()
                })
                .expect("valid bvh config"),
            ),
            exact: false,
            pairs_given: true,
        },
    ]
}

/// A change applied to the scene; indices are taken modulo the number of live objects.
#[derive(Debug, Clone)]
enum Op {
    Insert(Aabb),
    Remove(usize),
    Move(usize, Aabb),
}

/// A scene: initial boxes, then frames of changes, each followed by a query box.
#[derive(Debug, Clone)]
struct Scene {
    initial: Vec<Aabb>,
    frames: Vec<(Vec<Op>, Aabb)>,
}

/// The logical objects of a scene as one implementation sees them.
struct Run {
    cand: Candidate,
    live: Vec<(ProxyId, u64, Aabb)>,
    dead: Vec<ProxyId>,
}

fn overlap(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

impl Run {
    fn apply(&mut self, op: &Op, next_user: &mut u64) {
        match op {
            Op::Insert(b) => {
                let id = self.cand.bp.insert(*b, *next_user);
                self.live.push((id, *next_user, *b));
                *next_user += 1;
            }
            Op::Remove(k) if !self.live.is_empty() => {
                let (id, _, _) = self.live.swap_remove(k % self.live.len());
                assert!(self.cand.bp.remove(id), "{}: remove live", self.cand.name);
                self.dead.push(id);
            }
            Op::Move(k, b) if !self.live.is_empty() => {
                let n = self.live.len();
                let entry = &mut self.live[k % n];
                let disp = b.center() - entry.2.center();
                assert!(self.cand.bp.update(entry.0, *b, disp), "{}", self.cand.name);
                entry.2 = *b;
            }
            Op::Remove(_) | Op::Move(..) => {}
        }
    }

    /// Every check of one frame.
    fn check(&mut self, query: &Aabb) {
        let name = self.cand.name;
        let bp = &mut self.cand.bp;
        assert_eq!(bp.len(), self.live.len(), "{name}: len");
        assert_eq!(bp.is_empty(), self.live.is_empty(), "{name}: is_empty");
        let mut stored = Vec::with_capacity(self.live.len());
        let mut given_boxes = Vec::with_capacity(self.live.len());
        for &(id, user, given) in &self.live {
            assert_eq!(bp.user(id), Some(user), "{name}: user of {id:?}");
            let s = bp.stored_aabb(id).expect("live proxy has a box");
            if self.cand.exact {
                assert_eq!(s, given, "{name}: stored box of {id:?}");
            } else {
                assert!(
                    s.contains_aabb(&given),
                    "{name}: fat box must contain the given box"
                );
            }
            stored.push((id, s));
            given_boxes.push((id, given));
        }
        for &id in &self.dead {
            assert_eq!(bp.user(id), None, "{name}: stale user");
            assert_eq!(bp.stored_aabb(id), None, "{name}: stale box");
            assert!(!bp.remove(id), "{name}: stale remove");
            let b = Aabb::new(Point3::origin(), Point3::origin()).expect("valid");
            assert!(!bp.update(id, b, Vector3::zeros()), "{name}: stale update");
        }

        // Query before the pair update (structures that rebuild in `update_pairs` must still
        // answer completely).
        check_query(bp.as_mut(), &stored, query, name);

        // Pairs: the oracle over the stored boxes (or the given ones).
        let mut expect = Vec::new();
        let on = if self.cand.pairs_given {
            &given_boxes
        } else {
            &stored
        };
        for (i, (a, ba)) in on.iter().enumerate() {
            for (b, bb) in &on[i + 1..] {
                if overlap(ba, bb) {
                    expect.push(if a < b { (*a, *b) } else { (*b, *a) });
                }
            }
        }
        expect.sort_unstable();
        let mut pairs = vec![(
            ProxyId {
                index: 9,
                generation: 9,
            },
            ProxyId {
                index: 9,
                generation: 9,
            },
        )];
        bp.update_pairs(&mut pairs);
        assert!(
            pairs.windows(2).all(|w| w[0] < w[1]),
            "{name}: pairs sorted, unique"
        );
        assert!(pairs.iter().all(|(a, b)| a < b), "{name}: a < b");
        assert_eq!(pairs, expect, "{name}: pairs differ from the oracle");
        // A second call with nothing changed gives the same answer.
        let mut again = Vec::new();
        bp.update_pairs(&mut again);
        assert_eq!(again, expect, "{name}: repeated update_pairs");

        // Query again, after the pair update.
        check_query(bp.as_mut(), &stored, query, name);
    }
}

/// Query: every overlapping stored box once, and `Visit::Stop` stops.
fn check_query(bp: &mut dyn BroadPhase, stored: &[(ProxyId, Aabb)], query: &Aabb, name: &str) {
    let mut expect_q: Vec<ProxyId> = stored
        .iter()
        .filter(|(_, s)| overlap(s, query))
        .map(|(id, _)| *id)
        .collect();
    expect_q.sort_unstable();
    let mut got = Vec::new();
    let stats = bp.query_aabb(query, &mut |id| {
        got.push(id);
        Visit::Continue
    });
    got.sort_unstable();
    assert_eq!(got, expect_q, "{name}: query_aabb");
    assert_eq!(stats.hits, got.len(), "{name}: query hits");
    let mut calls = 0;
    bp.query_aabb(query, &mut |_| {
        calls += 1;
        Visit::Stop
    });
    assert_eq!(calls, expect_q.len().min(1), "{name}: Visit::Stop");
}

/// Plays a scene through every candidate, checking after the initial inserts and every frame.
fn play(scene: &Scene) {
    for cand in candidates() {
        let mut run = Run {
            cand,
            live: Vec::new(),
            dead: Vec::new(),
        };
        let mut next_user = 0;
        for b in &scene.initial {
            run.apply(&Op::Insert(*b), &mut next_user);
        }
        let whole = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0));
        run.check(&whole.expect("valid"));
        for (ops, query) in &scene.frames {
            for op in ops {
                run.apply(op, &mut next_user);
            }
            run.check(query);
        }
    }
}

/// Builds a box on a lattice of spacing `step` around `base`: integer centre `c`, integer
/// half-extents `h` (zero allowed). Lattice coordinates make exact touching common.
fn lattice_box(base: Real, step: Real, c: [i32; 3], h: [u32; 3]) -> Aabb {
    let lo = Point3::new(
        base + step * (c[0] - h[0] as i32) as Real,
        base + step * (c[1] - h[1] as i32) as Real,
        base + step * (c[2] - h[2] as i32) as Real,
    );
    let hi = Point3::new(
        base + step * (c[0] + h[0] as i32) as Real,
        base + step * (c[1] + h[1] as i32) as Real,
        base + step * (c[2] + h[2] as i32) as Real,
    );
    Aabb::new(lo, hi).expect("lattice box is valid")
}

/// Scene styles: lattice spacing and base offset (1e6 tests large coordinates; with a spacing of
/// 0.5 every lattice coordinate stays exact in f32).
const STYLES: [(Real, Real); 4] = [(1.0, 0.0), (0.25, 0.0), (0.5, 1.0e6), (0.5, -1.0e6)];

/// A random box of a style: mostly small, sometimes zero-extent, sometimes huge.
fn box_strategy(style: usize) -> impl Strategy<Value = Aabb> {
    let (step, base) = STYLES[style];
    (
        [-12i32..12, -12i32..12, -12i32..12],
        [0u32..4, 0u32..4, 0u32..4],
        0u32..20,
    )
        .prop_map(move |(c, h, kind)| {
            let h = match kind {
                0 => [0, 0, 0],                                    // a point
                1 => [h[0] * 400 + 50, h[1] * 400 + 50, h[2] + 1], // huge
                2 => [h[0], 0, h[2]],                              // flat
                _ => h,
            };
            lattice_box(base, step, c, h)
        })
}

fn op_strategy(style: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => box_strategy(style).prop_map(Op::Insert),
        1 => any::<usize>().prop_map(Op::Remove),
        5 => (any::<usize>(), box_strategy(style)).prop_map(|(k, b)| Op::Move(k, b)),
    ]
}

fn scene_strategy() -> impl Strategy<Value = Scene> {
    (0..STYLES.len()).prop_flat_map(|style| {
        (
            prop::collection::vec(box_strategy(style), 0..40),
            prop::collection::vec(
                (
                    prop::collection::vec(op_strategy(style), 0..12),
                    box_strategy(style),
                ),
                1..10,
            ),
        )
            .prop_map(|(initial, frames)| Scene { initial, frames })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_implementation_matches_the_oracle(scene in scene_strategy()) {
        play(&scene);
    }
}

/// Small per-frame steps from a fixed scene: the incremental paths (nearly sorted order, boxes
/// changing cells) over many frames.
#[test]
fn many_small_steps() {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let initial: Vec<Aabb> = (0..120)
        .map(|_| {
            let c = [0; 3].map(|_: i32| (rnd() % 24) as i32 - 12);
            lattice_box(0.0, 0.5, c, [1, 1, 1])
        })
        .collect();
    let mut frames = Vec::new();
    for f in 0..40 {
        let mut ops = Vec::new();
        for _ in 0..30 {
            let c = [0; 3].map(|_: i32| (rnd() % 24) as i32 - 12);
            ops.push(Op::Move(
                rnd() as usize,
                lattice_box(0.0, 0.5, c, [1, 1, 1]),
            ));
        }
        if f % 5 == 0 {
            ops.push(Op::Remove(rnd() as usize));
            ops.push(Op::Insert(lattice_box(0.0, 0.5, [f - 20, 0, 0], [2, 2, 2])));
        }
        frames.push((ops, lattice_box(0.0, 0.5, [0, 0, 0], [f as u32 % 7, 3, 3])));
    }
    play(&Scene { initial, frames });
}

fn degenerate(initial: Vec<Aabb>, query: Aabb) {
    let frames = vec![
        (Vec::new(), query),
        (vec![Op::Remove(3), Op::Remove(0)], query),
        (vec![Op::Move(1, query), Op::Insert(query)], query),
    ];
    play(&Scene { initial, frames });
}

#[test]
fn all_identical_boxes() {
    let b = lattice_box(0.0, 1.0, [2, 2, 2], [1, 1, 1]);
    degenerate(vec![b; 40], b);
}

#[test]
fn all_on_one_point() {
    let p = lattice_box(0.0, 1.0, [3, -1, 2], [0, 0, 0]);
    degenerate(vec![p; 30], p);
}

#[test]
fn huge_and_tiny_mixed() {
    let mut boxes = Vec::new();
    for i in 0..30 {
        boxes.push(lattice_box(0.0, 0.01, [i * 3, 0, 0], [0, 1, 0]));
    }
    boxes.push(lattice_box(
        0.0,
        1.0,
        [0, 0, 0],
        [100_000, 100_000, 100_000],
    ));
    boxes.push(lattice_box(0.0, 1.0, [0, 0, 0], [100_000, 0, 0]));
    boxes.push(lattice_box(
        0.0,
        1.0,
        [500_000, 0, 0],
        [100_000, 100_000, 100_000],
    ));
    let q = lattice_box(0.0, 0.01, [10, 0, 0], [5, 5, 5]);
    degenerate(boxes, q);
}

#[test]
fn coordinates_near_a_million() {
    let boxes = (0..40)
        .map(|i| lattice_box(1.0e6, 0.5, [i % 7, i / 7, 0], [1, 1, 0]))
        .collect();
    degenerate(boxes, lattice_box(1.0e6, 0.5, [3, 3, 0], [1, 1, 1]));
}

#[test]
fn zero_extent_boxes() {
    let boxes = (0..40)
        .map(|i| match i % 3 {
            0 => lattice_box(0.0, 1.0, [i % 5, 0, 0], [0, 0, 0]),
            1 => lattice_box(0.0, 1.0, [i % 5, 0, 0], [0, 2, 0]),
            _ => lattice_box(0.0, 1.0, [i % 5, 0, 0], [2, 0, 2]),
        })
        .collect();
    degenerate(boxes, lattice_box(0.0, 1.0, [2, 0, 0], [0, 0, 0]));
}

#[test]
fn touching_boxes() {
    // A 4x4x3 block of unit cubes sharing faces, edges and corners; cell boundaries of the
    // default grid fall exactly on the shared faces.
    let mut boxes = Vec::new();
    for x in 0..4 {
        for y in 0..4 {
            for z in 0..3 {
                let lo = Point3::new(x as Real, y as Real, z as Real);
                boxes.push(Aabb::new(lo, lo + Vector3::repeat(1.0)).expect("valid"));
            }
        }
    }
    let q = Aabb::new(Point3::new(1.0, 1.0, 1.0), Point3::new(2.0, 2.0, 1.0));
    degenerate(boxes, q.expect("valid"));
}

#[test]
fn empty_broad_phase() {
    play(&Scene {
        initial: Vec::new(),
        frames: vec![(Vec::new(), lattice_box(0.0, 1.0, [0, 0, 0], [1, 1, 1]))],
    });
}
