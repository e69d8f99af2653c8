//! What `sepax check` prints for one pair, checked before it is written: the contact
//! (`--contacts`) and the box witness (`--explain`). A quantity that is not a finite number is an
//! error naming the pair and the quantity, never `inf`, `NaN` or JSON `null`.

use crate::explain::{axis_words, box_witness, verdict_word, witness_sentence};
use crate::input::CliError;
use crate::output::quote;
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig};
use sepax_narrowphase::intersect::BoxWitness;
use sepax_scene::Scene;
use sepax_shapes::math::Real;
use sepax_shapes::Shape;
use serde::Serialize;

/// A pair object of the JSON output.
#[derive(Serialize)]
pub struct JsonPair<'a> {
    /// Id of the first shape.
    pub a: &'a str,
    /// Id of the second shape.
    pub b: &'a str,
    /// Contact normal (`--contacts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<[Real; 3]>,
    /// Penetration depth (`--contacts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<Real>,
    /// Contact points (`--contacts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<&'a [[Real; 3]]>,
}

/// The contact of an intersecting pair as printed: normal, depth and points, all finite.
pub struct PairContact {
    /// Unit normal from the first shape to the second.
    pub normal: [Real; 3],
    /// Penetration depth, `>= 0`.
    pub depth: Real,
    /// Manifold points (midpoints of the two surface points).
    pub points: Vec<[Real; 3]>,
}

/// The contact of a pair that the overlap test reported intersecting. A touching pair may come
/// out a rounding error apart, so the manifold is asked with a speculative margin of `1e-4` of
/// the pair's size and the depth is clamped at 0.
pub fn pair_contact(a: &Shape, b: &Shape) -> Result<PairContact, String> {
    let size = a.world_aabb().merge(&b.world_aabb()).extents().max();
    let margin = if size.is_finite() { 1e-4 * size } else { 0.0 };
    let m = contact_manifold_shapes(a, b, &ContactConfig::with_margin(margin))
        .ok_or_else(|| "no contact found for an intersecting pair".to_string())?;
    let v = |p: &sepax_shapes::math::Vector3| [p.x + 0.0, p.y + 0.0, p.z + 0.0];
    let contact = PairContact {
        normal: v(&m.normal),
        depth: m.depth.max(0.0),
        points: m.points.iter().map(|p| v(&p.midpoint().coords)).collect(),
    };
    finite("the contact normal", &contact.normal)?;
    finite("the contact depth", &[contact.depth])?;
    for (k, p) in contact.points.iter().enumerate() {
        finite(&format!("contact point {k}"), p)?;
    }
    Ok(contact)
}

/// An error naming `what` when any of `values` is not finite.
fn finite(what: &str, values: &[Real]) -> Result<(), String> {
    match values.iter().find(|x| !x.is_finite()) {
        Some(x) => Err(format!(
            "{what} is not a finite number ({x}) in this build's precision"
        )),
        None => Ok(()),
    }
}

/// [`pair_contact`] for shapes `i` and `j` of the scene, the error naming both ids.
pub fn contact_of(scene: &Scene, i: usize, j: usize) -> Result<PairContact, CliError> {
    let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
    pair_contact(&a.shape, &b.shape)
        .map_err(|e| CliError::new(format!("shapes {:?} and {:?}: {e}", a.id, b.id)))
}

/// The witness of a box pair, checked finite.
pub struct Witnessed {
    /// Index of the first shape.
    pub a: usize,
    /// Index of the second shape.
    pub b: usize,
    /// Its separating-axis witness.
    pub witness: BoxWitness,
}

/// An explanation object of the JSON output.
#[derive(Serialize)]
pub struct JsonExplanation<'a> {
    a: &'a str,
    b: &'a str,
    verdict: &'static str,
    axis: String,
    direction: [Real; 3],
    distance: Real,
    text: String,
}

impl Witnessed {
    /// The JSON object (ids as they are; serde escapes them).
    pub fn json<'a>(&self, scene: &'a Scene) -> JsonExplanation<'a> {
        let (a, b) = (&scene.shapes[self.a].id, &scene.shapes[self.b].id);
        let w = &self.witness;
        JsonExplanation {
            a,
            b,
            verdict: verdict_word(w.classification),
            axis: axis_words(w.axis, a, b),
            direction: [w.direction.x, w.direction.y, w.direction.z],
            // `+ 0.0` turns a negative zero into zero.
            distance: w.distance + 0.0,
            text: witness_sentence(a, b, w),
        }
    }

    /// The sentence of the text output (ids quoted where needed).
    pub fn sentence(&self, scene: &Scene) -> String {
        let a = quote(&scene.shapes[self.a].id);
        let b = quote(&scene.shapes[self.b].id);
        witness_sentence(&a, &b, &self.witness)
    }
}

/// The witness of shapes `i` and `j` when both are boxes; an error naming the pair when its
/// direction or distance is not finite.
pub fn explanation_of(scene: &Scene, i: usize, j: usize) -> Result<Option<Witnessed>, CliError> {
    let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
    let Some(witness) = box_witness(&a.shape, &b.shape) else {
        return Ok(None);
    };
    let d = &witness.direction;
    finite("the explanation's direction", &[d.x, d.y, d.z])
        .and_then(|()| finite("the explanation's distance", &[witness.distance]))
        .map_err(|e| CliError::new(format!("shapes {:?} and {:?}: {e}", a.id, b.id)))?;
    Ok(Some(Witnessed {
        a: i,
        b: j,
        witness,
    }))
}
