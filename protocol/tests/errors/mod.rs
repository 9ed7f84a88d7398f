//! The error codes a client reads in docs/PROTOCOL.md are exactly those the code can send: the
//! table of section 8 and [`ErrorCode::ALL`] name the same set, both ways.

use std::collections::BTreeSet;
use std::path::PathBuf;

use burraco_protocol::ErrorCode;

/// The first column of section 8's table, in backticks: `` | `code` | meaning | ``.
fn documented_codes() -> BTreeSet<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/PROTOCOL.md");
    let text = std::fs::read_to_string(&path).expect("docs/PROTOCOL.md");
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("8. "))
        .expect("section 8 of docs/PROTOCOL.md");
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(code, _)| code.to_owned())
        .collect()
}

#[test]
fn the_documented_codes_are_the_enums_codes() {
    let documented = documented_codes();
    let coded: BTreeSet<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    let undocumented: Vec<_> = coded.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&coded).collect();
    assert!(
        undocumented.is_empty(),
        "codes missing from docs/PROTOCOL.md section 8: {undocumented:?}"
    );
    assert!(
        unknown.is_empty(),
        "codes in docs/PROTOCOL.md section 8 that ErrorCode lacks: {unknown:?}"
    );
    assert_eq!(
        documented.len(),
        ErrorCode::ALL.len(),
        "no code listed twice"
    );
}

#[test]
fn every_code_reads_back_from_its_text() {
    for code in documented_codes() {
        let parsed = ErrorCode::parse(&code).expect("a documented code");
        assert_eq!(parsed.as_str(), code);
    }
}
