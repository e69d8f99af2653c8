//! A game loop on the sepax world: six seconds of a little arena game stepped at a fixed 60 Hz
//! while the "renderer" runs at an uneven frame rate. A kinematic player walks through the
//! level, fires a shot every 0.4 s at two kinematic enemies, collects coins (static sensors)
//! and crosses a checkpoint (a static sensor that reports persist events). Layers come from a
//! Unity-style collision matrix compiled to masks. After each `update` the game reads the
//! begin / persist / end arrays and acts: a shot that hits is removed (its pair ends at the
//! next update, flagged `removed`), an enemy goes down when its hit points run out, a coin is picked up.
//! The game itself is `examples/support/arena.rs`; `tests/game_loop.rs` checks it against a
//! brute-force world. Beside the player, a character capsule walks the same level moved only by
//! shape casts against it (collide and slide, `examples/support/character.rs`): it slides round
//! the pillar and stops at the far wall, never inside the level.
//!
//! ```text
//! cargo run --release --example game_loop
//! ```

#[path = "support/arena.rs"]
mod arena;

#[path = "support/character.rs"]
mod character;

use arena::{Game, DT};
use character::Character;
use sepax::prelude::{Real, Vector3};

/// Simulated seconds.
const SECONDS: Real = 6.0;

/// Render-frame durations (s) the loop cycles through: a display that cannot hold its rate.
const RENDER_FRAMES: [Real; 4] = [1.0 / 50.0, 1.0 / 75.0, 1.0 / 60.0, 1.0 / 40.0];

fn main() {
    let mut game = Game::new();
    let (mut clock, mut accumulator, mut renders) = (0.0, 0.0, 0usize);
    let mut busiest = (0, 0);
    // Walks +x at 6 m/s along z = 1.9, past a corner of the pillar (x = 7) and then the far wall (x = 19).
    let mut walker = Character::new(Vector3::new(-16.0, 0.0, 1.9));
    let mut overlapping_steps = 0;
    // "Fix your timestep": physics advances in whole DT steps, however long a render frame took.
    while clock < SECONDS {
        let frame_time = RENDER_FRAMES[renders % RENDER_FRAMES.len()];
        renders += 1;
        clock += frame_time;
        accumulator += frame_time;
        while accumulator >= DT {
            accumulator -= DT;
            game.step();
            walker.move_and_slide(&game.world, Vector3::new(6.0 * DT, 0.0, 0.0));
            overlapping_steps += usize::from(walker.in_level(&game.world));
            for line in &game.log {
                println!("{line}");
            }
            let touching = game.world.events().stats.touching;
            if touching > busiest.1 {
                busiest = (game.frame - 1, touching);
            }
        }
        // A renderer would draw here, interpolating by accumulator / DT.
    }

    let s = game.score;
    let stats = game.world.events().stats;
    println!();
    println!(
        "{} physics steps at 60 Hz in {renders} render frames",
        game.frame
    );
    println!(
        "shots fired {}, enemy hits {}, enemies down {}, stopped by the level {}",
        s.shots_fired, s.enemy_hits, s.enemies_down, s.shots_stopped_by_level
    );
    println!(
        "coins {} of 3, frames in the checkpoint {}, hits taken {}",
        s.coins, s.frames_in_checkpoint, s.player_hits
    );
    let p = walker.position;
    println!(
        "character: at ({:.2}, {:.2}, {:.2}) after {} stopping contacts, {} push-outs, {} steps \
         inside the level",
        p.x, p.y, p.z, walker.contacts, walker.pushed_out, overlapping_steps
    );
    assert_eq!(
        overlapping_steps, 0,
        "the character never ends a step inside the level"
    );
    println!(
        "events: begin {}, persist {}, end {}",
        s.begin, s.persist, s.end
    );
    println!(
        "last update: {} colliders, {} candidate pairs, {} filtered out, {} tested, {} touching",
        game.world.len(),
        stats.candidates,
        stats.filtered,
        stats.pairs_tested,
        stats.touching
    );
    println!(
        "most touching pairs: {} at frame {}; state hash {:016x}",
        busiest.1,
        busiest.0,
        game.world.state_hash()
    );
}
