//! Sweep-and-prune as box pruning (after Terdiman's "box pruning" series): sort the boxes by
//! their minimum x, then sweep: each box is tested only against the boxes that start before it
//! ends on x, on the other two axes.
//!
//! ```text
//! refresh each entry's key (min x); insertion-sort the entries (they were sorted last frame)
//! copy the boxes into six arrays in sorted order, padded with never-overlapping sentinels
//! for i in 0..n:
//!     for j = i+1, i+2, ... in chunks of LANES while min_x[j] <= max_x[i]:
//!         test y and z on all lanes without branches; emit the lanes that pass
//! sort the emitted pairs
//! ```
//!
//! Boxes are stored as given (no fattening), so the pairs are exactly the overlapping ones.

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

use crate::proxies::{pair_key, table_accessors, ProxyTable};
use crate::{BroadPhase, ProxyId, QueryStats, Visit};

/// Lanes tested per step of the inner sweep; the inner body is written over fixed-size arrays
/// so that LLVM turns it into vector compares.
const LANES: usize = 8;

/// Element moves the insertion sort may make per entry before it gives up and falls back to a
/// full sort (a teleport or a mass insertion would otherwise cost `O(n²)`).
const SHIFTS_PER_ENTRY: usize = 8;

/// One entry of the sorted order: the sort key (min x) and the proxy.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: Real,
    id: ProxyId,
}

/// Box pruning: one sort axis (x), the other two tested in the sweep. The sorted order is kept
/// between frames, so a frame where boxes moved a little re-sorts in near-linear time.
#[derive(Debug, Clone, Default)]
pub struct SweepAndPrune {
    proxies: ProxyTable,
    /// Every proxy known at the last sort, in min-x order (removed ones are dropped lazily).
    order: Vec<Entry>,
    /// Proxies inserted since the last sort.
    pending: Vec<ProxyId>,
    /// Whether anything changed since the arrays below were built.
    dirty: bool,
    /// The boxes in sorted order as six arrays, `LANES` sentinels past the end.
    min_x: Vec<Real>,
    max_x: Vec<Real>,
    min_y: Vec<Real>,
    max_y: Vec<Real>,
    min_z: Vec<Real>,
    max_z: Vec<Real>,
    /// Slot index of each sorted entry.
    slot: Vec<u32>,
    /// Pair keys of the last sweep (scratch).
    keys: Vec<u64>,
}

impl SweepAndPrune {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }

    /// Drops removed proxies, adds new ones, refreshes the keys and restores the min-x order.
    fn sort(&mut self) {
        let proxies = &self.proxies;
        self.order.retain(|e| proxies.get(e.id).is_some());
        for &id in &self.pending {
            if proxies.get(id).is_some() {
                self.order.push(Entry { key: 0.0, id });
            }
        }
        self.pending.clear();
        for e in &mut self.order {
            // The slot is live (checked above) and updates don't change handles.
            e.key = proxies.get(e.id).map_or(e.key, |p| p.aabb.min().x);
        }
        let budget = SHIFTS_PER_ENTRY.saturating_mul(self.order.len());
        if !insertion_sort_bounded(&mut self.order, budget) {
            self.order.sort_unstable_by(|a, b| a.key.total_cmp(&b.key));
        }
    }

    /// Rebuilds the six sorted arrays from the current order.
    fn pack(&mut self) {
        let n = self.order.len();
        let arrays = [
            &mut self.min_x,
            &mut self.max_x,
            &mut self.min_y,
            &mut self.max_y,
            &mut self.min_z,
            &mut self.max_z,
        ];
        for a in arrays {
            a.clear();
            a.reserve(n + LANES);
        }
        self.slot.clear();
        self.slot.reserve(n + LANES);
        for e in &self.order {
            let Some(p) = self.proxies.get(e.id) else {
                continue;
            };
            let (lo, hi) = (p.aabb.min(), p.aabb.max());
            self.min_x.push(lo.x);
            self.max_x.push(hi.x);
            self.min_y.push(lo.y);
            self.max_y.push(hi.y);
            self.min_z.push(lo.z);
            self.max_z.push(hi.z);
            self.slot.push(e.id.index);
        }
        // Sentinels: a min x of +inf ends every sweep, and empty y/z ranges never pass.
        for _ in 0..LANES {
            self.min_x.push(Real::INFINITY);
            self.max_x.push(Real::NEG_INFINITY);
            self.min_y.push(Real::INFINITY);
            self.max_y.push(Real::NEG_INFINITY);
            self.min_z.push(Real::INFINITY);
            self.max_z.push(Real::NEG_INFINITY);
            self.slot.push(u32::MAX);
        }
    }

    /// The sweep: every overlapping pair as a [`pair_key`] into `self.keys`.
    fn sweep(&mut self) {
        self.keys.clear();
        let n = self.slot.len() - LANES;
        for i in 0..n {
            let (ax1, ay0, ay1, az0, az1) = (
                self.max_x[i],
                self.min_y[i],
                self.max_y[i],
                self.min_z[i],
                self.max_z[i],
            );
            let mut j = i + 1;
            loop {
                // Fixed-size views: no bounds checks inside, one vector compare per line.
                let mnx = lanes(&self.min_x, j);
                let mny = lanes(&self.min_y, j);
                let mxy = lanes(&self.max_y, j);
                let mnz = lanes(&self.min_z, j);
                let mxz = lanes(&self.max_z, j);
                let mut mask = 0u32;
                for k in 0..LANES {
                    let hit = (mnx[k] <= ax1)
                        & (mny[k] <= ay1)
                        & (mxy[k] >= ay0)
                        & (mnz[k] <= az1)
                        & (mxz[k] >= az0);
                    mask |= u32::from(hit) << k;
                }
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    self.keys.push(pair_key(self.slot[i], self.slot[j + k]));
                    mask &= mask - 1;
                }
                // Sorted on min x: once the last lane starts past our end, so does the rest.
                if mnx[LANES - 1] > ax1 {
                    break;
                }
                j += LANES;
            }
        }
    }
}

