//! `burraco fairplay`: the fair-play detectors over hand record files.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use burraco_fairplay::{Analysis, PlayerReport};
use burraco_protocol::record::HandRecord;
use serde_json::{Value, json};

pub fn run(
    paths: &[PathBuf],
    top: usize,
    player: Option<&str>,
    threshold: f64,
    as_json: bool,
) -> anyhow::Result<ExitCode> {
    let mut analysis = Analysis::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path.display().to_string();
        let records: Vec<HandRecord> = if text.trim_start().starts_with('[') {
            serde_json::from_str(&text)
                .with_context(|| format!("{name} is not an array of hand records"))?
        } else {
            vec![
                HandRecord::from_json(&text)
                    .with_context(|| format!("{name} is not a hand record"))?,
            ]
        };
        let many = records.len() > 1;
        for (i, record) in records.iter().enumerate() {
            let label = if many {
                format!("{name}#{i}")
            } else {
                name.clone()
            };
            analysis
                .add(&label, record)
                .with_context(|| format!("{label} does not replay"))?;
        }
    }
    let reports: Vec<PlayerReport> = match player {
        Some(name) => match analysis.player(name, top) {
            Some(r) => vec![r],
            None => bail!("no record seats a player named {name:?}"),
        },
        None => analysis.report(top),
    };
    let flagged = reports.iter().any(|r| r.suspicion() > threshold);
    if as_json {
        let out: Vec<Value> = reports.iter().map(|r| to_json(r, threshold)).collect();
        println!("{}", Value::Array(out));
    } else {
        for r in &reports {
            print_text(r, threshold);
        }
    }
    Ok(if flagged {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn to_json(r: &PlayerReport, threshold: f64) -> Value {
    json!({
        "player": r.player,
        "hands": r.hands,
        "suspicion": r.suspicion(),
        "flagged": r.suspicion() > threshold,
        "detectors": r.scores.iter().map(|s| json!({
            "detector": s.detector.code(),
            "meaning": s.detector.meaning(),
            "z": s.z,
            "observations": s.count,
            "observed": s.observed,
            "expected": s.expected,
            "top_hands": s.top_hands.iter().map(|(label, excess)| json!({"hand": label, "excess": excess})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn print_text(r: &PlayerReport, threshold: f64) {
    let flag = if r.suspicion() > threshold {
        "  FLAGGED"
    } else {
        ""
    };
    println!(
        "{}: {} hands, suspicion {:.2}{flag}",
        r.player,
        r.hands,
        r.suspicion()
    );
    for s in &r.scores {
        println!(
            "  {:<20} z {:+6.2}  {:+7.1} beyond fair play's expectation over {} observations ({})",
            s.detector.code(),
            s.z,
            s.observed - s.expected,
            s.count,
            s.detector.meaning()
        );
        for (label, excess) in s.top_hands.iter().filter(|(_, e)| *e > 0.0) {
            println!("      {excess:+6.2}  {label}");
        }
    }
}
