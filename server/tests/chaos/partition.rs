//! A node cut off from NATS, and so from its peers (they talk through NATS only), while it
//! serves tables that are being played: it must step down within its lease, the others must
//! take its tables over and finish them, and nothing it still had on the way (appends, lease
//! renewals, listings, held in socket buffers through the partition and sent when it heals) may
//! fork a table. Its players keep their connections to it all along, so it keeps being asked to
//! write: the strongest attempt at a fork a partition makes.
//!
//! The partition is a loopback TCP proxy between the node and the NATS server that stops
//! forwarding (a blackhole: no reset, no close, bytes wait in the kernel's buffers, as a network
//! that drops everything does until TCP gives up), rather than network namespaces: it needs no
//! privileges, so it runs wherever the other cluster tests run, and the node's clients still
//! reach it.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::*;

/// Tables played at once, every one served by the node that is cut off.
const TABLES: usize = 6;
/// How long an undisturbed hand would take.
const PLAY: Duration = Duration::from_secs(25);
/// From the start of play until the cut, and how long the cut lasts (over three leases).
const CUT_AFTER: Duration = Duration::from_secs(6);
const CUT_FOR: Duration = Duration::from_secs(10);
/// The nodes' lease, and how long after the cut the other nodes may take to serve every table:
/// the lease (the cut node's last renewal may be up to a third of one before the cut) and the
/// takeover.
const LEASE: Duration = Duration::from_secs(3);
const TAKEN_OVER_WITHIN: Duration = Duration::from_secs(8);
/// From the start of play: every table must have finished by then.
const FINISH_WITHIN: Duration = Duration::from_secs(55);