/// The `LANES` values of `v` from `j` as a fixed-size array (the arrays are padded, so the
/// sweep never asks past the end).
#[inline(always)]
fn lanes(v: &[Real], j: usize) -> &[Real; LANES] {
    v[j..j + LANES]
        .try_into()
        .expect("sorted arrays are padded by LANES")
}

/// Insertion sort by key that gives up (returning false, the slice a valid permutation) once it
/// has moved more than `budget` elements.
fn insertion_sort_bounded(v: &mut [Entry], budget: usize) -> bool {
    let mut moves = 0usize;
    for i in 1..v.len() {
        let cur = v[i];
        let mut j = i;
        while j > 0 && v[j - 1].key > cur.key {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = cur;
        moves += i - j;
        if moves > budget {
            return false;
        }
    }
    true
}

impl BroadPhase for SweepAndPrune {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        let id = self.proxies.insert(aabb, user, ());
        self.pending.push(id);
        self.dirty = true;
        id
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        let removed = self.proxies.remove(id).is_some();
        self.dirty |= removed;
        removed
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        let live = self.proxies.set_aabb(id, aabb);
        self.dirty |= live;
        live
    }

    table_accessors!();

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        if self.dirty || self.slot.len() < LANES {
            // The sorted arrays are stale: test the stored boxes directly.
            return self.proxies.scan(aabb, f);
        }
        let mut stats = QueryStats::default();
        let (lo, hi) = (aabb.min(), aabb.max());
        let n = self.slot.len() - LANES;
        // Entries starting past the query's end cannot overlap it.
        let end = self.min_x[..n].partition_point(|&m| m <= hi.x);
        stats.nodes_visited = end;
        for j in 0..end {
            if self.max_x[j] >= lo.x
                && self.min_y[j] <= hi.y
                && self.max_y[j] >= lo.y
                && self.min_z[j] <= hi.z
                && self.max_z[j] >= lo.z
            {
                stats.hits += 1;
                if f(self.proxies.id_at(self.slot[j])) == Visit::Stop {
                    break;
                }
            }
        }
        stats.leaves_tested = end;
        stats
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        if self.dirty || self.slot.len() < LANES {
            self.sort();
            self.pack();
            self.dirty = false;
        }
        self.sweep();
        self.keys.sort_unstable();
        self.proxies.keys_to_pairs(&self.keys, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    #[test]
    fn bounded_insertion_sort_sorts_or_gives_up() {
        let id = ProxyId {
            index: 0,
            generation: 0,
        };
        let mut v: Vec<Entry> = (0..20)
            .rev()
            .map(|k| Entry { key: k as Real, id })
            .collect();
        assert!(!insertion_sort_bounded(&mut v, 10));
        assert!(insertion_sort_bounded(&mut v, usize::MAX));
        assert!(v.windows(2).all(|w| w[0].key <= w[1].key));
    }

    #[test]
    fn pairs_across_lane_chunks() {
        // A row of 30 unit boxes, each touching the next: crosses several chunks of LANES.
        let mut sap = SweepAndPrune::new();
        let ids: Vec<_> = (0..30)
            .map(|i| {
                let x = i as Real;
                let b = Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0));
                sap.insert(b.unwrap(), i)
            })
            .collect();
        let mut pairs = Vec::new();
        sap.update_pairs(&mut pairs);
        let expect: Vec<_> = ids.windows(2).map(|w| (w[0], w[1])).collect();
        assert_eq!(pairs, expect);
    }
}
