//! Box queries: the rows (dense layout) or cells (hashed layout) that a query box can reach,
//! then the oversize list and the proxies changed since the last build.

use sepax_shapes::Aabb;

use super::cells::cells;
use super::layout::Layout;
use super::SortedGrid;
use crate::{ProxyId, QueryStats, Visit};

impl SortedGrid {
    /// The proxies whose boxes overlap `aabb` (closed sets), through `f`: the body of
    /// [`crate::BroadPhase::query_aabb`].
    pub(super) fn query(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        let mut stats = QueryStats::default();
        let mut report = |slot: u32, b: &Aabb, stats: &mut QueryStats| -> bool {
            stats.leaves_tested += 1;
            if b.intersects(aabb) {
                stats.hits += 1;
                if f(self.proxies.id_at(slot)) == Visit::Stop {
                    return false;
                }
            }
            true
        };
        // Regular boxes meeting the query have home cells in [cell(q.min) - 1, cell(q.max)]
        // (clamped: no home cell lies below i32::MIN).
        let (qlo, qhi) = (aabb.min(), aabb.max());
        let lo = cells(self.inv_cell, qlo).map(|c| c.saturating_sub(1));
        let hi = cells(self.inv_cell, qhi);
        let n = self.entries.len();
        let mut scan_all = true;
        match self.layout {
            Layout::Dense { origin, dims } => {
                // Rows (x, y) of the layout that the range meets, each one key range.
                let r = |k: usize| {
                    let a = (i64::from(lo[k]) - origin[k]).max(0);
                    let b = (i64::from(hi[k]) - origin[k]).min(dims[k] - 1);
                    (a, b)
                };
                let (rx, ry, rz) = (r(0), r(1), r(2));
                let empty = rx.0 > rx.1 || ry.0 > ry.1 || rz.0 > rz.1;
                let rows = if empty {
                    0
                } else {
                    (rx.1 - rx.0 + 1) as u128 * (ry.1 - ry.0 + 1) as u128
                };
                // A row costs a binary search: scan everything instead when that is cheaper.
                if empty {
                    scan_all = false;
                } else if rows * 16 <= n as u128 {
                    scan_all = false;
                    let (py, pz) = (dims[1] + 1, dims[2] + 1);
                    let keys = &self.columns.keys[..n];
                    for x in rx.0..=rx.1 {
                        for y in ry.0..=ry.1 {
                            stats.nodes_visited += 1;
                            let row = (x * py + y) * pz;
                            let (k0, k1) = ((row + rz.0) as i32, (row + rz.1) as i32);
                            let mut j = keys.partition_point(|&k| k < k0);
                            while j < n && keys[j] <= k1 {
                                let e = &self.entries[j];
                                if self.current(e.slot())
                                    && !report(e.slot(), &e.aabb(), &mut stats)
                                {
                                    return stats;
                                }
                                j += 1;
                            }
                        }
                    }
                }
            }
            Layout::Hashed { mask } => {
                let cells = (0..3)
                    .map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1) as u128)
                    .product::<u128>();
                if cells <= n as u128 {
                    scan_all = false;
                    for x in lo[0]..=hi[0] {
                        for y in lo[1]..=hi[1] {
                            for z in lo[2]..=hi[2] {
                                let c = [x, y, z];
                                stats.nodes_visited += 1;
                                for e in self.bucket_entries(c, mask) {
                                    if self.home_cell(&e.aabb()) == c
                                        && self.current(e.slot())
                                        && !report(e.slot(), &e.aabb(), &mut stats)
                                    {
                                        return stats;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if scan_all {
            stats.nodes_visited += 1;
            for e in &self.entries {
                if self.current(e.slot()) && !report(e.slot(), &e.aabb(), &mut stats) {
                    return stats;
                }
            }
        }
        for &slot in &self.oversize {
            if let Some(p) = self.proxies.at(slot).filter(|_| self.current(slot)) {
                if !report(slot, &p.aabb, &mut stats) {
                    return stats;
                }
            }
        }
        for &slot in &self.dirty {
            if let Some(p) = self.proxies.at(slot) {
                if !report(slot, &p.aabb, &mut stats) {
                    return stats;
                }
            }
        }
        stats
    }
}
