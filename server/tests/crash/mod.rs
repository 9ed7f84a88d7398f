use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use burraco_protocol::record::HandRecord;
use burraco_protocol::wire::{ClientMessage, ServerMessage};

use crate::common::*;

/// The server's process, killed when dropped: a test that fails while it runs must not leave it
/// holding the test's output open (cargo would wait for it for ever).
pub struct ServerProcess(pub Child);

impl std::ops::Deref for ServerProcess {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for ServerProcess {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(data: &std::path::Path) -> (ServerProcess, SocketAddr) {
    start_with(data, &[])
}

/// The real binary on `data`, with extra flags; returns it and the address it listens on.
pub fn start_with(data: &std::path::Path, flags: &[&str]) -> (ServerProcess, SocketAddr) {
    start_with_env(data, flags, &[])
}

/// [`start_with`], with extra environment variables (the hidden test settings).
pub fn start_with_env(
    data: &std::path::Path,
    flags: &[&str],
    env: &[(&str, &str)],
) -> (ServerProcess, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(flags)
        .envs(env.iter().copied())
        .env(
            "BURRACO_INSECURE_FIXED_SEED",
            burraco_rules::Seed(SEED).to_hex(),
        )
        .env("BURRACO_NEXT_HAND_DELAY_SECS", "0")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut line).expect("a first line");
    // The server logs to stdout after that line: keep reading it, or its writes would fail.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .expect("listening line")
        .parse()
        .expect("address");
    (ServerProcess(child), addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_hand_then_restart_resumes_with_nothing_lost() {
    let data = tempfile::tempdir().expect("temp dir");
    let (mut child, addr) = start(data.path());
    let mut table = Table::open_at(
        addr,
        settings("fitab", 2, Some(1), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut mirror = table.next_hand().await;
    for step in 0..17 {
        if step == 16 {
            // Time into the hand, so the last move before the crash has a late `at_ms`.
            tokio::time::sleep(std::time::Duration::from_millis(700)).await;
        }
        table.step(&mut mirror).await;
    }
    let tokens: Vec<_> = table
        .clients
        .iter()
        .map(|(s, c)| (*s, c.name.clone(), c.session.clone()))
        .collect();

    // kill -9: every move acknowledged above must survive.
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let (mut child, addr) = start(data.path());
    for (seat, name, token) in tokens {
        let (mut c, welcome) = Client::connect(addr, &name, Some(&token)).await;
        let ServerMessage::Welcome { resumed, seats, .. } = welcome else {
            unreachable!()
        };
        assert!(resumed, "the session survived the crash");
        assert_eq!(seats.len(), 1);
        let id = table.id.clone();
        let old = table.client(seat).seqs().into_iter().max().unwrap_or(0);
        c.ok(|i| ClientMessage::Sync {
            id: i,
            table: id,
            last_seq: old,
        })
        .await;
        let snapshot = c.inbox.iter().find_map(|m| match m {
            ServerMessage::Snapshot { view, seq, .. } => Some((view.clone(), *seq)),
            _ => None,
        });
        let (view, seq) = snapshot.expect("after a restart: a snapshot");
        assert!(
            seq > old,
            "numbering continues past everything seen before the crash"
        );
        let hand = view.hand.expect("the hand in play");
        let mut own = hand.hand.expect("own cards");
        let mut want = mirror.game.hand(seat).to_vec();
        own.sort();
        want.sort();
        assert_eq!(own, want, "{seat}'s hand");
        assert_eq!(hand.pile, mirror.game.pile());
        assert_eq!(usize::from(hand.tallone), mirror.game.tallone_len());
        assert_eq!(hand.melds.len(), mirror.game.melds().len());
        assert_eq!(hand.on_turn.0, mirror.game.on_turn());
        table.replace(seat, c);
    }
    // Play on to the end; the record of the whole hand replays.
    table.play_hand(&mut mirror, NoCheck).await;
    let c = &mut table.clients[0].1;
    let record = c
        .wait(|m| matches!(m, ServerMessage::HandRecord { .. }))
        .await;
    let ServerMessage::HandRecord { record, .. } = record else {
        unreachable!()
    };
    let record = HandRecord::from_json(&record).expect("record");
    assert!(
        record
            .replay()
            .expect("replays")
            .matches(record.outcome.as_ref().expect("outcome"))
    );
    assert!(record.inputs.len() > 17);
    let times: Vec<u64> = record
        .inputs
        .iter()
        .map(|i| i.at_ms.expect("a time"))
        .collect();
    assert!(
        times.is_sorted(),
        "the hand's clock goes on from its last move after a restart: {times:?}"
    );

    // SIGTERM: a graceful stop says goodbye.
    let c = &mut table.clients[0].1;
    c.barrier().await;
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let bye = c.wait(|m| matches!(m, ServerMessage::Goodbye { .. })).await;
    assert!(matches!(bye, ServerMessage::Goodbye { .. }));
    let exit = child.wait().expect("exits");
    assert!(exit.success(), "{exit:?}");
}
