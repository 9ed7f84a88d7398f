//! The server crate's layers (docs/ARCHITECTURE.md, "Layers"), read from its sources: which
//! top-level module of `server/src` imports which (any `crate::name` path in code, comments left
//! out; `lib.rs`, the composition root, and `main.rs` left out, as they may name everything).
//!
//! What holds today, and a change cannot undo by accident:
//! - the foundation imports nothing of the crate above it;
//! - the stores' engine (`store`), the hand records' routes (`hands_http`) and the server's bots
//!   (`bots`) import only the foundation;
//! - every module-level loop is inside the knot issue 33 is untying, never new members, and the
//!   knot's imports are counted: a change may cut them (and must lower the count here, so the
//!   figure stays true), never add one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The bottom layer: plain data and helpers every other layer may use.
const FOUNDATION: &[&str] = &[
    "ids", "port", "session", "rate", "config", "log", "outbound", "assets", "api_edge",
];

/// Modules above the foundation that may import only the foundation.
const ON_THE_FOUNDATION: &[&str] = &["store", "hands_http", "bots"];

/// The modules that still import each other around one circle (issue 33): no other module may
/// join it.
const KNOT: &[&str] = &[
    "accounts",
    "arena",
    "backplane",
    "directory",
    "fairplay",
    "lobby",
    "match_end",
    "moderation",
    "players",
    "ratings",
    "seasons",
    "table",
    "tournament",
];

/// The imports between the knot's modules today (issue 33 started at 76 among 15 modules).
const KNOT_IMPORTS: usize = 50;

type Imports = BTreeMap<String, BTreeMap<String, String>>;

/// Every top-level module's imports of other top-level modules, each with one file making it.
fn imports() -> (BTreeSet<String>, Imports) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeSet::new();
    let mut edges: Imports = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("server/src readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).expect("under src");
            let first = rel.components().next().expect("a component");
            let top = first.as_os_str().to_string_lossy();
            let top = top.strip_suffix(".rs").unwrap_or(&top).to_owned();
            if matches!(top.as_str(), "lib" | "main" | "bin") {
                continue;
            }
            modules.insert(top.clone());
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code: String = text
                .lines()
                .map(|line| line.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            for name in crate_paths(&code) {
                if name != top {
                    edges
                        .entry(top.clone())
                        .or_default()
                        .entry(name)
                        .or_insert_with(|| rel.to_string_lossy().into_owned());
                }
            }
        }
    }
    for targets in edges.values_mut() {
        targets.retain(|name, _| modules.contains(name));
    }
    (modules, edges)
}

/// The top-level names after `crate::`, and inside `crate::{a, b::c}`.
fn crate_paths(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    names.push(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    names
}

/// The groups of modules that reach each other (strongly connected, more than one module).
fn loops(modules: &BTreeSet<String>, edges: &Imports) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flat_map(|t| t.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        modules.iter().map(|m| (m, reach(m))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for m in modules {
        let group: BTreeSet<String> = modules
            .iter()
            .filter(|o| *o == m || (reaches[m].contains(*o) && reaches[*o].contains(m)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn the_sources_are_read_as_the_layers_expect() {
    let (modules, edges) = imports();
    // The reader finds what is plainly there: a reader that found nothing would pass everything.
    for (from, to) in [("table", "outbound"), ("lobby", "table"), ("conn", "table")] {
        assert!(
            edges.get(from).is_some_and(|t| t.contains_key(to)),
            "{from} -> {to} not found: {edges:?}"
        );
    }
    for name in FOUNDATION.iter().chain(ON_THE_FOUNDATION).chain(KNOT) {
        assert!(modules.contains(*name), "no module {name}: {modules:?}");
    }
    assert_eq!(
        crate_paths("use crate::{a, b::c};\nx = crate::d::e; notcrate::f"),
        ["a", "b", "d"]
    );
}

#[test]
fn the_foundation_and_the_modules_on_it_import_nothing_above() {
    let (_, edges) = imports();
    let mut crossings = Vec::new();
    for (layer, allowed) in [(FOUNDATION, FOUNDATION), (ON_THE_FOUNDATION, FOUNDATION)] {
        for module in layer {
            for (to, file) in edges.get(*module).into_iter().flatten() {
                if !allowed.contains(&to.as_str()) {
                    crossings.push(format!("{module} -> {to} ({file})"));
                }
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "imports up across the layers (docs/ARCHITECTURE.md, \"Layers\"): {crossings:#?}"
    );
}

#[test]
fn no_module_joins_the_knot_and_its_imports_only_fall() {
    let (modules, edges) = imports();
    let groups = loops(&modules, &edges);
    let knot: BTreeSet<String> = KNOT.iter().map(|m| m.to_string()).collect();
    for group in &groups {
        assert!(
            group.is_subset(&knot),
            "a loop outside the knot: {:?}",
            group.difference(&knot).collect::<Vec<_>>()
        );
    }
    let mut inside: Vec<String> = Vec::new();
    for group in &groups {
        for from in group {
            for (to, file) in edges.get(from).into_iter().flatten() {
                if group.contains(to) {
                    inside.push(format!("{from} -> {to} ({file})"));
                }
            }
        }
    }
    assert!(
        inside.len() <= KNOT_IMPORTS,
        "{} imports inside the knot, {KNOT_IMPORTS} before: one was added {inside:#?}",
        inside.len()
    );
    assert_eq!(
        inside.len(),
        KNOT_IMPORTS,
        "the knot lost imports: lower KNOT_IMPORTS to {} (and KNOT to the modules left in it)",
        inside.len()
    );
    let members: BTreeSet<String> = groups.into_iter().flatten().collect();
    assert_eq!(
        members, knot,
        "the knot's members changed: KNOT names what is left"
    );
}
