//! Batch forms: slices of rays, shapes or points in, slices of results out in input order, run
//! on an [`Executor`] in chunks of [`QUERY_CHUNK`] inputs. Each input is answered on its own
//! (the same answer as the single query), so the output does not depend on the executor or
//! its thread count. Every input is checked before any runs; an error names its index.

use std::sync::Mutex;

use super::cast::ShapeCastHit;
use super::collect::{All, Closest};
use super::point::PointHit;
use super::ray::RayCastHit;
use super::{check_finite, check_limit, place_query, QueryError, QueryFilter};
use crate::executor::Executor;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::toi::Motion;
use sepax_shapes::math::{Isometry3, Point3, Real, Vector3};
use sepax_shapes::{Ray, Shape};

/// Inputs per job of a batch (fixed, so the split never depends on the thread count).
pub const QUERY_CHUNK: usize = 64;

/// One linear shape cast of a batch: `shape` at `pose` moving with `velocity` for
/// `[0, max_time]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeCast {
    /// The shape, in its local frame.
    pub shape: Shape,
    /// Its pose at time 0.
    pub pose: Isometry3,
    /// Its velocity.
    pub velocity: Vector3,
    /// The last time considered.
    pub max_time: Real,
}

fn same_len(inputs: usize, outputs: usize) -> Result<(), QueryError> {
    if inputs == outputs {
        Ok(())
    } else {
        Err(QueryError::LengthMismatch { inputs, outputs })
    }
}

/// Runs `f(index, slot)` for every slot of `out`, `QUERY_CHUNK` slots per job.
fn run_chunks<T: Send>(exec: &impl Executor, out: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
    run_chunks_with(exec, out, |_| (), |_, i, slot| f(i, slot));
}

/// [`run_chunks`] with a state `init(chunk length)` made once per job and handed to each
/// `f(state, index, slot)` of the job.
fn run_chunks_with<T: Send, S>(
    exec: &impl Executor,
    out: &mut [T],
    init: impl Fn(usize) -> S + Sync,
    f: impl Fn(&S, usize, &mut T) + Sync,
) {
    let chunks: Vec<Mutex<&mut [T]>> = out.chunks_mut(QUERY_CHUNK).map(Mutex::new).collect();
    exec.run(chunks.len(), &|i| {
        let mut chunk = chunks[i].lock().unwrap_or_else(|e| e.into_inner());
        let state = init(chunk.len());
        for (k, slot) in chunk.iter_mut().enumerate() {
            f(&state, i * QUERY_CHUNK + k, slot);
        }
    });
}

impl<B: MovingPhase + Sync> World<B> {
    /// The nearest hit of each ray (as [`World::cast_ray`]) into `out[i]`.
    pub fn cast_rays(
        &self,
        exec: &impl Executor,
        rays: &[Ray],
        filter: &QueryFilter<'_>,
        out: &mut [Option<RayCastHit>],
    ) -> Result<(), QueryError> {
        same_len(rays.len(), out.len())?;
        let sees = self.resolve(filter)?;
        // One caster of the static tree per job: its mirror is taken once for the job's rays.
        run_chunks_with(
            exec,
            out,
            |n| self.statics.ray_caster(n),
            |statics, i, slot| {
                let mut c = Closest::default();
                self.ray_resolved(statics, &rays[i], &sees, &mut c);
                *slot = c.0;
            },
        );
        Ok(())
    }

    /// Every collider each shape at its pose touches (as [`World::overlap`]) into `out[i]`
    /// (cleared first), by id.
    pub fn overlap_batch(
        &self,
        exec: &impl Executor,
        shapes: &[(Shape, Isometry3)],
        filter: &QueryFilter<'_>,
        out: &mut [Vec<ColliderId>],
    ) -> Result<(), QueryError> {
        same_len(shapes.len(), out.len())?;
        let sees = self.resolve(filter)?;
        let placed = shapes
            .iter()
            .enumerate()
            .map(|(i, (s, p))| place_query(i, s, p))
            .collect::<Result<Vec<_>, _>>()?;
        run_chunks(exec, out, |i, slot| {
            slot.clear();
            let (shape, aabb) = &placed[i];
            let mut all = All(slot);
            self.overlap_resolved(shape, aabb, &sees, &mut all);
            super::collect::Collector::finish(&mut all);
        });
        Ok(())
    }

    /// The first contact of each linear cast (as [`World::cast_shape`]) into `out[i]`.
    pub fn cast_shapes_batch(
        &self,
        exec: &impl Executor,
        casts: &[ShapeCast],
        filter: &QueryFilter<'_>,
        out: &mut [Option<ShapeCastHit>],
    ) -> Result<(), QueryError> {
        same_len(casts.len(), out.len())?;
        let sees = self.resolve(filter)?;
        let mut placed = Vec::with_capacity(casts.len());
        for (i, c) in casts.iter().enumerate() {
            check_finite(i, "velocity", c.velocity.as_slice())?;
            check_limit(i, "max_time", c.max_time, false)?;
            placed.push(place_query(i, &c.shape, &c.pose)?);
        }
        run_chunks(exec, out, |i, slot| {
            let (shape, aabb) = &placed[i];
            let motion = Motion::linear(casts[i].velocity);
            let mut c = Closest::default();
            self.cast_resolved(shape, aabb, &motion, casts[i].max_time, &sees, &mut c);
            *slot = c.0;
        });
        Ok(())
    }

    /// The closest collider to each point within `max_distance` (as
    /// [`World::closest_collider`]) into `out[i]`.
    pub fn closest_colliders(
        &self,
        exec: &impl Executor,
        points: &[Point3],
        max_distance: Real,
        filter: &QueryFilter<'_>,
        out: &mut [Option<PointHit>],
    ) -> Result<(), QueryError> {
        same_len(points.len(), out.len())?;
        let sees = self.resolve(filter)?;
        for (i, p) in points.iter().enumerate() {
            self.point_checked(i, p, max_distance)?;
        }
        run_chunks(exec, out, |i, slot| {
            let mut c = Closest::default();
            self.point_resolved(&points[i], max_distance, &sees, &mut c);
            *slot = c.0;
        });
        Ok(())
    }
}
