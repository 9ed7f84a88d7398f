//! The scope table of docs/ACCOUNTS.md ("Personal tokens") against the server: every request of
//! the protocol (one of each: the protocol's golden examples, one file per client message) is
//! listed in exactly one row, the row of the scope `accounts::identity::required_scope` asks of
//! it (or "none").

use std::collections::BTreeMap;
use std::path::Path;

use burraco_protocol::codec;
use burraco_protocol::wire::ClientMessage;
use burraco_server::accounts::identity::required_scope;

/// The table's rows: the first column's scope (`"none"` for the row of requests anyone may
/// make) and every `code` the row names.
fn scope_rows(doc: &str) -> BTreeMap<String, Vec<String>> {
    let start = doc
        .find("| scope | lets the token |")
        .expect("the scope table");
    let mut rows = BTreeMap::new();
    for line in doc[start..].lines().skip(2) {
        let Some(line) = line.strip_prefix('|') else {
            break;
        };
        let mut cells = line.splitn(2, '|');
        let scope = cells.next().unwrap_or_default().trim().trim_matches('`');
        let named = cells
            .next()
            .unwrap_or_default()
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        rows.insert(scope.to_owned(), named);
    }
    rows
}

#[test]
fn every_request_is_in_the_row_of_the_scope_it_needs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("docs/ACCOUNTS.md")).expect("docs/ACCOUNTS.md");
    let rows = scope_rows(&doc);
    assert!(
        rows.contains_key("play") && rows.contains_key("none"),
        "{rows:?}"
    );
    let golden = root.join("protocol/tests/golden/client");
    let mut checked = 0;
    for file in std::fs::read_dir(&golden).expect("the golden requests") {
        let path = file.expect("a file").path();
        let json = std::fs::read_to_string(&path).expect("readable");
        let request = codec::from_json::<ClientMessage>(&json, usize::MAX)
            .result
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let kind = request.kind();
        let needs = required_scope(&request).map_or("none", |s| s.as_str());
        let listed: Vec<&String> = rows
            .iter()
            .filter(|(_, named)| named.iter().any(|n| n == kind))
            .map(|(scope, _)| scope)
            .collect();
        assert_eq!(
            listed,
            vec![needs],
            "`{kind}` needs {needs}; the table lists it under {listed:?}"
        );
        checked += 1;
    }
    assert!(checked >= 50, "{checked} requests");
}
