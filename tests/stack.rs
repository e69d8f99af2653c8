//! The example solver (`examples/stack.rs`) as a test: a stack of 10 boxes, whose contact
//! manifolds come from `World::update`, stays standing for 1,000 frames, the residual
//! penetration stays under the contact margin, and contacts are warm-started by feature id. "Standing": no box drifts more than 0.1 (a tenth of its size)
//! sideways or tilts more than 0.05 rad, and none moves more than 1 mm over the last 100 frames.

#[path = "../examples/support/stack_solver.rs"]
mod solver;

#[test]
fn ten_box_stack_stands_for_1000_frames() {
    let r = solver::run_stack(10, 1000);
    eprintln!("{r:?}");
    assert!(r.max_drift < 0.1, "{r:?}");
    assert!(r.max_tilt < 0.05, "{r:?}");
    assert!(r.max_penetration < solver::MARGIN, "{r:?}");
    assert!(r.warm_fraction > 0.9, "{r:?}");
    assert!(r.final_creep < 1e-3, "{r:?}");
}
