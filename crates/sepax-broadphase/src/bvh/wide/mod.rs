//! A static wide BVH for ray casts and box queries against geometry that does not move.
//!
//! Each node holds the boxes of its (up to) `WIDTH` children in structure-of-arrays form, one
//! lane vector per bound (`min x, min y, min z, max x, max y, max z`), so that one SIMD slab
//! test decides all children at once (`ray_lanes.rs`, `ordered.rs`). A child is either another node or one
//! primitive: the primitives' boxes live in their parent's lanes, so there are no leaf nodes and
//! a primitive costs no extra memory access before its exact test.
//!
//! Width: 8 in both builds ([`sepax_simd::LANES`]: one AVX register per bound in f32, two in
//! f64); 256-byte nodes (four cache lines) in f32, 448-byte ones in f64. On the
//! 100k-box ray benchmark 8-wide f32 nodes were faster than 4-wide ones (128 bytes) although
//! they execute about 10% more instructions per ray: 14 instead of 20 nodes are visited, and the
//! visits are a chain of dependent loads. Quantized child boxes (8-bit codes relative to the
//! node's box, 128-byte nodes) were tried and were slower on that benchmark: the decoding adds
//! about 40 instructions per node, and with the tree in the last-level cache the cast is bound
//! by instructions and branches more than by node loads (see `docs/benchmarks.md`).
//!
//! Build: top-down, reusing the binned-SAH split of the dynamic tree's rebuild
//! (Wald 2007, "On fast construction of SAH-based bounding volume hierarchies"). A node's range
//! is split in two by binned SAH, and then the child of largest surface area is split again,
//! until there are `WIDTH` children: the binary SAH tree collapsed into a wide one on the fly
//! (the greedy largest-area collapse of Wald, Benthin, Boulos 2008, "Getting rid of packets",
//! and of Embree's BVH4/BVH8 builders). A child of at most `WIDTH` primitives is opened into
//! single primitive lanes only when they all fit, so that the nodes next to the primitives are
//! full. Nodes are numbered in build order, so that the children of a node are consecutive and
//! subtrees are compact in memory.

#[cfg(target_arch = "x86_64")]
mod avx;
mod collapse;
pub(crate) mod mirror;
mod ordered;
mod query;
mod ray_lanes;

use super::rebuild::{sah_split, Item};
use super::DynamicBvh;
use crate::ProxyId;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Aabb;

/// Children per node: [`sepax_simd::LANES`] (8 in both precisions).
pub(crate) const WIDTH: usize = sepax_simd::LANES;

/// Tag of a child that is a primitive: `PRIM | index`.
const PRIM: u32 = 1 << 31;

/// A child slot with nothing in it (its lane is off in the node's mask).
const EMPTY: u32 = u32::MAX;

/// One node: the children's boxes, lane `j` for child `j`, and the children.
///
/// Lanes of empty slots hold a copy of lane 0's box (finite, so the slab test never produces a
/// NaN from them) and are cleared by `mask`.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct WideNode {
    /// `[min x, min y, min z, max x, max y, max z]`, one lane per child.
    pub bounds: [[Real; WIDTH]; 6],
    /// Node index, `PRIM | primitive index`, or `EMPTY`.
    pub children: [u32; WIDTH],
    /// Bit `j` set when slot `j` holds a child.
    pub mask: u32,
    /// Bit `j` set when slot `j` holds a primitive.
    pub prims: u32,
}

#[cfg(not(feature = "f64"))]
const _: () = assert!(core::mem::size_of::<WideNode>() == 256);
#[cfg(feature = "f64")]
const _: () = assert!(core::mem::size_of::<WideNode>() == 448);

impl WideNode {
    /// The box of lane `j`.
    #[inline]
    pub(crate) fn lane_box(&self, j: usize) -> Aabb {
        let b = &self.bounds;
        Aabb::new_unchecked(
            Point3::new(b[0][j], b[1][j], b[2][j]),
            Point3::new(b[3][j], b[4][j], b[5][j]),
        )
    }
}

