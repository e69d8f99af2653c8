//! The workcell of `examples/robot_trajectory.rs`: the example runs, and its findings are what
//! it tells. At the waypoints the dive hits the table and the fold hits the arm itself (a
//! non-adjacent pair); the reach and the gripper turn look clear. Swept, the turn hits the
//! cable between waypoints 2 and 3. Every finding is confirmed with the narrow phase on the
//! placed links, independently of the trajectory check.

#[path = "../examples/support/arm.rs"]
mod arm;
#[path = "../examples/support/workcell.rs"]
mod workcell;

use sepax::prelude::*;
use sepax::world::{Sweep, TrajectoryHit};
use workcell::{Workcell, STEPS};

/// Whether the pair touches at `step` of candidate `c`, the links placed by hand.
fn touches_at(cell: &Workcell, c: usize, step: usize, pair: PairKey) -> bool {
    let poses = &cell.candidates[c].1;
    let shape = |id: ColliderId| -> Shape {
        let col = cell.world.get(id).unwrap();
        match cell.links.iter().position(|&l| l == id) {
            Some(i) => col
                .shape()
                .transformed(&poses[step * arm::JOINTS + i])
                .unwrap(),
            None => *col.world_shape(),
        }
    };
    intersects_shapes(&shape(pair.0), &shape(pair.1))
}

fn is_link(cell: &Workcell, id: ColliderId) -> bool {
    cell.links.contains(&id)
}

#[test]
fn the_example_finds_what_it_tells() {
    let cell = Workcell::new();
    let discrete = cell.check(Sweep::Discrete);
    let swept = cell.check(Sweep::Swept);
    let names = |h: &TrajectoryHit| (cell.name(h.pair.0), cell.name(h.pair.1));

    let [reach, dive, fold, turn] = &discrete.trajectories[..] else {
        panic!("four candidates")
    };
    assert_eq!(reach.first_hit, None);
    let d = dive.first_hit.expect("the dive hits");
    assert!(
        names(&d).0 == "table" || names(&d).1 == "table",
        "{:?}",
        names(&d)
    );
    assert!(touches_at(&cell, 1, d.step, d.pair));
    assert!(d.step > 0 && !touches_at(&cell, 1, d.step - 1, d.pair));
    let f = fold.first_hit.expect("the fold hits the arm");
    assert!(
        is_link(&cell, f.pair.0) && is_link(&cell, f.pair.1),
        "{:?}",
        names(&f)
    );
    assert!(touches_at(&cell, 2, f.step, f.pair));
    assert_eq!(
        turn.first_hit, None,
        "at the waypoints the turn looks clear"
    );
    for step in 0..STEPS {
        let cable = cell.names.iter().find(|n| n.1 == "cable").unwrap().0;
        let gripper = cell.links[6];
        assert!(!touches_at(&cell, 3, step, PairKey::new(cable, gripper)));
    }

    let [reach_s, dive_s, fold_s, turn_s] = &swept.trajectories[..] else {
        panic!("four candidates")
    };
    assert_eq!(reach_s.first_hit, None);
    assert!(dive_s.first_hit.unwrap().step <= d.step);
    assert!(fold_s.first_hit.unwrap().step <= f.step);
    let t = turn_s.first_hit.expect("swept, the turn hits the cable");
    assert_eq!(names(&t), ("gripper", "cable"));
    assert_eq!(t.step, 3);
    let frac = t.t.unwrap();
    assert!(frac > 0.0 && frac < 1.0, "{frac}");
    // The contact is real: the gripper turned by that fraction (about its centre) touches.
    let gripper = cell.world.get(cell.links[6]).unwrap();
    let poses = &cell.candidates[3].1;
    let (p0, p1) = (poses[2 * arm::JOINTS + 6], poses[3 * arm::JOINTS + 6]);
    let at = |s: Real| {
        let q = p0.rotation.slerp(&p1.rotation, s);
        let c0 = p0 * Point3::new(0.0, 0.0, 0.03);
        // Rotating about the centre keeps the centre: the frame origin follows.
        let origin = c0 - q * Vector3::new(0.0, 0.0, 0.03);
        gripper
            .shape()
            .transformed(&Isometry3::from_parts(origin.coords.into(), q))
            .unwrap()
    };
    let cable = *cell.world.get(t.pair.1).unwrap().world_shape();
    assert!(!intersects_shapes(&at(frac * 0.98), &cable));
    let touching_after = (0..=100)
        .map(|i| frac + (1.0 - frac) * i as Real / 100.0)
        .any(|s| intersects_shapes(&at(s), &cable));
    assert!(touching_after, "the gripper reaches the cable after t");
}
