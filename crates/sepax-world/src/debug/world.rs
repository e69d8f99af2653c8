//! The world drawing itself into a [`DebugDraw`].

use super::{Color, DebugDraw, DebugDrawOptions, Layer, Paint, Tree};
use crate::collider::grow_saturating;
use crate::collider::{Collider, Kind};
use crate::id::{ColliderId, PairKey};
use crate::phase::MovingPhase;
use crate::world::{pair_allowed, World};
use sepax_broadphase::bvh::{DynamicBvh, Walk};
use sepax_broadphase::{BroadPhase, Visit};
use sepax_narrowphase::distance::closest_points_shapes;
use sepax_narrowphase::intersect::{explain, BoxWitness};
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Shape;

impl<B: MovingPhase> World<B> {
    /// Draws the world as `options` asks: every enabled collider's placed shape (coloured by
    /// state: touching at the last update, static, sensor, or plain), the broad-phase boxes,
    /// both trees' nodes by depth down to `max_depth` (layer [`Layer::TreeNode`]; the moving
    /// tree only when the moving broad phase is a tree), the last update's contact points and
    /// normals, the separating axes of the close pairs that do not touch, and its ccd hits.
    /// Reads the state of the last update and the current placements; changes nothing.
    pub fn debug_draw(&self, out: &mut dyn DebugDraw, options: &DebugDrawOptions) {
        let pal = &options.palette;
        let paint = |color: Color, layer: Layer| Paint { color, layer };
        let mut touching: Vec<ColliderId> = self.touching().flat_map(|p| [p.0, p.1]).collect();
        touching.sort_unstable();
        touching.dedup();
        for (id, c) in self.colliders.iter().filter(|(_, c)| c.desc.enabled) {
            if options.colliders {
                let color = if touching.binary_search(&id).is_ok() {
                    pal.touching
                } else if c.desc.sensor {
                    pal.sensor
                } else if c.desc.kind == Kind::Static {
                    pal.static_collider
                } else {
                    pal.collider
                };
                draw_shape(out, &c.world_shape, paint(color, Layer::Collider));
            }
            if options.fat_aabbs {
                if let Some(b) = self.stored_box(c) {
                    out.aabb(&b, paint(pal.fat_aabb, Layer::FatAabb));
                }
            }
            if options.labels {
                let at = c.world_aabb.center();
                let text = format!("{}", id.index());
                out.text(at, &text, paint(pal.label, Layer::Label));
            }
        }
        if options.tree_nodes {
            if let Some(tree) = self.moving.as_tree() {
                draw_tree(out, tree, Tree::Moving, options);
            }
            draw_tree(out, &self.statics, Tree::Static, options);
        }
        if options.contacts {
            let (pt, nl) = (
                paint(pal.contact, Layer::ContactPoint),
                paint(pal.contact, Layer::ContactNormal),
            );
            for m in &self.events.manifolds {
                for p in &m.points {
                    let at = p.midpoint();
                    out.point(at, pt);
                    out.line(at, at + m.normal * options.normal_length, nl);
                }
            }
        }
        if options.separating_axes {
            self.draw_axes(out, options);
        }
        if options.ccd {
            for h in &self.events.ccd {
                let p = paint(pal.ccd, Layer::Ccd);
                out.point(h.point, p);
                out.line(h.point, h.point + h.normal * options.normal_length, p);
            }
        }
    }

    /// The box `c` has in its broad phase.
    fn stored_box(&self, c: &Collider) -> Option<sepax_shapes::Aabb> {
        let p = c.proxy?;
        if c.desc.kind == Kind::Static {
            self.statics.stored_aabb(p)
        } else {
            BroadPhase::stored_aabb(&self.moving, p)
        }
    }

