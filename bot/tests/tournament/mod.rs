//! `burraco-bot tournament` (the binary) against a real server started in-process: it creates a
//! tournament (duplicate boards), registers its bot entrants, plays it to its end and writes the
//! JSON summary.

use crate::common::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tournament_command_plays_an_event_and_writes_its_standings() {
    let server = TestServer::start(|_| {}).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("summary.json");
    let status = tokio::process::Command::new(env!("CARGO_BIN_EXE_burraco-bot"))
        .args(["tournament", "--url"])
        .arg(format!("ws://{}/ws", server.addr))
        .args([
            "--entrants",
            "4",
            "--kind",
            "pairs",
            "--rounds",
            "mitchell,danish",
        ])
        .args([
            "--hands",
            "1",
            "--preset",
            "fedibur",
            "--strategy",
            "random",
            "--timeout",
            "60",
        ])
        .arg("--duplicate")
        .arg("--json")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .status()
        .await
        .expect("burraco-bot runs");
    assert!(status.success());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("summary")).expect("json");
    assert!(
        summary["tournament"]
            .as_str()
            .is_some_and(|t| t.starts_with("T-"))
    );
    let standings = summary["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 4);
    let ranks: Vec<u64> = standings
        .iter()
        .map(|s| s["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
    // Two rounds of two matches, each match's VP summing to 20: the field's total is 4 x 20.
    let total: i64 = standings.iter().map(|s| s["vp"].as_i64().unwrap()).sum();
    assert_eq!(total, 80);
    server.stop().await;
}
