//! The `sepax` command line.
//!
//! - `sepax check SCENE`: which pairs of a scene file intersect (text or JSON, exit codes for
//!   scripts, optional explanations and picture).
//! - `sepax explain SCENE A B`: why two shapes touch or not, in words.
//! - `sepax demo`: a seeded room of moving shapes run through the whole pipeline, with timings.
//! - `sepax play SCENE`: a scene's frames run through the collision world, one line per begin or
//!   end event; `--trajectory [--swept]`: the frames as a robot trajectory, its first hit.
//! - `sepax fit MESH`: the bounding box of a mesh file by one of five methods.
//! - `sepax clash MODEL_OR_DIR`: which parts of a model touch, confirmed at triangle level.
//!
//! Exit status: 0 on success, 1 for `check --fail-on-hit` when a pair intersects (`clash
//! --fail-on-clash` when a pair clashes, `play --trajectory --fail-on-hit` when a frame hits), 3 when `check --max-pairs` stopped the output, 2 on bad
//! input or arguments, an option out of its range, or a failed write (one line `sepax: <message>`
//! on stderr, nothing half-written on stdout), 141 when standard output is a pipe that was closed
//! (no message; as a process ended by `SIGPIPE`). Results are written through one buffered
//! handle whose errors are checked, never with `println!`.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

mod check;
mod check_report;
mod clash;
mod demo;
mod demo_probe;
mod demo_report;
mod exec;
mod explain;
mod fit;
mod input;
mod output;
mod pairs;
mod play;
mod rigid;
mod scene_world;
mod trajectory;

use clap::{ArgAction, Parser, Subcommand};
use input::CliError;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Collision detection for scene files: check which shapes intersect, explain why two boxes
/// touch or not, run the moving-shapes demo.
#[derive(Debug, Parser)]
#[command(name = "sepax", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// Log what happens to stderr: -v for phases and counts, -vv for per-frame detail (RUST_LOG,
    /// when set, overrides).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the intersecting pairs of a scene file, one `idA idB` per line in file order.
    ///
    /// Exit status: 0 on success whatever was found, 1 with --fail-on-hit when any pair
    /// intersects, 3 when --max-pairs stopped the output, 2 on bad input (message on stderr,
    /// nothing on stdout) or on an error found while pairs stream out (the output then ends
    /// before the failing pair), 141 when stdout is a closed pipe.
    Check(check::CheckArgs),
    /// Explain in words why two shapes of a scene intersect or not (the separating-axis witness
    /// for box pairs).
    Explain(explain::ExplainArgs),
    /// Run a seeded room of moving boxes, spheres and capsules through the broad and narrow
    /// phases, print per-phase statistics and write an SVG of the last frame.
    Demo(demo::DemoArgs),
    /// Run a scene's `frames` through the collision world: one line per begin or end event
    /// (`frame K begin A B`), then a summary.
    Play(play::PlayArgs),
    /// Fit a bounding box to a mesh file (OBJ, STL, PLY, glTF): print the box, its volume and its
    /// ratio to the AABB and to the exact minimum.
    Fit(fit::FitArgs),
    /// Find the parts of a model (or a folder of meshes) that touch or interpenetrate: a box per
    /// part, broad phase, OBB test, then triangle-level confirmation; optional SVG picture.
    ///
    /// Exit status: 0 on success whatever was found, 1 with --fail-on-clash when a pair clashes,
    /// 2 on bad input.
    Clash(clash::ClashArgs),
}

fn init_tracing(verbose: u8) {
    use tracing_subscriber::fmt::format::FmtSpan;
    use tracing_subscriber::EnvFilter;
    if verbose == 0 && std::env::var_os("RUST_LOG").is_none() {
        return;
    }
    let level = match verbose {
        0 | 1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    // A second initialisation cannot happen here; ignore the error rather than panic.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_span_events(FmtSpan::CLOSE)
        .with_target(false)
        .try_init();
}

/// Parses the arguments. Help and version go to stdout with exit 0; any other argument error is
/// one line `sepax: <what is wrong>` on stderr with exit status 2 (clap's own message, without
/// its usage lines).
fn parse() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    use std::io::Write;
    Cli::try_parse().map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let mut out = std::io::stdout().lock();
            let written = write!(out, "{}", e.render()).and_then(|()| out.flush());
            match written {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    let _ = writeln!(std::io::stderr(), "sepax: {}", output::stdout_error(&w));
                    ExitCode::from(input::EXIT_BAD_INPUT)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        _ => {
            let text = e.render().to_string();
            let line = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("bad arguments");
            let line = line.strip_prefix("error: ").unwrap_or(line);
            let _ = writeln!(std::io::stderr(), "sepax: {}", CliError::new(line));
            ExitCode::from(input::EXIT_BAD_INPUT)
        }
    })
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    init_tracing(cli.verbose);
    let result = match &cli.command {
        Command::Check(args) => check::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Play(args) => play::run(args),
        Command::Fit(args) => fit::run(args),
        Command::Clash(args) => clash::run(args),
    };
    match result {
        Ok(code) => code,
        Err(CliError {
            quiet_exit: Some(status),
            ..
        }) => ExitCode::from(status),
        Err(e) => {
            use std::io::Write;
            // A closed stderr is not worth a panic: the exit status still tells.
            let _ = writeln!(std::io::stderr(), "sepax: {e}");
            ExitCode::from(input::EXIT_BAD_INPUT)
        }
    }
}
