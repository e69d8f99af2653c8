//! The game of `examples/game_loop.rs` (`examples/support/arena.rs`), checked frame by frame
//! against a brute-force world: before each update, every pair of live colliders whose layers
//! collide in the game's matrix (and that are not both static) is tested with the narrow phase
//! on the placed shapes; the world's begin / persist / end events must be exactly the
//! difference of that touching set with the previous frame's, and the game must act on them.

#[path = "../examples/support/arena.rs"]
mod arena;

use std::collections::BTreeSet;

use arena::{untag, Game, Layer, COLLIDING};
use sepax::prelude::*;

/// Steps of the test run: the whole six seconds of the example.
const FRAMES: u32 = 360;

fn layers_collide(a: Layer, b: Layer) -> bool {
    COLLIDING.contains(&(a, b)) || COLLIDING.contains(&(b, a))
}

/// The touching pairs of `world` by testing every pair.
fn brute_force(world: &World) -> BTreeSet<PairKey> {
    let all: Vec<_> = world.iter().collect();
    let mut out = BTreeSet::new();
    for (i, (ia, a)) in all.iter().enumerate() {
        for (ib, b) in &all[i + 1..] {
            let (la, lb) = (untag(a.user()).0, untag(b.user()).0);
            let both_static = a.kind() == Kind::Static && b.kind() == Kind::Static;
            if both_static || !layers_collide(la, lb) {
                continue;
            }
            if intersects_shapes(a.world_shape(), b.world_shape()) {
                out.insert(PairKey::new(*ia, *ib));
            }
        }
    }
    out
}

fn pairs(events: &[PairEvent]) -> Vec<PairKey> {
    events.iter().map(|e| e.pair).collect()
}

#[test]
fn events_are_the_brute_force_differences_and_the_game_acts_on_them() {
    let mut game = Game::new();
    let mut before: BTreeSet<PairKey> = BTreeSet::new();
    let mut hits_last_frame: Vec<PairKey> = Vec::new();
    let mut checkpoint_frames = Vec::new();
    for frame in 0..FRAMES {
        game.advance();
        let now = brute_force(&game.world);
        game.world.update(&Serial);
        let ev = game.world.events();
        let begin: Vec<_> = now.difference(&before).copied().collect();
        let end: Vec<_> = before.difference(&now).copied().collect();
        assert_eq!(pairs(&ev.begin), begin, "begin at frame {frame}");
        assert_eq!(pairs(&ev.end), end, "end at frame {frame}");
        // Persist: the pairs touching at both updates where a side reports persist events
        // (only the checkpoint does).
        let persist: Vec<_> = now
            .intersection(&before)
            .filter(|p| {
                let r = |id| game.world.get(id).expect("live").report();
                r(p.0).max(r(p.1)) >= Report::Persist
            })
            .copied()
            .collect();
        assert_eq!(pairs(&ev.persist), persist, "persist at frame {frame}");
        // Every pair whose begin made the game remove a collider ends now, flagged removed.
        for p in &hits_last_frame {
            let e = ev.end.iter().find(|e| e.pair == *p);
            let e = e.unwrap_or_else(|| panic!("no end for {p:?} at frame {frame}"));
            assert!(
                e.flags.contains(EventFlags::REMOVED),
                "frame {frame}: {e:?}"
            );
        }
        for e in &ev.end {
            let gone = !game.world.contains(e.pair.0) || !game.world.contains(e.pair.1);
            assert_eq!(e.flags.contains(EventFlags::REMOVED), gone, "{e:?}");
        }
        if ev.begin.iter().chain(&ev.persist).any(is_checkpoint) {
            checkpoint_frames.push(frame);
        }
        let removing: Vec<_> = ev
            .begin
            .iter()
            .filter(|e| removes(e))
            .map(|e| e.pair)
            .collect();
        game.react();
        // The game removed what it was hit by (shots on a hit, coins when picked up).
        for p in &removing {
            assert!(
                !game.world.contains(p.0) || !game.world.contains(p.1),
                "{p:?}"
            );
        }
        hits_last_frame = removing;
        before = now;
    }
    let s = game.score;
    // One shot every 24 frames from frame 12; each is stopped by an enemy or the level (the
    // far wall spans the arena) or still flying.
    assert_eq!(s.shots_fired, 15, "{s:?}");
    let flying = game.live_shots() as u32;
    assert_eq!(
        s.enemy_hits + s.shots_stopped_by_level + flying,
        15,
        "{s:?}"
    );
    assert!(s.enemy_hits >= 3 * s.enemies_down, "{s:?}");
    // The checkpoint spans x in [-7, -5]; the player (radius 0.4) walks at 3.5 m/s from x = -16:
    // it overlaps the zone from t = 8.6 / 3.5 s to 11.4 / 3.5 s (frames 148 to 195).
    assert_eq!(
        checkpoint_frames.first(),
        Some(&148),
        "{checkpoint_frames:?}"
    );
    assert_eq!(
        checkpoint_frames.last(),
        Some(&195),
        "{checkpoint_frames:?}"
    );
    assert_eq!(checkpoint_frames.len(), 48);
    assert_eq!(s.frames_in_checkpoint, 48);
    // Coins lie on the path at 1.0 s and 4.0 s; the one at 2.5 s is 1.2 m aside (out of reach
    // of the player's 0.4 m radius plus the coin's 0.3 m).
    assert_eq!(s.coins, 2, "{s:?}");
}

fn is_checkpoint(e: &PairEvent) -> bool {
    untag(e.user[0]).0 == Layer::Trigger || untag(e.user[1]).0 == Layer::Trigger
}

/// Whether the game removes a collider on this begin event (a shot that hit, a coin).
fn removes(e: &PairEvent) -> bool {
    let (la, lb) = (untag(e.user[0]).0, untag(e.user[1]).0);
    la == Layer::Shot || lb == Layer::Shot || la == Layer::Pickup || lb == Layer::Pickup
}

#[test]
fn two_runs_give_the_same_log_and_state() {
    let run = || {
        let mut game = Game::new();
        let mut log = Vec::new();
        for _ in 0..FRAMES {
            game.step();
            log.extend(game.log.iter().cloned());
        }
        (log, game.world.state_hash(), game.score)
    };
    assert_eq!(run(), run());
}
