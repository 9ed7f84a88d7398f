//! The conformance suites of the backplane's data ports (`burraco_server::backplane`): every
//! implementation passes the same checks, played by two nodes `a` and `b` over the same shared
//! state (the in-process implementation's views of one process, and two real connections to a
//! NATS server). The table log has its own suite (`log`).

use std::collections::HashSet;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use burraco_protocol::wire::{SeatName, TableSummary, WireSeat};
use burraco_rules::Seat;
use burraco_server::Session;
use burraco_server::backplane::local::{
    MemoryEmbargo, MemoryLeases, MemoryListings, MemoryTournamentListings, StoreSessions,
};
use burraco_server::backplane::{Embargo, Leases, Listing, Listings, Sessions, TournamentListings};
use burraco_server::cluster::Cluster;
use burraco_server::config::ClusterConfig;
use burraco_server::directory::ResumeKey;
use burraco_server::store::Store;
use burraco_server::tournament::Summary;

/// Polls `check` until it holds (shared state another node wrote may take a moment to be seen
/// where the port says "as last seen"), for at most 5 s.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(5);
    while !check().await {
        assert!(Instant::now() < deadline, "{what}: not within 5 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub async fn leases(a: &dyn Leases, b: &dyn Leases) {
    assert_eq!(a.holder("t-never").await, Ok(None));
    assert!(a.take("t-1").await, "a free lease is taken");
    assert!(
        !a.take("t-1").await,
        "a lease held, by this node too, is not"
    );
    assert!(!b.take("t-1").await, "nor by another node");
    assert_eq!(a.holder("t-1").await, Ok(Some("a".into())));
    assert_eq!(b.holder("t-1").await, Ok(Some("a".into())));
    // Only the holder gives it up.
    b.release("t-1").await;
    assert_eq!(b.holder("t-1").await, Ok(Some("a".into())));
    a.release("t-1").await;
    assert_eq!(b.holder("t-1").await, Ok(None));
    assert!(
        b.take("t-1").await,
        "a released lease is taken by another node"
    );
    assert_eq!(a.holder("t-1").await, Ok(Some("b".into())));
    // Leases are independent.
    assert!(a.take("t-2").await);
    assert_eq!(b.holder("t-2").await, Ok(Some("a".into())));
    assert_eq!(b.holder("t-1").await, Ok(Some("b".into())));
}

pub async fn sessions(a: &dyn Sessions, b: &dyn Sessions) {
    let session = Session {
        player: "p-0a1b2c".into(),
        name: "Anna Maria".into(),
        account: None,
    };
    let key = ResumeKey::of("0123456789abcdef0123456789abcdef");
    assert!(a.open(&key, &session).await);
    // Written before it is used: readable through any node at once.
    assert_eq!(b.find(&key).await, Some(session.clone()));
    let unknown = ResumeKey::of("ffffffffffffffffffffffffffffffff");
    assert_eq!(b.find(&unknown).await, None);
    for odd in ["", "a.b", "*", ">", "with space"] {
        assert_eq!(b.find(&ResumeKey::of(odd)).await, None, "{odd:?}");
    }
    // An account's session keeps its account.
    let account = Session {
        player: "p-3d4e5f".into(),
        name: "Bruno".into(),
        account: Some("u-1234".into()),
    };
    let key = ResumeKey::of("fedcba9876543210fedcba9876543210");
    assert!(a.open(&key, &account).await);
    assert_eq!(b.find(&key).await, Some(account));
}

fn listing(owner: &str, table: &str, invite: Option<&str>, players: &[(&str, Seat)]) -> Listing {
    Listing {
        owner: owner.into(),
        summary: TableSummary {
            table: table.into(),
            preset: "fitab".into(),
            players: 4,
            seats: Seat::ALL
                .into_iter()
                .map(|seat| SeatName {
                    seat: WireSeat(seat),
                    name: players
                        .iter()
                        .find(|(_, s)| *s == seat)
                        .map(|(p, _)| p.to_string()),
                    bot: false,
                })
                .collect(),
            status: "waiting".into(),
            spectators: 0,
        },
        private: invite.is_some(),
        invite: invite.map(str::to_owned),
        free_seats: 4 - players.len(),
        waiting: true,
        finished: false,
        players: players
            .iter()
            .map(|(p, s)| (p.to_string(), s.index() as u8))
            .collect(),
        rated: false,
        accounts: Vec::new(),
        identities: Vec::new(),
        created_ms: 0,
        movers: Vec::new(),
        deserted: false,
    }
}

pub async fn listings(a: &dyn Listings, b: &dyn Listings) {
    assert_eq!((a.node(), b.node()), ("a", "b"));
    let x = listing("a", "t-x", Some("AB12CD34"), &[("p-1", Seat::North)]);
    a.publish("t-x", x.clone());
    a.flush().await;
    // Read through at once on the other node (read-your-writes for point lookups).
    assert_eq!(b.listing("t-x").await, Some(x.clone()));
    assert_eq!(
        b.by_invite("ab12cd34").await,
        Some(("t-x".to_owned(), x.clone()))
    );
    // What b has seen of the others: the lobby's list, a player's seats.
    eventually("b sees a's table", || async {
        b.elsewhere().iter().any(|(t, l)| t == "t-x" && *l == x)
    })
    .await;
    eventually("b sees p-1's seat", || async {
        b.seats_of("p-1") == vec![("t-x".to_owned(), Seat::North)]
    })
    .await;
    assert!(b.seen("t-x").is_some());
    // A node's own tables are not "elsewhere".
    assert!(!a.elsewhere().iter().any(|(t, _)| t == "t-x"));

    // A change replaces the listing; another table stands beside it.
    let x2 = listing(
        "a",
        "t-x",
        Some("AB12CD34"),
        &[("p-1", Seat::North), ("p-2", Seat::East)],
    );
    a.publish("t-x", x2.clone());
    let y = listing("b", "t-y", None, &[("p-2", Seat::South)]);
    b.publish("t-y", y.clone());
    a.flush().await;
    b.flush().await;
    // Another node's cache learns a change through its watch: a moment after the write (a read
    // straight after it may still see the listing before; a CI run did).
    eventually("b sees t-x's change", || async {
        b.listing("t-x").await == Some(x2.clone())
    })
    .await;
    eventually("a sees t-y", || async {
        a.listing("t-y").await == Some(y.clone())
    })
    .await;
    eventually("a sees p-2 at b's table", || async {
        a.seats_of("p-2").contains(&("t-y".to_owned(), Seat::South))
    })
    .await;
    // Quick play's look at the others: the public table waiting with free seats, never the
    // private one, and never a node's own.
    let open_at_a: Vec<String> = a.open_elsewhere().into_iter().map(|(t, _)| t).collect();
    assert_eq!(open_at_a, ["t-y"]);
    assert!(b.open_elsewhere().is_empty(), "{:?}", b.open_elsewhere());
    eventually("b sees p-2 at a's table", || async {
        b.seats_of("p-2").contains(&("t-x".to_owned(), Seat::East))
    })
    .await;

    // Unlisted: gone for every node, invite code included.
    a.unlist("t-x");
    a.flush().await;
    eventually("t-x unlisted", || async {
        b.listing("t-x").await.is_none() && b.by_invite("AB12CD34").await.is_none()
    })
    .await;
    eventually("t-x out of b's lobby", || async {
        !b.elsewhere().iter().any(|(t, _)| t == "t-x") && b.seats_of("p-1").is_empty()
    })
    .await;
    assert_eq!(a.listing("t-y").await, Some(y));

    // Unknown ids and codes, and ones no key could be, are simply not found.
    for odd in ["t-none", "", "a.b", "*", ">", "with space"] {
        assert_eq!(b.listing(odd).await, None, "{odd:?}");
        assert_eq!(b.by_invite(odd).await, None, "{odd:?}");
    }
}

fn summary(entrants: usize, status: &'static str) -> Summary {
    Summary {
        name: "Coppa d'autunno".into(),
        kind: "pairs".into(),
        status,
        entrants,
        round: 0,
        rounds: 3,
    }
}

pub async fn tournament_listings(a: &dyn TournamentListings, b: &dyn TournamentListings) {
    a.list("T-0a", &summary(2, "registering")).await;
    b.list("T-0b", &summary(8, "playing")).await;
    let listed = b.listed().await.expect("listed");
    assert!(listed.contains(&("T-0a".to_owned(), summary(2, "registering"))));
    assert!(listed.contains(&("T-0b".to_owned(), summary(8, "playing"))));
    a.list("T-0a", &summary(4, "finished")).await;
    let listed = a.listed().await.expect("listed");
    assert!(listed.contains(&("T-0a".to_owned(), summary(4, "finished"))));
    assert_eq!(listed.iter().filter(|(id, _)| id == "T-0a").count(), 1);
}

pub async fn embargo(a: &dyn Embargo, b: &dyn Embargo) {
    let (c1, c2) = ("c1".repeat(32), "c2".repeat(32));
    let both = [c1.clone(), c2.clone()];
    assert!(b.hidden(&both).await.is_empty());
    a.set(&c1, true);
    // On the node that set it, at once; on the others, as soon as it is written.
    assert_eq!(a.hidden(&both).await, HashSet::from([c1.clone()]));
    eventually("b hides c1", || async {
        b.hidden(&both).await == HashSet::from([c1.clone()])
    })
    .await;
    // Lifted: out on every node once written (never out before: fail closed).
    a.set(&c1, false);
    eventually("a and b let c1 out", || async {
        a.hidden(&both).await.is_empty() && b.hidden(&both).await.is_empty()
    })
    .await;
    assert!(b.hidden(&[]).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_process_ports_conform() {
    let leases_a = MemoryLeases::new("a");
    leases(&leases_a, &leases_a.beside("b")).await;

    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let store_sessions = StoreSessions(store.clone());
    sessions(&store_sessions, &store_sessions).await;

    let listings_a = MemoryListings::new("a");
    listings(&listings_a, &listings_a.beside("b")).await;

    let tournaments = MemoryTournamentListings::default();
    tournament_listings(&tournaments, &tournaments).await;

    let embargoes = MemoryEmbargo::default();
    embargo(&embargoes, &embargoes).await;

    drop((store_sessions, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nats_ports_conform() {
    let nats = crate::cluster::Nats::start(1);
    let connect = |node: &str| {
        let config = ClusterConfig::new(vec![nats.urls()], node.to_owned());
        Cluster::connect(config)
    };
    let (a, b) = (
        connect("a").await.expect("a"),
        connect("b").await.expect("b"),
    );
    // What a node's background work would run: the lobby's watch into its cache.
    let stop = tokio_util::sync::CancellationToken::new();
    for node in [&a, &b] {
        let (node, stop) = (node.clone(), stop.clone());
        tokio::spawn(async move { node.lobby.watch(stop, |_| {}, |_| {}).await });
    }
    let (a, b) = (Arc::new(a.backplane()), Arc::new(b.backplane()));
    leases(&*a.leases, &*b.leases).await;
    sessions(&*a.sessions, &*b.sessions).await;
    listings(&*a.listings, &*b.listings).await;
    tournament_listings(&*a.tournament_listings, &*b.tournament_listings).await;
    embargo(&*a.embargo, &*b.embargo).await;
    stop.cancel();
}
