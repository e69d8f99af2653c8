//! A uniform grid stored as a spatial hash (after Teschner et al. 2003, "Optimized spatial
//! hashing for collision detection of deformable objects"): every box is listed in each cell it
//! overlaps; pairs are found inside cells.
//!
//! ```text
//! cell range of a box = floor(min * inv_cell) ..= floor(max * inv_cell) per axis
//! if the range holds more than max_cells_per_proxy cells: the box is "oversize",
//!     kept in one list and tested against every proxy (memory stays bounded)
//! pairs: for each cell, for each two of its boxes a, b:
//!     report only in the first cell the two share, max(lo_a, lo_b) per axis (so once),
//!     and only if the boxes overlap exactly
//! ```
//!
//! Correctness does not depend on the cell size: `x -> floor(x * inv_cell)` is monotone, so two
//! boxes that share a point share the cell of that point. The cell size only sets the speed;
//! pick it near the size of a typical box. Boxes are stored as given (no fattening).

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

use crate::proxies::{pair_key, table_accessors, ProxyTable};
use crate::{BroadPhase, ProxyId, QueryStats, Visit};

/// Settings of a [`UniformGrid`]. The default (cells of 1 unit, at most 64 cells per box) suits
/// boxes of about unit size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridConfig {
    /// Edge length of a cell; finite and positive.
    pub cell_size: Real,
    /// A box overlapping more cells than this goes to the oversize list instead (tested
    /// against everything), which bounds the memory one box can take. At least 1.
    pub max_cells_per_proxy: u32,
}

impl Default for GridConfig {
    fn default() -> Self {
        Self {
            cell_size: 1.0,
            max_cells_per_proxy: 64,
        }
    }
}

/// Why a [`GridConfig`] was refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridConfigError {
    /// The cell size is not finite and positive (or so small that its inverse overflows).
    CellSize(f64),
    /// `max_cells_per_proxy` is zero.
    MaxCellsPerProxy,
}

impl fmt::Display for GridConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::CellSize(s) => write!(f, "grid cell_size must be finite and positive, got {s}"),
            Self::MaxCellsPerProxy => write!(f, "grid max_cells_per_proxy must be at least 1"),
        }
    }
}

impl std::error::Error for GridConfigError {}

/// Integer cell coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell([i64; 3]);

impl Hash for Cell {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The three-prime XOR of Teschner et al., then a multiply-xorshift so that both the low
        // bits (bucket) and the high bits (the map's tag byte) depend on every coordinate.
        let [x, y, z] = self.0.map(|c| c as u64);
        let mut h =
            x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ z.wrapping_mul(83_492_791);
        h ^= h >> 32;
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        state.write_u64(h);
    }
}

/// Passes through the hash that [`Cell`] computes.
#[derive(Debug, Default, Clone, Copy)]
struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 ^= i;
    }
}

type CellMap = HashMap<Cell, Vec<u32>, BuildHasherDefault<CellHasher>>;

/// A proxy's place in the grid: its cell range (inclusive), or the oversize list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cells {
    lo: [i64; 3],
    hi: [i64; 3],
    oversize: bool,
}

/// A uniform grid over a hash map of occupied cells: unbounded world, memory proportional to
/// the occupied cells. Best for many boxes of similar size.
#[derive(Debug, Clone)]
pub struct UniformGrid {
    config: GridConfig,
    inv_cell: Real,
    proxies: ProxyTable<Cells>,
    cells: CellMap,
    /// Slot indices of the oversize proxies.
    oversize: Vec<u32>,
    /// Emptied cell lists kept for reuse, so moving boxes do not allocate once warm.
    spare: Vec<Vec<u32>>,
    /// Pair keys of the last frame (scratch).
    keys: Vec<u64>,
}

impl Default for UniformGrid {
    fn default() -> Self {
        Self::with_valid_config(GridConfig::default())
    }
}

impl UniformGrid {
    /// An empty grid; errors on a cell size that is not finite and positive or a zero cell cap.
    pub fn new(config: GridConfig) -> Result<Self, GridConfigError> {
        let s = config.cell_size;
        if !(s.is_finite() && s > 0.0 && (1.0 / s).is_finite()) {
            return Err(GridConfigError::CellSize(s as f64));
        }
        if config.max_cells_per_proxy == 0 {
            return Err(GridConfigError::MaxCellsPerProxy);
        }
        Ok(Self::with_valid_config(config))
    }

