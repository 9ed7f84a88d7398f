//! `burraco fairplay`: the fair-play detectors over hand record files.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use burraco_fairplay::calibration::{
    FALSE_ALARM_RATE, ONE_PERCENT, below_calibration, beyond_calibration, threshold_for,
};
use burraco_fairplay::{Analysis, PlayerReport};
use burraco_protocol::record::HandRecord;
use serde_json::{Value, json};

/// `--threshold`'s help, from the measured thresholds themselves.
pub fn threshold_help() -> String {
    let measured: Vec<String> = ONE_PERCENT
        .iter()
        .map(|t| format!("{} hands {:.2}", t.hands, t.suspicion))
        .collect();
    let fewest = ONE_PERCENT.first().map_or(0, |t| t.hands);
    let most = ONE_PERCENT.last().map_or(0, |t| t.hands);
    format!(
        "Flag (and exit 1) when a player's suspicion passes this. By default, the threshold that \
         {}% of honest players pass, measured for the player's number of hands: {}; between two, \
         the larger; below {fewest} hands, {fewest}'s, and past {most} hands, {most}'s, though \
         not measured there (docs/FAIR_PLAY.md)",
        FALSE_ALARM_RATE * 100.0,
        measured.join(", ")
    )
}

/// The threshold a player is flagged above: `--threshold`, or the measured one for its hands.
fn limit(r: &PlayerReport, threshold: Option<f64>) -> f64 {
    threshold.unwrap_or_else(|| threshold_for(r.hands))
}

pub fn run(
    paths: &[PathBuf],
    top: usize,
    player: Option<&str>,
    threshold: Option<f64>,
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
    let flagged = reports.iter().any(|r| r.suspicion() > limit(r, threshold));
    let mut out = io::stdout().lock();
    match write_reports(&mut out, &reports, threshold, as_json).and_then(|()| out.flush()) {
        Ok(()) => {}
        // A reader that stops early (`| head`) is not an error: the verdict still stands.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e).context("cannot write the report"),
    }
    Ok(if flagged {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn write_reports(
    out: &mut impl Write,
    reports: &[PlayerReport],
    threshold: Option<f64>,
    as_json: bool,
) -> io::Result<()> {
    if as_json {
        let all: Vec<Value> = reports
            .iter()
            .map(|r| to_json(r, limit(r, threshold)))
            .collect();
        writeln!(out, "{}", Value::Array(all))
    } else {
        reports
            .iter()
            .try_for_each(|r| write_text(out, r, limit(r, threshold), threshold.is_none()))
    }
}

fn to_json(r: &PlayerReport, threshold: f64) -> Value {
    json!({
        "player": r.player,
        "hands": r.hands,
        "suspicion": r.suspicion(),
        "threshold": threshold,
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

fn write_text(
    out: &mut impl Write,
    r: &PlayerReport,
    threshold: f64,
    measured: bool,
) -> io::Result<()> {
    let flag = if r.suspicion() > threshold {
        "  FLAGGED"
    } else {
        ""
    };
    let which = if !measured {
        "given"
    } else if below_calibration(r.hands) {
        "1% measured for more hands"
    } else if beyond_calibration(r.hands) {
        "1% measured for fewer hands"
    } else {
        "1% measured"
    };
    writeln!(
        out,
        "{}: {} hands, suspicion {:.2} (threshold {threshold:.2}, {which}){flag}",
        r.player,
        r.hands,
        r.suspicion()
    )?;
    for s in &r.scores {
        writeln!(
            out,
            "  {:<20} z {:+6.2}  {:+7.1} beyond fair play's expectation over {} observations ({})",
            s.detector.code(),
            s.z,
            s.observed - s.expected,
            s.count,
            s.detector.meaning()
        )?;
        for (label, excess) in s.top_hands.iter().filter(|(_, e)| *e > 0.0) {
            writeln!(out, "      {excess:+6.2}  {label}")?;
        }
    }
    Ok(())
}
