//! A stack of 10 boxes on a floor, simulated for 1,000 frames by a tiny sequential-impulse solver
//! driven by a sepax `World`: the boxes are its colliders, and each step reads the contact
//! manifolds of the touching pairs (normal, per-point depth, feature ids for warm starting) from
//! `World::update`.
//! It prints how far the boxes drifted, how much they tilted, the residual penetration and how
//! many contact points were warm-started, and fails if the stack fell or sank.
//!
//! ```text
//! cargo run --release --example stack
//! ```

#[path = "support/stack_solver.rs"]
mod solver;

fn main() {
    let frames = 1000;
    let r = solver::run_stack(10, frames);
    println!(
        "10 boxes, {frames} frames at 60 Hz, {} iterations",
        solver::ITERATIONS
    );
    println!("  largest horizontal drift  {:.5} m", r.max_drift);
    println!("  largest tilt              {:.5} rad", r.max_tilt);
    println!(
        "  residual penetration      {:.5} m (margin {} m)",
        r.max_penetration,
        solver::MARGIN
    );
    println!(
        "  warm-started points       {:.1} %",
        100.0 * r.warm_fraction
    );
    println!("  motion in the last 100    {:.6} m", r.final_creep);
    assert!(r.max_drift < 0.1, "the stack drifted");
    assert!(r.max_tilt < 0.05, "the stack tilted");
    assert!(
        r.max_penetration < solver::MARGIN,
        "boxes sank into each other"
    );
    assert!(r.final_creep < 1e-3, "the stack is still moving");
    println!("the stack stayed standing");
}