    /// Every pair of enabled colliders whose broad-phase boxes come within `gap` of each other,
    /// sorted (each collider's box grown by `gap`, looked for in both trees).
    fn close_pairs(&self, gap: Real) -> Vec<PairKey> {
        let mut out = Vec::new();
        let gap = if gap.is_finite() { gap.max(0.0) } else { 0.0 };
        for (id, c) in self.colliders.iter().filter(|(_, c)| c.desc.enabled) {
            let b = grow_saturating(&c.world_aabb, gap);
            let mut push = |other: Option<u64>| {
                if let Some(o) = other.map(ColliderId::from_bits) {
                    if o > id {
                        out.push(PairKey::new(id, o));
                    }
                }
            };
            BroadPhase::query_aabb(&self.moving, &b, &mut |p| {
                push(self.moving.user(p));
                Visit::Continue
            });
            self.statics.query_aabb(&b, |p| {
                push(self.statics.user(p));
                Visit::Continue
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The separating axes of the pairs whose boxes come within `axis_gap` (see
    /// [`DebugDrawOptions`]) that pass the filter and do not touch now, gap up to
    /// `axis_gap`: for two boxes the SAT witness of `explain` (the segment of the axis between
    /// the two projections), for other pairs the segment between the closest points (its
    /// direction separates them).
    fn draw_axes(&self, out: &mut dyn DebugDraw, options: &DebugDrawOptions) {
        let paint = Paint {
            color: options.palette.axis,
            layer: Layer::SeparatingAxis,
        };
        for pair in self.close_pairs(options.axis_gap) {
            let (Some(a), Some(b)) = (self.colliders.get(pair.0), self.colliders.get(pair.1))
            else {
                continue;
            };
            if !pair_allowed(self.config.policy, a, b, pair.1) || self.is_touching(pair.0, pair.1) {
                continue;
            }
            let (sa, sb) = (&a.world_shape, &b.world_shape);
            if let Some(w) = box_witness(sa, sb) {
                if w.distance > 0.0 && w.distance <= options.axis_gap {
                    let mid = Point3::from(
                        (sa.world_aabb().center().coords + sb.world_aabb().center().coords) * 0.5,
                    );
                    let s = w.direction.dot(&mid.coords);
                    let from = mid + w.direction * (w.interval_a[1] - s);
                    let to = mid + w.direction * (w.interval_b[0] - s);
                    out.line(from, to, paint);
                    if options.labels {
                        out.text(to, &format!("{:?}", w.axis), paint);
                    }
                }
                continue;
            }
            let cp = closest_points_shapes(sa, sb);
            if cp.distance > 0.0 && cp.distance <= options.axis_gap {
                out.line(cp.point_a, cp.point_b, paint);
            }
        }
    }
}

/// The SAT witness of two boxes, `None` for other pairs.
fn box_witness(a: &Shape, b: &Shape) -> Option<BoxWitness> {
    Some(match (a, b) {
        (Shape::Aabb(x), Shape::Aabb(y)) => explain(x, y),
        (Shape::Aabb(x), Shape::Obb(y)) => explain(x, y),
        (Shape::Obb(x), Shape::Aabb(y)) => explain(x, y),
        (Shape::Obb(x), Shape::Obb(y)) => explain(x, y),
        _ => return None,
    })
}

/// A placed shape, as the primitive of its kind.
fn draw_shape(out: &mut dyn DebugDraw, shape: &Shape, paint: Paint) {
    match shape {
        Shape::Aabb(b) => out.aabb(b, paint),
        Shape::Obb(b) => out.obb(b, paint),
        Shape::Sphere(s) => out.sphere(s.center(), s.radius(), paint),
        Shape::Capsule(c) => out.capsule(c.segment().a(), c.segment().b(), c.radius(), paint),
        Shape::Triangle(t) => out.triangle(t.vertices(), paint),
    }
}

/// Every node of `tree` down to `options.max_depth`, leaves included, each with its depth.
/// The walk is a pre-order depth-first traversal (a node, then its first child's subtree, then
/// its second's), so a stack of pending depths mirrors it: a node's depth is the one popped,
/// and an internal node that is descended pushes its children's depth twice.
fn draw_tree(out: &mut dyn DebugDraw, tree: &DynamicBvh, which: Tree, options: &DebugDrawOptions) {
    let mut pending = vec![0u32];
    let base = options.palette.node;
    tree.walk(|leaf, aabb| {
        let depth = pending.pop().unwrap_or(0);
        // Deeper nodes fade, so the top levels stay readable.
        let alpha = (255u32 >> depth.min(3)).max(48) as u8;
        let paint = Paint {
            color: base.with_alpha(alpha),
            layer: Layer::TreeNode { tree: which, depth },
        };
        out.aabb(aabb, paint);
        if leaf.is_some() || depth >= options.max_depth {
            return Walk::Prune;
        }
        pending.push(depth + 1);
        pending.push(depth + 1);
        Walk::Continue
    });
}