/// A static wide (8 children) bounding volume hierarchy over a list of boxes (primitives), for fast ray
/// casts ([`WideBvh::cast_ray`], [`WideBvh::cast_ray_closest`], [`WideBvh::cast_ray_all`]) and
/// box queries ([`WideBvh::query_aabb`]). Results name primitives by their index in the list
/// given to [`WideBvh::build`]. See the [module documentation](self).
///
/// Use it for geometry that does not move (the static world of a game or a robot cell); rebuild
/// it, or use [`DynamicBvh`], when boxes change. [`DynamicBvh::to_wide`] makes one from a dynamic
/// tree's proxies.
///
/// ```
/// use sepax_broadphase::bvh::WideBvh;
/// use sepax_shapes::math::{Point3, Real, Vector3};
/// use sepax_shapes::{Aabb, Ray};
///
/// let unit = |x: Real| Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0)).unwrap();
/// let tree = WideBvh::build(&[unit(0.0), unit(5.0), unit(10.0)]);
/// let ray = Ray::new(Point3::new(-2.0, 0.5, 0.5), Vector3::x(), 100.0).unwrap();
/// assert_eq!(tree.cast_ray_closest(&ray), Some((0, 2.0)));
/// let back = Ray::new(Point3::new(20.0, 0.5, 0.5), -Vector3::x(), 100.0).unwrap();
/// assert_eq!(tree.cast_ray_closest(&back), Some((2, 9.0)));
/// ```
#[derive(Debug, Clone)]
pub struct WideBvh {
    /// The root is node 0 when there is at least one primitive.
    nodes: Vec<WideNode>,
    len: usize,
    /// Whether ray casts may use AVX when the CPU has it (see [`WideBvh::set_avx`]); only read
    /// on x86-64.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    allow_avx: bool,
}

impl Default for WideBvh {
    fn default() -> Self {
        WideBvh {
            nodes: Vec::new(),
            len: 0,
            allow_avx: true,
        }
    }
}

/// A range of build items that becomes one child, with its box.
#[derive(Clone, Copy)]
struct Range {
    start: usize,
    end: usize,
    aabb: Aabb,
}

fn bounds_of(items: &[Item]) -> Aabb {
    let mut b = *items[0].aabb();
    for it in &items[1..] {
        b = b.merge(it.aabb());
    }
    b
}

impl WideBvh {
    /// Builds the tree over `boxes`; primitive `i` is `boxes[i]`.
    ///
    /// # Panics
    /// With `2^31` boxes or more (indices are tagged 31-bit integers).
    pub fn build(boxes: &[Aabb]) -> WideBvh {
        assert!(
            boxes.len() < PRIM as usize,
            "WideBvh: at most 2^31 - 1 boxes"
        );
        let mut items: Vec<Item> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| Item::new(i as u32, *b))
            .collect();
        let mut nodes = Vec::with_capacity(boxes.len() / 2 + 1);
        if !items.is_empty() {
            let root = Range {
                start: 0,
                end: items.len(),
                aabb: bounds_of(&items),
            };
            nodes.push(placeholder());
            // (range, node index to fill)
            let mut tasks: Vec<(Range, u32)> = vec![(root, 0)];
            while let Some((range, node)) = tasks.pop() {
                let (kids, count) = children_of(&mut items, range);
                let mut n = placeholder();
                n.mask = (1 << count) - 1;
                for (j, k) in kids.iter().enumerate() {
                    // Empty lanes repeat lane 0's box (see `WideNode`).
                    let b = if j < count { k.aabb } else { kids[0].aabb };
                    let (lo, hi) = (b.min(), b.max());
                    for a in 0..3 {
                        n.bounds[a][j] = lo[a];
                        n.bounds[a + 3][j] = hi[a];
                    }
                }
                let first_new = tasks.len();
                for (j, k) in kids[..count].iter().enumerate() {
                    n.children[j] = if k.end - k.start == 1 {
                        n.prims |= 1 << j;
                        PRIM | items[k.start].node()
                    } else {
                        let idx = nodes.len() as u32;
                        nodes.push(placeholder());
                        tasks.push((*k, idx));
                        idx
                    };
                }
                // The first child is built (and laid out) first.
                tasks[first_new..].reverse();
                nodes[node as usize] = n;
            }
        }
        WideBvh {
            nodes,
            len: boxes.len(),
            allow_avx: true,
        }
    }

    /// Ray casts use AVX when the CPU has it (detected at run time; the default) or, with
    /// `false`, the portable SIMD build (SSE2 on x86-64). Both give the same results bit for
    /// bit; the switch is for tests and comparisons.
    pub fn set_avx(&mut self, allow: bool) {
        self.allow_avx = allow;
    }

    /// Number of primitives.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no primitives.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Levels of nodes on the longest root-to-primitive path (0 when empty).
    pub fn depth(&self) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut deepest = 0;
        let mut stack = vec![(0u32, 1usize)];
        while let Some((i, d)) = stack.pop() {
            deepest = deepest.max(d);
            let n = &self.nodes[i as usize];
            for j in 0..WIDTH {
                let c = n.children[j];
                if n.mask & (1 << j) != 0 && c & PRIM == 0 {
                    stack.push((c, d + 1));
                }
            }
        }
        deepest
    }

    /// Bytes of node memory.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * core::mem::size_of::<WideNode>()
    }
}

