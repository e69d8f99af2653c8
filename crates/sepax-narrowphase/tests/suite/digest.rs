//! The box–box manifold digests against their golden values (`tools/golden/`, one file per
//! precision): every bit of the manifolds of 300,000 pairs per data set, by the single,
//! in-place and batch paths, the batch with the run-time instruction set and in its portable
//! build, each checked against the single calls (`sepax_testkit::digest`). A change of any answer changes a digest; when one is
//! intended, `scripts/digests.sh --bless` writes the new values and the commit says why.

use sepax_shapes::math::Real;
use sepax_testkit::digest::manifold_digest;

fn golden() -> String {
    let precision = if std::mem::size_of::<Real>() == 8 {
        "f64"
    } else {
        "f32"
    };
    let path = format!(
        "{}/../../tools/golden/manifold_digest.{precision}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn manifold_digest_is_golden() {
    assert_eq!(manifold_digest(), golden());
}
