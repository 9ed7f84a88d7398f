//! Writes one table's hand records, as a JSON array, for trying `burraco fairplay`:
//!
//! cargo run -p burraco-fairplay --example records -- <cheat|honest> <hands> <out.json>
//!
//! The cheats: sees-partner, sees-next-opponent, signals, denies-pile, melds-for-partner,
//! rank-signals, timing-tell. North is the cheater (North and South for a signalling pair); the
//! other seats are L2.

#[path = "../tests/harness/mod.rs"]
mod harness;

use burraco_bot::cheat::Cheat;
use burraco_protocol::record::HandRecord;
use harness::{Budgets, L2, Role};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(hands), Some(out)) = (
        args.get(1),
        args.get(2).and_then(|h| h.parse::<usize>().ok()),
        args.get(3),
    ) else {
        let cheats: Vec<&str> = Cheat::ALL.iter().map(|c| c.code()).collect();
        eprintln!(
            "usage: records <{}|honest> <hands> <out.json>",
            cheats.join("|")
        );
        std::process::exit(2);
    };
    let north = match kind.as_str() {
        "honest" => L2,
        code => match Cheat::from_code(code) {
            Some(c) => Role::Cheat(c),
            None => {
                eprintln!("unknown kind {code}");
                std::process::exit(2);
            }
        },
    };
    let south = match north {
        Role::Cheat(c) if c.is_pair() => north,
        _ => L2,
    };
    let records: Vec<HandRecord> =
        harness::play_table(&[north, L2, south, L2], 0, hands, 7, Budgets::SMALL);
    let json = serde_json::to_string(&records).expect("records serialize");
    std::fs::write(out, json).expect("write the records");
    eprintln!("{hands} records written to {out}");
}