    fn with_valid_config(config: GridConfig) -> Self {
        Self {
            config,
            inv_cell: 1.0 / config.cell_size,
            proxies: ProxyTable::default(),
            cells: CellMap::default(),
            oversize: Vec::new(),
            spare: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The settings the grid was made with.
    pub fn config(&self) -> GridConfig {
        self.config
    }

    /// Number of occupied cells.
    pub fn occupied_cells(&self) -> usize {
        self.cells.len()
    }

    /// Number of proxies in the oversize list.
    pub fn oversize_len(&self) -> usize {
        self.oversize.len()
    }

    /// The cell coordinate of `x` (monotone in `x`; saturates far away).
    #[inline]
    fn coord(&self, x: Real) -> i64 {
        (x * self.inv_cell).floor() as i64
    }

    /// The inclusive cell range of a box.
    fn range(&self, aabb: &Aabb) -> ([i64; 3], [i64; 3]) {
        let (lo, hi) = (aabb.min(), aabb.max());
        (
            [self.coord(lo.x), self.coord(lo.y), self.coord(lo.z)],
            [self.coord(hi.x), self.coord(hi.y), self.coord(hi.z)],
        )
    }

    /// The cell range of `aabb` and whether it is oversize.
    fn cells_of(&self, aabb: &Aabb) -> Cells {
        let (lo, hi) = self.range(aabb);
        Cells {
            lo,
            hi,
            oversize: cell_count(lo, hi) > u128::from(self.config.max_cells_per_proxy),
        }
    }

    /// Lists slot `index` in its cells (or in the oversize list).
    fn link(&mut self, index: u32, p: &Cells) {
        if p.oversize {
            self.oversize.push(index);
            return;
        }
        for_each_cell(p.lo, p.hi, |c| {
            let spare = &mut self.spare;
            self.cells
                .entry(Cell(c))
                .or_insert_with(|| spare.pop().unwrap_or_default())
                .push(index);
        });
    }

    /// Removes slot `index` from its cells (or from the oversize list).
    fn unlink(&mut self, index: u32, p: &Cells) {
        if p.oversize {
            if let Some(k) = self.oversize.iter().position(|&i| i == index) {
                self.oversize.swap_remove(k);
            }
            return;
        }
        for_each_cell(p.lo, p.hi, |c| {
            let key = Cell(c);
            let Some(list) = self.cells.get_mut(&key) else {
                return;
            };
            if let Some(k) = list.iter().position(|&i| i == index) {
                list.swap_remove(k);
            }
            if list.is_empty() {
                if let Some(v) = self.cells.remove(&key) {
                    self.spare.push(v);
                }
            }
        });
    }
}

/// Number of cells in an inclusive range, without overflow.
fn cell_count(lo: [i64; 3], hi: [i64; 3]) -> u128 {
    (0..3)
        .map(|a| (i128::from(hi[a]) - i128::from(lo[a]) + 1) as u128)
        .fold(1u128, |acc, n| acc.saturating_mul(n))
}

/// Calls `f` on every cell of an inclusive range (only for ranges within the cell cap).
fn for_each_cell(lo: [i64; 3], hi: [i64; 3], mut f: impl FnMut([i64; 3])) {
    for x in lo[0]..=hi[0] {
        for y in lo[1]..=hi[1] {
            for z in lo[2]..=hi[2] {
                f([x, y, z]);
            }
        }
    }
}

/// Whether `cell` is the first cell (lowest on every axis) of both ranges starting at `a` and
/// `b`: the one cell where their pair is reported.
#[inline]
fn first_shared(cell: [i64; 3], a: [i64; 3], b: [i64; 3]) -> bool {
    (0..3).all(|k| cell[k] == a[k].max(b[k]))
}

impl BroadPhase for UniformGrid {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        let cells = self.cells_of(&aabb);
        let id = self.proxies.insert(aabb, user, cells);
        self.link(id.index, &cells);
        id
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        match self.proxies.remove(id) {
            Some(p) => {
                self.unlink(id.index, &p.extra);
                true
            }
            None => false,
        }
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        let Some(old) = self.proxies.get(id).map(|p| p.extra) else {
            return false;
        };
        let new = self.cells_of(&aabb);
        if new != old {
            self.unlink(id.index, &old);
            self.link(id.index, &new);
        }
        if let Some(p) = self.proxies.get_mut(id) {
            p.aabb = aabb;
            p.extra = new;
        }
        true
    }

    table_accessors!();

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        let mut stats = QueryStats::default();
        let (qlo, qhi) = self.range(aabb);
        // Reports `index` (listed in `cell`) once: in the first cell it shares with the query.
        let mut visit_cell = |cell: [i64; 3], list: &[u32], stats: &mut QueryStats| -> bool {
            stats.nodes_visited += 1;
            for &index in list {
                let Some(p) = self.proxies.at(index) else {
                    continue;
                };
                if !first_shared(cell, p.extra.lo, qlo) {
                    continue;
                }
                stats.leaves_tested += 1;
                if p.aabb.intersects(aabb) {
                    stats.hits += 1;
                    if f(self.proxies.id_at(index)) == Visit::Stop {
                        return false;
                    }
                }
            }
            true
        };
        let in_range = |c: &[i64; 3]| (0..3).all(|k| qlo[k] <= c[k] && c[k] <= qhi[k]);
        let mut go_on = true;
        if cell_count(qlo, qhi) <= self.cells.len() as u128 {
            for x in qlo[0]..=qhi[0] {
                for y in qlo[1]..=qhi[1] {
                    for z in qlo[2]..=qhi[2] {
                        if let Some(list) = self.cells.get(&Cell([x, y, z])) {
                            go_on = go_on && visit_cell([x, y, z], list, &mut stats);
                        }
                    }
                }
            }
        } else {
            // A query wider than the occupied cells: walk the occupied cells instead.
            for (cell, list) in &self.cells {
                if go_on && in_range(&cell.0) {
                    go_on = visit_cell(cell.0, list, &mut stats);
                }
            }
        }
        if !go_on {
            return stats;
        }
        for &index in &self.oversize {
            let Some(p) = self.proxies.at(index) else {
                continue;
            };
            stats.leaves_tested += 1;
            if p.aabb.intersects(aabb) {
                stats.hits += 1;
                if f(self.proxies.id_at(index)) == Visit::Stop {
                    break;
                }
            }
        }
        stats
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        self.keys.clear();
        for (cell, list) in &self.cells {
            for (k, &i) in list.iter().enumerate() {
                let Some(a) = self.proxies.at(i) else {
                    continue;
                };
                for &j in &list[k + 1..] {
                    let Some(b) = self.proxies.at(j) else {
                        continue;
                    };
                    if first_shared(cell.0, a.extra.lo, b.extra.lo) && a.aabb.intersects(&b.aabb) {
                        self.keys.push(pair_key(i, j));
                    }
                }
            }
        }
        // Oversize proxies against everything; two oversize ones only from the higher index.
        for &i in &self.oversize {
            let Some(a) = self.proxies.at(i) else {
                continue;
            };
            for (id, b) in self.proxies.iter() {
                let skip = id.index == i || (b.extra.oversize && id.index > i);
                if !skip && a.aabb.intersects(&b.aabb) {
                    self.keys.push(pair_key(i, id.index));
                }
            }
        }
        self.keys.sort_unstable();
        self.proxies.keys_to_pairs(&self.keys, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    #[test]
    fn config_is_checked() {
        let bad = GridConfig {
            cell_size: 0.0,
            ..GridConfig::default()
        };
        assert!(matches!(
            UniformGrid::new(bad),
            Err(GridConfigError::CellSize(_))
        ));
        let bad = GridConfig {
            max_cells_per_proxy: 0,
            ..GridConfig::default()
        };
        assert_eq!(
            UniformGrid::new(bad).err(),
            Some(GridConfigError::MaxCellsPerProxy)
        );
        assert!(UniformGrid::new(GridConfig::default()).is_ok());
    }

    #[test]
    fn huge_box_goes_oversize_and_still_pairs() {
        let mut g = UniformGrid::default();
        let big = Aabb::new(Point3::new(-1e5, -1e5, -1e5), Point3::new(1e5, 1e5, 1e5));
        let small = Aabb::new(Point3::new(3.0, 3.0, 3.0), Point3::new(3.5, 3.5, 3.5));
        let a = g.insert(big.unwrap(), 0);
        let b = g.insert(small.unwrap(), 1);
        assert_eq!(g.oversize_len(), 1);
        assert_eq!(g.occupied_cells(), 1);
        let mut pairs = Vec::new();
        g.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        assert!(g.remove(a));
        assert_eq!(g.oversize_len(), 0);
        g.update_pairs(&mut pairs);
        assert!(pairs.is_empty());
    }
}