/// Splits `range` (at least two items) into at most `WIDTH` child ranges, ordered by item
/// position.
///
/// ```text
/// kids = [range]
/// repeat:
///   c = the child of largest surface area among those with more than one item and not marked
///   none: stop
///   |c| <= WIDTH: if its items fit in the free lanes, replace c by its items (one lane each),
///                 else mark c (it becomes a node of its own, with |c| primitive lanes)
///   |c| >  WIDTH: if a lane is free, split c in two by binned SAH, else stop
/// ```
/// Opening small ranges only when they fit keeps the nodes near the primitives full: splitting
/// them greedily would leave many nodes of two primitives (a third more nodes in all).
fn children_of(items: &mut [Item], range: Range) -> ([Range; WIDTH], usize) {
    let mut kids = [range; WIDTH];
    let mut count = 1;
    let mut marked = [false; WIDTH];
    loop {
        let mut pick: Option<(usize, Real)> = None;
        for (j, k) in kids[..count].iter().enumerate() {
            let area = k.aabb.surface_area();
            if k.end - k.start > 1 && !marked[j] && pick.is_none_or(|(_, a)| area > a) {
                pick = Some((j, area));
            }
        }
        let Some((j, _)) = pick else { break };
        let k = kids[j];
        let size = k.end - k.start;
        if size <= WIDTH {
            if count - 1 + size > WIDTH {
                marked[j] = true;
                continue;
            }
            // Shift the later children right by `size - 1` and put the items in their place.
            kids.copy_within(j + 1..count, j + size);
            marked.copy_within(j + 1..count, j + size);
            for (i, item) in items[k.start..k.end].iter().enumerate() {
                kids[j + i] = Range {
                    start: k.start + i,
                    end: k.start + i + 1,
                    aabb: *item.aabb(),
                };
                marked[j + i] = false;
            }
            count += size - 1;
            continue;
        }
        if count == WIDTH {
            break;
        }
        let mid = k.start + sah_split(&mut items[k.start..k.end]) as usize;
        // Keep the children in item order (the left part in place, the right part after it),
        // so that siblings are laid out in space order.
        kids.copy_within(j + 1..count, j + 2);
        marked.copy_within(j + 1..count, j + 2);
        kids[j] = Range {
            start: k.start,
            end: mid,
            aabb: bounds_of(&items[k.start..mid]),
        };
        kids[j + 1] = Range {
            start: mid,
            end: k.end,
            aabb: bounds_of(&items[mid..k.end]),
        };
        marked[j] = false;
        marked[j + 1] = false;
        count += 1;
    }
    (kids, count)
}

fn placeholder() -> WideNode {
    WideNode {
        bounds: [[0.0; WIDTH]; 6],
        children: [EMPTY; WIDTH],
        mask: 0,
        prims: 0,
    }
}

impl DynamicBvh {
    /// A [`WideBvh`] over the proxies' **tight** boxes (the boxes last given to `insert` or
    /// `update`, not the fat ones the dynamic tree stores), and the handle of each of its
    /// primitives: primitive `i` of the wide tree is proxy `ids[i]`. For casting rays against
    /// geometry that stays put.
    pub fn to_wide(&self) -> (WideBvh, Vec<ProxyId>) {
        let mut boxes = Vec::with_capacity(self.proxies.len());
        let mut ids = Vec::with_capacity(self.proxies.len());
        for (id, p) in self.proxies.iter() {
            boxes.push(p.aabb);
            ids.push(id);
        }
        (WideBvh::build(&boxes), ids)
    }
}
