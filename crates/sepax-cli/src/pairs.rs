//! The pairs of a set of boxes in sorted order, found as they are visited: memory proportional
//! to the number of boxes, however many pairs there are.
//!
//! For each first index `i` in turn, the partners `j > i` whose boxes overlap box `i` (closed
//! sets: touching counts) are collected, sorted and handed on one by one, so pairs come out
//! sorted by `(i, j)` and at most one box's partners are held at a time. Partners are found with
//! the boxes sorted by their lower x bound: a box overlaps box `i` in x when its lower bound is
//! `<= max_i.x` (a prefix of the sorted order, found by binary search) and its upper bound is
//! `>= min_i.x` (reported from that prefix by a tree of maximum upper bounds, which skips every
//! subtree whose maximum is below). Only comparisons are used, so any finite boxes work, and the
//! cost per box is `O((k + 1) log n)` for its `k` x-overlapping boxes, the same pairs a
//! sweep-and-prune looks at.

use sepax_shapes::math::Real;
use sepax_shapes::Aabb;
use std::ops::ControlFlow;
use std::time::Instant;

/// What a visit did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Visited {
    /// Candidate pairs handed to the test.
    pub candidates: usize,
    /// Pairs the test accepted.
    pub hits: usize,
    /// Whether `visit` asked to stop (the remaining pairs were not looked at).
    pub stopped: bool,
    /// Seconds spent finding candidates (sorting the boxes and the per-box queries), apart from
    /// `test` and `visit`.
    pub broad_secs: f64,
}

/// Where the candidate pairs come from.
pub enum Candidates<'a> {
    /// Every pair of these boxes that overlap (closed sets).
    Overlapping(&'a [Aabb]),
    /// Exactly these pairs, `(i, j)` with `i < j`, sorted, without repeats.
    Listed(&'a [(usize, usize)]),
}

/// Hands every candidate pair to `test` in `(i, j)` order, and each pair that `test` accepts to
/// `visit`, which may stop the walk. The first error of either ends it.
pub fn visit_sorted_pairs<E>(
    candidates: Candidates<'_>,
    mut test: impl FnMut(usize, usize) -> Result<bool, E>,
    mut visit: impl FnMut(usize, usize) -> Result<ControlFlow<()>, E>,
) -> Result<Visited, E> {
    let mut done = Visited::default();
    let mut step = |i: usize, j: usize, done: &mut Visited| -> Result<bool, E> {
        done.candidates += 1;
        if test(i, j)? {
            done.hits += 1;
            if visit(i, j)?.is_break() {
                done.stopped = true;
                return Ok(false);
            }
        }
        Ok(true)
    };
    match candidates {
        Candidates::Listed(pairs) => {
            for &(i, j) in pairs {
                if !step(i, j, &mut done)? {
                    break;
                }
            }
        }
        Candidates::Overlapping(boxes) => {
            let t = Instant::now();
            let index = XIndex::new(boxes);
            let mut partners = Vec::new();
            done.broad_secs = t.elapsed().as_secs_f64();
            'boxes: for (i, b) in boxes.iter().enumerate() {
                let t = Instant::now();
                partners.clear();
                index.overlapping(b, |j| {
                    if j > i && overlap(b, &boxes[j]) {
                        partners.push(j);
                    }
                });
                partners.sort_unstable();
                done.broad_secs += t.elapsed().as_secs_f64();
                for &j in &partners {
                    if !step(i, j, &mut done)? {
                        break 'boxes;
                    }
                }
            }
        }
    }
    Ok(done)
}

/// Hands every pair `(i, j)` of a box of `a` and a box of `b` that overlap (closed sets) to `f`
/// in `(i, j)` order, until `f` stops it; no pair within `a` or within `b` is looked at, and
/// nothing is stored but an index of `b` and the partners of one box of `a`.
pub fn visit_cross_pairs(
    a: &[Aabb],
    b: &[Aabb],
    mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
) {
    let index = XIndex::new(b);
    let mut partners = Vec::new();
    for (i, x) in a.iter().enumerate() {
        partners.clear();
        index.overlapping(x, |j| {
            if overlap(x, &b[j]) {
                partners.push(j);
            }
        });
        partners.sort_unstable();
        for &j in &partners {
            if f(i, j).is_break() {
                return;
            }
        }
    }
}