/// A TCP proxy on loopback in front of one address; [`Proxy::cut`] stops it forwarding anything,
/// either way, on every connection (and on the ones made during the cut) until [`Proxy::heal`].
struct Proxy {
    port: u16,
    cut: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    fn start(to: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a proxy port");
        let port = listener.local_addr().expect("address").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let cut = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (cut_, stop_) = (cut.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop_.load(Ordering::Relaxed) {
                let client = match listener.accept() {
                    Ok((client, _)) => client,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    }
                    Err(_) => return,
                };
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                for (from, to) in [
                    (
                        client.try_clone().expect("clone"),
                        server.try_clone().expect("clone"),
                    ),
                    (server, client),
                ] {
                    let (cut, stop) = (cut_.clone(), stop_.clone());
                    std::thread::spawn(move || pump(from, to, &cut, &stop));
                }
            }
        });
        Proxy { port, cut, stop }
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
    }

    fn heal(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Copies `from` to `to` while not cut; reads nothing while cut (what was sent waits in the
/// buffers).
fn pump(mut from: TcpStream, mut to: TcpStream, cut: &AtomicBool, stop: &AtomicBool) {
    from.set_read_timeout(Some(Duration::from_millis(20)))
        .expect("a read timeout");
    let mut buf = vec![0u8; 64 * 1024];
    while !stop.load(Ordering::Relaxed) {
        if cut.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    let _ = to.shutdown(Shutdown::Both);
}

/// The tables a node serves, from its `/metrics` (`None` if it does not answer).
async fn served_by(addr: SocketAddr) -> Option<u64> {
    let (status, body) =
        tokio::time::timeout(Duration::from_secs(2), try_http_get(addr, "/metrics"))
            .await
            .ok()?
            .ok()?;
    (status == 200).then_some(())?;
    body.lines()
        .find_map(|l| l.strip_prefix("burraco_tables "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
}

/// Every message the log stream stored after `after`, by a writer whose message ids start with
/// `writer`: (stream sequence, subject).
async fn written_by(nats: &Nats, writer: &str, after: u64) -> Vec<(u64, String)> {
    let client = async_nats::connect(nats.urls().as_str())
        .await
        .expect("connect");
    let js = async_nats::jetstream::new(client);
    let mut stream = js.get_stream("BURRACO_LOG").await.expect("the log stream");
    let last = stream
        .info()
        .await
        .expect("stream info")
        .state
        .last_sequence;
    let mut found = Vec::new();
    for sequence in after + 1..=last {
        let Ok(message) = stream.get_raw_message(sequence).await else {
            continue;
        };
        let id = message
            .headers
            .get("Nats-Msg-Id")
            .map(|v| v.as_str().to_owned())
            .unwrap_or_default();
        if id.starts_with(writer) {
            found.push((sequence, message.subject.to_string()));
        }
    }
    found
}

/// The log stream's last sequence.
async fn last_sequence(nats: &Nats) -> u64 {
    let client = async_nats::connect(nats.urls().as_str())
        .await
        .expect("connect");
    let js = async_nats::jetstream::new(client);
    let mut stream = js.get_stream("BURRACO_LOG").await.expect("the log stream");
    stream
        .info()
        .await
        .expect("stream info")
        .state
        .last_sequence
}

/// Issue 19's partition test: a node cut off from NATS (and its peers) for over three leases
/// while its six tables play, its players connected to it or to the other nodes. Within its
/// lease the others serve its tables; every table finishes with every acknowledged move in its
/// record once, no seq naming two events for a seat, no refused move applied; and the cut node
/// writes nothing to the log from the cut on, before or after it heals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_nats_steps_down_within_its_lease_and_never_forks_a_table() {
    let seed = chaos_seed();
    let started = Instant::now();
    let nats = Nats::start(1);
    let proxy = Proxy::start(nats.ports[0]);
    let grace = GRACE.as_secs().to_string();
    let flags = ["--disconnect-grace-secs", grace.as_str()];
    let cut_node = Node::start_via(&proxy.url(), "node-a", &flags);
    let others: Vec<Node> = ["node-b", "node-c"]
        .iter()
        .map(|name| Node::start_with(&nats, name, &flags))
        .collect();
    let (a, b, c) = (cut_node.addr, others[0].addr, others[1].addr);
    let live = Live(Arc::new(Mutex::new(vec![Some(a), Some(b), Some(c)])));

    // Every table created through the node to be cut (so it serves them all); half of them
    // with every seat through it, half with seats through the other nodes too (their requests
    // travel to it over NATS).
    let opening = (0..TABLES).map(|i| {
        let via = if i % 2 == 0 {
            vec![a, a, a, a]
        } else {
            vec![a, b, c, a]
        };
        async move {
            let mut table = open_across(via[0], &via, 1).await;
            let mirror = table.next_hand().await;
            (table, mirror, via)
        }
    });
    let opened = futures_util::future::join_all(opening).await;
    assert_eq!(
        served_by(a).await,
        Some(TABLES as u64),
        "node-a serves every table before the cut"
    );
    eprintln!(
        "partition: {TABLES} tables dealt after {:?}",
        started.elapsed()
    );

    let play_started = Instant::now();
    let drivers = drive(
        opened,
        PLAY,
        &live,
        seed,
        play_started + FINISH_WITHIN,
        play_started,
    );
    let tasks: Vec<_> = drivers.into_iter().map(|d| tokio::spawn(d.run())).collect();

    tokio::time::sleep(CUT_AFTER).await;
    // Players resume through the other nodes from now on (their connections to node-a stay).
    live.set(0, None);
    proxy.cut();
    let cut_at = Instant::now();
    // What was on its way when the cut came has landed by now; anything later by node-a is not.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before_cut = last_sequence(&nats).await;
    eprintln!("partition: node-a cut off at {:?}", started.elapsed());

    // The other nodes serve every table within the lease and a takeover.
    let taken_over = loop {
        let (on_b, on_c) = (served_by(b).await, served_by(c).await);
        let served = on_b.unwrap_or(0) + on_c.unwrap_or(0);
        if served as usize == TABLES {
            break cut_at.elapsed();
        }
        assert!(
            cut_at.elapsed() < TAKEN_OVER_WITHIN,
            "the other nodes serve node-a's {TABLES} tables within {TAKEN_OVER_WITHIN:?} of the \
             cut (lease {LEASE:?}): node-b {on_b:?}, node-c {on_c:?} after {:?}",
            cut_at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    eprintln!(
        "partition: node-a's tables served by node-b and node-c {taken_over:?} after the cut"
    );
    let still_on_a = served_by(a).await;
    eprintln!("partition: node-a's own count of its tables then: {still_on_a:?}");

    let heal_at = cut_at + CUT_FOR;
    tokio::time::sleep(heal_at.saturating_duration_since(Instant::now())).await;
    proxy.heal();
    live.set(0, Some(a));
    eprintln!("partition: healed at {:?}", started.elapsed());

    let mut reports: Vec<Report> = Vec::new();
    for task in tasks {
        reports.push(task.await.expect("a table's task"));
    }
    for r in &reports {
        let s = &r.stats;
        eprintln!(
            "  table {} {} finished {} in {:.1}s: {} acknowledged, {} resumes, refused {:?}, \
             sync refused {:?}, closes {:?}, in doubt {} (applied {}), longest outage {:?}",
            r.index,
            r.id,
            r.finished,
            r.took.as_secs_f32(),
            s.acknowledged,
            s.resumes,
            s.refused,
            s.sync_refused,
            s.closes,
            s.in_doubt,
            s.in_doubt_applied,
            s.longest_outage
        );
    }

    // After the heal node-a's buffered appends, renewals and listings have reached NATS: none
    // of its appends may have landed.
    let late = written_by(&nats, "node-a-", before_cut).await;
    eprintln!(
        "partition: {:?} in all; node-a wrote {} log messages after the cut",
        started.elapsed(),
        late.len()
    );
    let mut findings: Vec<String> = reports.iter().flat_map(|r| r.findings.clone()).collect();
    findings.extend(late.iter().map(|(sequence, subject)| {
        format!("node-a, cut off, wrote message {sequence} of the log ({subject}) after the cut")
    }));
    drop(others);
    drop(cut_node);
    drop(proxy);
    drop(nats);
    assert!(
        findings.is_empty(),
        "seed {seed}: {} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
    assert!(reports.iter().all(|r| r.finished));
}
