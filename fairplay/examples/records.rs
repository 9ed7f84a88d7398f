//! Writes one table's hand records, as a JSON array, for trying `burraco fairplay`:
//!
//! cargo run -p burraco-fairplay --example records -- <sees-partner|sees-next-opponent|signals|honest> <hands> <out.json>
//!
//! North is the cheater (North and South for `signals`); the other seats are L2.

#[path = "../tests/harness/mod.rs"]
mod harness;

use burraco_bot::cheat::Cheat;
use burraco_bot::{Level, SearchBudget};
use burraco_protocol::record::HandRecord;
use harness::Role;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(hands), Some(out)) = (
        args.get(1),
        args.get(2).and_then(|h| h.parse::<usize>().ok()),
        args.get(3),
    ) else {
        eprintln!(
            "usage: records <sees-partner|sees-next-opponent|signals|honest> <hands> <out.json>"
        );
        std::process::exit(2);
    };
    let l2 = Role::Honest(Level::Expert);
    let north = match kind.as_str() {
        "honest" => l2,
        code => match Cheat::ALL.into_iter().find(|c| c.code() == code) {
            Some(c) => Role::Cheat(c),
            None => {
                eprintln!("unknown kind {code}");
                std::process::exit(2);
            }
        },
    };
    let south = if north == Role::Cheat(Cheat::Signals) {
        north
    } else {
        l2
    };
    let records: Vec<HandRecord> = harness::play_table(
        &[north, l2, south, l2],
        0,
        hands,
        7,
        SearchBudget::default(),
    );
    let json = serde_json::to_string(&records).expect("records serialize");
    std::fs::write(out, json).expect("write the records");
    eprintln!("{hands} records written to {out}");
}
