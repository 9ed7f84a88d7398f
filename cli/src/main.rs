//! `burraco`: the command-line tools a player or an arbiter needs to check a hand.
//!
//! - `burraco deal --seed <64 hex> [--players 4|2] [--dealer N|E|S|W]`: the deal of a seed
//!   (RULES.md section 3), as JSON.
//! - `burraco replay <record.json>`: replays a hand record (docs/HAND_RECORD.md) and prints its
//!   outcome, or the input the rules refused, as JSON.
//! - `burraco verify --seed <64 hex> --commitment <64 hex>`: checks a revealed seed against the
//!   commitment published before the hand.
//! - `burraco fairplay <records...> [--top N] [--player NAME] [--json]`: runs the fair-play
//!   detectors (docs/FAIR_PLAY.md) over hand records and prints each player's scores and the
//!   hands behind them.
//!
//! Exit codes: 0 success; 1 the record holds a refused input, its recorded outcome is not what
//! the replay gives, the seed does not match the commitment, or (`fairplay`) a player scores
//! above the threshold; 2 bad arguments or a malformed input file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use burraco_protocol::record::{HandRecord, ReplayError};
use burraco_rules::{Card, Deal, Players, Seat, Seed, Side, shuffled_deck};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};

mod fairplay;

#[derive(Debug, Parser)]
#[command(
    name = "burraco",
    version,
    about = "Check Burraco deals and hand records"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the deal of a seed as JSON: hands in dealing order, pozzetti, up card, tallone.
    Deal {
        /// The 32-byte seed, 64 hex digits.
        #[arg(long, value_parser = parse_seed)]
        seed: Seed,
        /// 4 (two partnerships) or 2 (head to head).
        #[arg(long, default_value = "4", value_parser = parse_players)]
        players: Players,
        /// The dealer's seat; the first hand goes to the player on its left.
        #[arg(long, default_value = "N", value_parser = parse_seat)]
        dealer: Seat,
    },
    /// Replay a hand record and print its outcome (or the refused input) as JSON.
    Replay {
        /// The hand record, a JSON file (`-` reads standard input).
        record: PathBuf,
    },
    /// Check a revealed seed against its published commitment, SHA-256 of the seed.
    Verify {
        /// The seed, 64 hex digits.
        #[arg(long, value_parser = parse_seed)]
        seed: Seed,
        /// The commitment published before the hand, 64 hex digits.
        #[arg(long, value_parser = parse_hex32)]
        commitment: [u8; 32],
    },
    /// Score every player of a set of hand records with the fair-play detectors.
    Fairplay {
        /// Hand records: each file one record, or a JSON array of records.
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// Hands to list behind each score.
        #[arg(long, default_value = "3")]
        top: usize,
        /// Only this player (a seat name in the records).
        #[arg(long)]
        player: Option<String>,
        #[arg(long, help = fairplay::threshold_help())]
        threshold: Option<f64>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn parse_seed(text: &str) -> Result<Seed, String> {
    Seed::from_hex(text.trim()).ok_or_else(|| "expected 64 hex digits".to_owned())
}

fn parse_hex32(text: &str) -> Result<[u8; 32], String> {
    parse_seed(text).map(|s| s.0)
}

fn parse_players(text: &str) -> Result<Players, String> {
    match text {
        "4" => Ok(Players::Four),
        "2" => Ok(Players::Two),
        _ => Err("expected 4 or 2".to_owned()),
    }
}

fn parse_seat(text: &str) -> Result<Seat, String> {
    Seat::from_code(text).ok_or_else(|| "expected N, E, S or W".to_owned())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Deal {
            seed,
            players,
            dealer,
        } => deal(seed, players, dealer),
        Command::Replay { record } => replay(&record),
        Command::Verify { seed, commitment } => Ok(verify(seed, commitment)),
        Command::Fairplay {
            records,
            top,
            player,
            threshold,
            json,
        } => fairplay::run(&records, top, player.as_deref(), threshold, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn codes(cards: &[Card]) -> Value {
    cards.iter().map(|c| c.to_string()).collect()
}

fn deal(seed: Seed, players: Players, dealer: Seat) -> anyhow::Result<ExitCode> {
    if !players.is_seated(dealer) {
        bail!("the dealer {dealer} is not seated: head to head the seats are S and N");
    }
    let deal = Deal::from_deck(&shuffled_deck(&seed), players);
    // `hands` are plain arrays in dealing order (the format); `seats` says whose each is.
    let hands: Vec<Value> = deal.hands.iter().map(|cards| codes(cards)).collect();
    let seats: Vec<&str> = (0..deal.hands.len())
        .map(|i| Deal::seat_of_hand(players, dealer, i).code())
        .collect();
    let out = json!({
        "seed": seed.to_hex(),
        "commitment": seed.commitment_hex(),
        "players": players.count(),
        "dealer": dealer.code(),
        "seats": seats,
        "hands": hands,
        "pozzetti": [codes(&deal.pozzetti[0]), codes(&deal.pozzetti[1])],
        "discard": deal.discard.to_string(),
        "tallone": codes(&deal.tallone),
    });
    println!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn read_record(path: &Path) -> anyhow::Result<HandRecord> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    HandRecord::from_json(&text).with_context(|| format!("{} is not a hand record", path.display()))
}

fn replay(path: &Path) -> anyhow::Result<ExitCode> {
    let record = read_record(path)?;
    let replayed = match record.replay() {
        Ok(replayed) => replayed,
        Err(e) => return Ok(refused(path, &e)),
    };
    let players = replayed.game.players();
    let mut out = json!({
        "ok": true,
        "inputs": record.inputs.len(),
        "end": replayed.end.map(|e| e.code()),
        "score": null,
        "breakdown": null,
    });
    if let Some(outcome) = replayed.outcome() {
        let mut totals = serde_json::Map::new();
        let mut breakdown = serde_json::Map::new();
        for side in Side::BOTH {
            let label = players.side_label(side);
            let score = outcome.side(label).expect("an outcome scores both sides");
            totals.insert(label.to_owned(), score.total.into());
            let mut items = serde_json::to_value(score).expect("a score serializes");
            if let Value::Object(items) = &mut items {
                items.remove("side");
            }
            breakdown.insert(label.to_owned(), items);
        }
        out["score"] = totals.into();
        out["breakdown"] = breakdown.into();
        if let Some(seat) = outcome.closed_by {
            out["closed_by"] = seat.code().into();
        }
        out["hands"] = serde_json::to_value(&outcome.hands).expect("hands serialize");
    }
    if let Some(claimed) = &record.outcome
        && !replayed.matches(claimed)
    {
        out["ok"] = false.into();
        out["action_index"] = Value::Null;
        out["error"] = "outcome_mismatch".into();
        out["message"] = "the record's outcome is not what replaying its inputs gives".into();
        println!("{out}");
        return Ok(ExitCode::from(1));
    }
    println!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// Prints a replay error; exit 1 for an input the rules refused, 2 for a malformed record.
fn refused(path: &Path, error: &ReplayError) -> ExitCode {
    let out = json!({
        "ok": false,
        "action_index": error.action_index(),
        "error": error.code(),
        "message": error.to_string(),
    });
    println!("{out}");
    if error.is_malformed() {
        eprintln!("error: {} is malformed: {error}", path.display());
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

fn verify(seed: Seed, commitment: [u8; 32]) -> ExitCode {
    let computed = seed.commitment();
    let ok = computed == commitment;
    let out = json!({
        "ok": ok,
        "commitment": seed.commitment_hex(),
    });
    println!("{out}");
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "the seed does not match the commitment: SHA-256 of the seed is {}",
            seed.commitment_hex()
        );
        ExitCode::from(1)
    }
}
