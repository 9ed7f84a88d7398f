//! A run's samples in a text file, one table at a time, so a long run can stop anywhere and
//! resume: the plan's header line, then per table one tab-separated line per sample and an `end`
//! line. A table whose `end` never came (the run stopped while writing it) is dropped on load and
//! played again. Scores are written in Rust's shortest round-trip form, so a loaded sample is the
//! played one, bit for bit.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use burraco_fairplay::Detector;
use burraco_rules::Seat;

use super::population::{Job, Plan, Population};
use super::{Role, Sample};

/// One table's samples, as played.
#[derive(Debug, Clone, PartialEq)]
pub struct TableResult {
    pub job: Job,
    pub samples: Vec<Sample>,
    /// How long the table took to play and score (wall clock, on a shared machine).
    pub secs: f64,
}

impl TableResult {
    /// The table's lines, `end` included.
    pub fn to_text(&self) -> String {
        let pop = self.job.population.code();
        let index = self.job.index;
        let mut out = String::new();
        for s in &self.samples {
            let z: Vec<String> = s.z.iter().map(f64::to_string).collect();
            out.push_str(&format!(
                "{pop}\t{index}\t{}\t{}\t{}\t{}\t{}\n",
                s.seat.code(),
                s.role.label(),
                s.hands,
                s.suspicion,
                z.join("\t")
            ));
        }
        out.push_str(&format!("end\t{pop}\t{index}\t{:.3}\n", self.secs));
        out
    }
}

fn parse_sample(line: &str) -> Option<(Job, Sample)> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 6 + Detector::ALL.len() {
        return None;
    }
    let job = Job {
        population: Population::from_code(f[0])?,
        index: f[1].parse().ok()?,
    };
    let seat = Seat::ALL.into_iter().find(|s| s.code() == f[2])?;
    let mut z = [0.0; Detector::ALL.len()];
    for (slot, text) in z.iter_mut().zip(&f[6..]) {
        *slot = text.parse().ok()?;
    }
    Some((
        job,
        Sample {
            role: Role::from_label(f[3])?,
            seat,
            hands: f[4].parse().ok()?,
            suspicion: f[5].parse().ok()?,
            z,
        },
    ))
}

/// The complete tables of a results file's text, in job order. An error when the text is
/// another plan's.
pub fn parse(text: &str, plan: &Plan) -> Result<Vec<TableResult>, String> {
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if h == plan.header() => {}
        Some(h) => return Err(format!("the results are another plan's: {h}")),
    }
    let per_table = 4 * plan.checkpoints.len();
    let mut pending: BTreeMap<Job, Vec<Sample>> = BTreeMap::new();
    let mut done: BTreeMap<Job, TableResult> = BTreeMap::new();
    for line in lines {
        if let Some(rest) = line.strip_prefix("end\t") {
            let f: Vec<&str> = rest.split('\t').collect();
            let job = (f.len() == 3)
                .then(|| {
                    Some(Job {
                        population: Population::from_code(f[0])?,
                        index: f[1].parse().ok()?,
                    })
                })
                .flatten();
            let Some(job) = job else { continue };
            let samples = pending.remove(&job).unwrap_or_default();
            if samples.len() == per_table && !done.contains_key(&job) {
                let secs = f[2].parse().unwrap_or(0.0);
                done.insert(job, TableResult { job, samples, secs });
            }
        } else if let Some((job, sample)) = parse_sample(line) {
            pending.entry(job).or_default().push(sample);
        } else {
            // A line cut short by a stop: the table it belongs to has no `end` yet, or its block
            // is now short; either way it is played again.
            pending.clear();
        }
    }
    Ok(done.into_values().collect())
}

/// The complete tables in `path` (none when it does not exist yet).
pub fn load(path: &Path, plan: &Plan) -> Result<Vec<TableResult>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, plan),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Rewrites `path` with its complete tables only (dropping a table cut short), and returns them:
/// what a resumed run starts from.
pub fn compact(path: &Path, plan: &Plan) -> Result<Vec<TableResult>, String> {
    let tables = load(path, plan)?;
    let mut text = format!("{}\n", plan.header());
    for t in &tables {
        text.push_str(&t.to_text());
    }
    let tmp = path.with_extension("compacting");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
    Ok(tables)
}

/// Appends one table's lines in a single write.
pub fn append(path: &Path, table: &TableResult) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| {
            f.write_all(table.to_text().as_bytes())
                .and_then(|()| f.flush())
        })
        .map_err(|e| format!("cannot append to {}: {e}", path.display()))
}
