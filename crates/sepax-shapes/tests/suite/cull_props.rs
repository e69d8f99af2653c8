//! Frustum culling: Exact never culls a visible shape, Inside means inside, and the modes agree
//! where they must.

use crate::common;

use common::*;
use proptest::prelude::*;
use sepax_shapes::math::{Matrix4, Point3, Real, Vector3};
use sepax_shapes::{Aabb, CullMode, Frustum, Obb, Shape, Sphere, Visibility};

fn frustum() -> impl Strategy<Value = Frustum> {
    let camera = (
        point(),
        prop::array::uniform3(-1.0 as Real..1.0),
        prop::array::uniform3(-1.0 as Real..1.0),
        0.3 as Real..2.5,
        0.5 as Real..2.0,
        0.1 as Real..2.0,
        3.0 as Real..30.0,
        any::<bool>(),
    );
    camera.prop_filter_map(
        "degenerate camera",
        |(eye, f, u, fov, aspect, near, far, matrix)| {
            let (f, u) = (Vector3::from(f), Vector3::from(u));
            if matrix {
                if f.norm() < 1e-2 || f.cross(&u).norm() < 1e-2 {
                    return None;
                }
                let proj = Matrix4::new_perspective(aspect, fov, near, far);
                let view = Matrix4::look_at_rh(&eye, &(eye + f), &u);
                Frustum::from_view_projection(&(proj * view)).ok()
            } else {
                Frustum::from_camera(eye, f, u, fov, aspect, near, far).ok()
            }
        },
    )
}

/// A shape near the frustum: centred at a random point of the frustum's corner box, grown a bit.
fn near_shape(
    f: &Frustum,
    kind: u8,
    u: [Real; 3],
    h: [Real; 3],
    q: sepax_shapes::math::UnitQuaternion,
) -> Shape {
    let b = f.world_aabb();
    let c = b.min() + b.extents().component_mul(&Vector3::from(u)) * 1.2 - b.extents() * 0.1;
    let h = Vector3::from(h);
    match kind % 3 {
        0 => Shape::from(Aabb::from_center_half_extents(c, h).unwrap()),
        1 => Shape::from(Obb::from_rotation(c, q, h).unwrap()),
        _ => Shape::from(Sphere::new(c, h.x).unwrap()),
    }
}

fn cull(f: &Frustum, s: &Shape, mode: CullMode) -> Visibility {
    match s {
        Shape::Aabb(b) => f.cull_aabb(b, mode),
        Shape::Obb(b) => f.cull_obb(b, mode),
        Shape::Sphere(b) => f.cull_sphere(b, mode),
        _ => unreachable!("only boxes and spheres are culled"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn exact_never_culls_a_visible_shape(
        f in frustum(),
        kind in any::<u8>(),
        u in params(),
        h in prop::array::uniform3(0.0 as Real..6.0),
        q in rotation(),
        samples in prop::collection::vec(params(), 64),
    ) {
        let s = near_shape(&f, kind, u, h, q);
        let (planes, exact) = (cull(&f, &s, CullMode::Planes), cull(&f, &s, CullMode::Exact));
        let inside: Vec<Point3> = samples.iter().map(|u| sample_in(&s, *u)).filter(|p| f.contains_point(p)).collect();
        if !inside.is_empty() {
            prop_assert_ne!(exact, Visibility::Outside, "{:?} visible at {:?}", s, inside[0]);
            prop_assert_ne!(planes, Visibility::Outside);
        }
        if planes == Visibility::Inside || exact == Visibility::Inside {
            prop_assert_eq!(inside.len(), samples.len(), "Inside but a sample is outside");
        }
        // Exact only refines Planes: it never contradicts an Outside or Inside verdict.
        if planes != Visibility::Intersecting {
            prop_assert_eq!(planes, exact);
        }
        if let Shape::Sphere(sp) = s {
            let visible = f.distance_to_point(&sp.center()) <= sp.radius();
            if visible {
                prop_assert_ne!(exact, Visibility::Outside);
            }
        }
    }

    /// Frustum queries: containment agrees with closest-point distance, and corners are inside.
    #[test]
    fn frustum_point_queries(f in frustum(), p in prop::array::uniform3(-40.0 as Real..40.0)) {
        let p = Point3::from(p);
        let q = f.closest_point(&p);
        let d = f.distance_to_point(&p);
        prop_assert!(!d.is_nan() && d >= 0.0);
        prop_assert_eq!(f.contains_point(&p), d == 0.0);
        let m = f.world_aabb().max().coords.amax().max(f.world_aabb().min().coords.amax()).max(40.0);
        for pl in f.planes() {
            prop_assert!(pl.signed_distance(&q) >= -tol(m), "closest point outside a plane");
        }
        for c in f.corners() {
            for pl in f.planes() {
                prop_assert!(pl.signed_distance(c) >= -tol(m), "corner {c:?} outside {pl:?}");
            }
        }
    }
}