/// Closed-set overlap on all three axes.
fn overlap(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

/// The boxes sorted by lower x bound, with a complete binary tree of maximum upper x bounds over
/// that order.
struct XIndex {
    /// Box indices by increasing `min.x`.
    order: Vec<usize>,
    /// `min.x` in that order.
    lo: Vec<Real>,
    /// Node `k` holds the largest `max.x` of its leaves; leaf `p` is node `width + p`.
    tree: Vec<Real>,
    width: usize,
}

impl XIndex {
    fn new(boxes: &[Aabb]) -> Self {
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_unstable_by(|&a, &b| boxes[a].min().x.total_cmp(&boxes[b].min().x));
        let lo = order.iter().map(|&i| boxes[i].min().x).collect();
        let width = boxes.len().next_power_of_two();
        let mut tree = vec![Real::NEG_INFINITY; 2 * width];
        for (p, &i) in order.iter().enumerate() {
            tree[width + p] = boxes[i].max().x;
        }
        for k in (1..width).rev() {
            tree[k] = tree[2 * k].max(tree[2 * k + 1]);
        }
        Self {
            order,
            lo,
            tree,
            width,
        }
    }

    /// Every box whose x interval meets `b`'s, through `f` (in no particular order).
    fn overlapping(&self, b: &Aabb, mut f: impl FnMut(usize)) {
        let (min_x, max_x) = (b.min().x, b.max().x);
        let end = self.lo.partition_point(|&lo| lo <= max_x);
        if end == 0 {
            return;
        }
        // Nodes with their leaf range [first, first + len); only leaves below `end` count.
        let mut stack = vec![(1usize, 0usize, self.width)];
        while let Some((node, first, len)) = stack.pop() {
            if first >= end || self.tree[node] < min_x {
                continue;
            }
            if len == 1 {
                f(self.order[first]);
                continue;
            }
            let half = len / 2;
            stack.push((2 * node + 1, first + half, half));
            stack.push((2 * node, first, half));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use sepax_shapes::math::Point3;

    fn brute_force(boxes: &[Aabb]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if overlap(&boxes[i], &boxes[j]) {
                    out.push((i, j));
                }
            }
        }
        out
    }

    fn visit_all(boxes: &[Aabb]) -> (Vec<(usize, usize)>, Visited) {
        let mut got = Vec::new();
        let done = visit_sorted_pairs::<()>(
            Candidates::Overlapping(boxes),
            |_, _| Ok(true),
            |i, j| {
                got.push((i, j));
                Ok(ControlFlow::Continue(()))
            },
        )
        .unwrap();
        (got, done)
    }

    #[test]
    fn agrees_with_brute_force_in_sorted_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut total = 0;
        for round in 0..200 {
            let n = rng.random_range(0..120);
            let world = 4 + round % 40;
            let boxes: Vec<Aabb> = (0..n)
                .map(|_| {
                    let mut min = [0.0 as Real; 3];
                    let mut max = [0.0 as Real; 3];
                    for k in 0..3 {
                        let lo = rng.random_range(0..world);
                        min[k] = lo as Real;
                        max[k] = (lo + rng.random_range(0..4)) as Real;
                    }
                    Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
                })
                .collect();
            let (got, done) = visit_all(&boxes);
            let want = brute_force(&boxes);
            assert_eq!(got, want, "round {round}");
            assert_eq!(done.hits, want.len());
            total += want.len();
        }
        assert!(total > 10_000, "only {total} pairs");
    }

    #[test]
    fn extreme_but_finite_boxes() {
        let m = Real::MAX;
        let b = |lo: Real, hi: Real| {
            Aabb::new(Point3::new(lo, lo, lo), Point3::new(hi, hi, hi)).unwrap()
        };
        let boxes = [b(-m, m), b(m, m), b(-m, -m), b(0.0, 0.0)];
        let (got, _) = visit_all(&boxes);
        assert_eq!(got, vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn the_test_filters_and_visit_stops() {
        let p = Point3::new(0.0, 0.0, 0.0);
        let boxes = vec![Aabb::new(p, p).unwrap(); 5];
        let mut seen = Vec::new();
        let done = visit_sorted_pairs::<()>(
            Candidates::Overlapping(&boxes),
            |i, j| Ok((i + j) % 2 == 1),
            |i, j| {
                seen.push((i, j));
                Ok(if seen.len() == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            },
        )
        .unwrap();
        assert_eq!(seen, vec![(0, 1), (0, 3), (1, 2)]);
        assert!(done.stopped);
        assert_eq!(done.hits, 3);
        assert_eq!(done.candidates, 5);
    }

    #[test]
    fn cross_pairs_are_the_overlapping_pairs_between_the_sets() {
        let b =
            |x: Real| Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0)).unwrap();
        let left = [b(0.0), b(0.5), b(5.0)];
        let right = [b(1.0), b(9.0), b(0.2)];
        let mut got = Vec::new();
        visit_cross_pairs(&left, &right, |i, j| {
            got.push((i, j));
            ControlFlow::Continue(())
        });
        assert_eq!(got, vec![(0, 0), (0, 2), (1, 0), (1, 2)]);
        let mut n = 0;
        visit_cross_pairs(&left, &right, |_, _| {
            n += 1;
            ControlFlow::Break(())
        });
        assert_eq!(n, 1);
    }

    #[test]
    fn listed_pairs_in_their_order() {
        let listed = [(0, 2), (1, 3), (2, 3)];
        let mut seen = Vec::new();
        let done = visit_sorted_pairs::<()>(
            Candidates::Listed(&listed),
            |i, _| Ok(i != 1),
            |i, j| {
                seen.push((i, j));
                Ok(ControlFlow::Continue(()))
            },
        )
        .unwrap();
        assert_eq!(seen, vec![(0, 2), (2, 3)]);
        assert_eq!(done.candidates, 3);
    }
}
