//! Candidate pairs for `clash` (parts, then triangles): the pairs of a set of boxes in sorted order, found as they are visited: memory proportional
//! to the number of boxes, however many pairs there are.
//!
//! For each first index `i` in turn, the partners `j > i` whose boxes overlap box `i` (closed
//! sets: touching counts) are collected, sorted and handed on one by one, so pairs come out
//! sorted by `(i, j)` and at most one box's partners are held at a time. Partners come from a
//! static bounding-volume tree over the boxes, built once by median splits (so its depth is
//! `log2 n` whatever the boxes) and queried per box on all three axes: a query costs about
//! `O(log n + k)` for `k` overlapping boxes in a scene of spread-out boxes, and never more than
//! a visit of every node. The tree compares coordinates and halves them, nothing else, so any
//! finite boxes work (`±Real::MAX` included).

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
        Candidates::Overlapping(boxes) => {
            let t = Instant::now();
            let index = BoxTree::new(boxes);
            let (mut partners, mut stack) = (Vec::new(), Vec::new());
            done.broad_secs = t.elapsed().as_secs_f64();
            'boxes: for (i, b) in boxes.iter().enumerate() {
                let t = Instant::now();
                partners.clear();
                index.overlapping(b, &mut stack, |j| {
                    if j > i {
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
    let index = BoxTree::new(b);
    let (mut partners, mut stack) = (Vec::new(), Vec::new());
    for (i, x) in a.iter().enumerate() {
        partners.clear();
        index.overlapping(x, &mut stack, |j| partners.push(j));
        partners.sort_unstable();
        for &j in &partners {
            if f(i, j).is_break() {
                return;
            }
        }
    }
}

/// Leaves hold at most this many boxes.
const LEAF: usize = 4;

/// A node of [`BoxTree`]: its bounds and either a range of `items` (a leaf) or its children (the
/// left one right after it, the right one at `right`).
struct Node {
    min: [Real; 3],
    max: [Real; 3],
    /// Leaf: first item; inner node: index of the right child.
    first_or_right: usize,
    /// Leaf: number of items (`> 0`); inner node: 0.
    count: usize,
}

/// A static bounding-volume tree over a slice of boxes.
struct BoxTree<'a> {
    boxes: &'a [Aabb],
    nodes: Vec<Node>,
    /// Box indices, grouped by leaf.
    items: Vec<usize>,
}

impl<'a> BoxTree<'a> {
    fn new(boxes: &'a [Aabb]) -> Self {
        let mut tree = Self {
            boxes,
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF + 1),
            items: (0..boxes.len()).collect(),
        };
        if !boxes.is_empty() {
            tree.build(0, boxes.len());
        }
        tree
    }

    /// Builds the subtree of `items[first..end]` (not empty); returns its node index.
    fn build(&mut self, first: usize, end: usize) -> usize {
        let mut min = [Real::INFINITY; 3];
        let mut max = [Real::NEG_INFINITY; 3];
        for &i in &self.items[first..end] {
            let b = &self.boxes[i];
            for k in 0..3 {
                min[k] = min[k].min(b.min()[k]);
                max[k] = max[k].max(b.max()[k]);
            }
        }
        let node = self.nodes.len();
        self.nodes.push(Node {
            min,
            max,
            first_or_right: first,
            count: end - first,
        });
        if end - first <= LEAF {
            return node;
        }
        // Split at the median centre along the longest side (halves first: no overflow).
        let side = |k: usize| max[k] / 2.0 - min[k] / 2.0;
        let axis = (0..3).fold(0, |a, k| if side(k) > side(a) { k } else { a });
        let boxes = self.boxes;
        let centre = |i: usize| boxes[i].min()[axis] / 2.0 + boxes[i].max()[axis] / 2.0;
        let mid = first + (end - first) / 2;
        self.items[first..end]
            .select_nth_unstable_by(mid - first, |&a, &b| centre(a).total_cmp(&centre(b)));
        self.build(first, mid);
        let right = self.build(mid, end);
        self.nodes[node].first_or_right = right;
        self.nodes[node].count = 0;
        node
    }

    /// Every box that overlaps `b` (closed sets), through `f`, in no particular order; `stack`
    /// is scratch space.
    fn overlapping(&self, b: &Aabb, stack: &mut Vec<usize>, mut f: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        stack.clear();
        stack.push(0);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if !(0..3).all(|k| node.min[k] <= b.max()[k] && b.min()[k] <= node.max[k]) {
                continue;
            }
            if node.count > 0 {
                let first = node.first_or_right;
                for &i in &self.items[first..first + node.count] {
                    if b.intersects(&self.boxes[i]) {
                        f(i);
                    }
                }
            } else {
                stack.push(node.first_or_right);
                stack.push(n + 1);
            }
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
                if boxes[i].intersects(&boxes[j]) {
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
}
