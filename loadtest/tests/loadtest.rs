//! The load tester's integration tests: one binary, a module per subject.

/// Targets: loopback only; sources spread over 127.0.0.x.
mod target {
    use burraco_loadtest::target::{Target, sources, sources_for};

    #[test]
    fn only_loopback_targets_are_accepted() {
        assert!(Target::parse("ws://127.0.0.1:8080/ws").is_ok());
        assert!(Target::parse("ws://localhost:8080/ws").is_ok());
        assert!(Target::parse("ws://[::1]:8080/ws").is_ok());
        assert!(Target::parse("ws://10.0.0.1:8080/ws").is_err());
        assert!(Target::parse("ws://8.8.8.8/ws").is_err());
        assert!(Target::parse("http://127.0.0.1:8080/ws").is_err());
    }

    #[test]
    fn sources_cover_the_connections() {
        assert_eq!(sources_for(4), 1);
        assert_eq!(sources_for(40_000), 4);
        assert_eq!(
            sources(3).iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
        );
    }
}

/// Runs against a real server started in-process, and against the bare fan-out baseline.
mod runs {
    use std::time::Duration;

    use burraco_bot::Level;
    use burraco_loadtest::metrics::Metrics;
    use burraco_loadtest::run::{RunOptions, run};
    use burraco_loadtest::target::{Target, sources};
    use burraco_server::ServerConfig;
    use tokio::net::TcpListener;

    fn options(url: &str) -> RunOptions {
        RunOptions {
            target: Target::parse(url).unwrap(),
            tables: 3,
            duration: Duration::from_secs(4),
            ramp_up: Duration::from_millis(300),
            think: Duration::ZERO,
            open_model: false,
            storm_after: None,
            preset: "fitab".into(),
            hands: 1,
            clocks: "off".into(),
            strategy: Level::Random,
            sources: 2,
            progress: false,
            server_pid: None,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn tables_play_flat_out_then_paced_open_with_a_reconnect_storm() {
        let dir = tempfile::tempdir().unwrap();
        let config = ServerConfig {
            data_dir: dir.path().to_owned(),
            next_hand_delay: Duration::ZERO,
            rate_per_sec: 100_000,
            rate_burst: 100_000,
            ..ServerConfig::default()
        };
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(burraco_server::run(listener, config, async move {
            let _ = stopped.await;
        }));

        let flat = run(options(&url)).await;
        assert_eq!(flat.errors, 0, "{}", flat.json);
        assert!(flat.actions > 100, "{}", flat.json);
        assert!(flat.json["hands"].as_u64().unwrap() >= 3, "{}", flat.json);
        assert!(flat.latency.count > 0 && flat.fanout.count > 0);
        for key in [
            "tables",
            "connections",
            "actions",
            "actions_per_s",
            "hands",
            "errors",
        ] {
            assert!(!flat.json[key].is_null(), "{key} missing");
        }
        for key in ["p50", "p90", "p99", "p999", "max"] {
            assert!(
                flat.json["latency_ms"][key].as_f64().unwrap() > 0.0,
                "{key}"
            );
        }

        let paced = run(RunOptions {
            think: Duration::from_millis(50),
            open_model: true,
            storm_after: Some(Duration::from_secs(2)),
            ..options(&url)
        })
        .await;
        assert_eq!(paced.errors, 0, "{}", paced.json);
        assert_eq!(
            paced.json["reconnects"].as_u64(),
            Some(12),
            "{}",
            paced.json
        );
        assert!(paced.actions > 20, "{}", paced.json);

        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(20), server).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_bare_fanout_baseline_runs() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        let server = tokio::spawn(burraco_loadtest::baseline::serve(listener));
        let metrics = std::sync::Arc::new(Metrics::default());
        let target = Target::parse(&url).unwrap();
        let actions = burraco_loadtest::baseline::drive(
            &target,
            &sources(1),
            2,
            Duration::from_secs(1),
            metrics.clone(),
        )
        .await;
        assert!(actions > 50, "{actions}");
        assert_eq!(metrics.errors(), 0);
        server.abort();
    }
}

/// A tournament of bot pairs against a real server in-process, measured round by round.
mod tournament {
    use std::time::Duration;

    use burraco_bot::Level;
    use burraco_loadtest::target::Target;
    use burraco_loadtest::tournament::{TournamentRunOptions, run_tournament};
    use burraco_server::ServerConfig;
    use tokio::net::TcpListener;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_tournament_of_eight_pairs_is_measured_round_by_round() {
        let dir = tempfile::tempdir().unwrap();
        let config = ServerConfig {
            data_dir: dir.path().to_owned(),
            next_hand_delay: Duration::ZERO,
            rate_per_sec: 100_000,
            rate_burst: 100_000,
            ..ServerConfig::default()
        };
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(burraco_server::run(listener, config, async move {
            let _ = stopped.await;
        }));
        let summary = run_tournament(&TournamentRunOptions {
            target: Target::parse(&url).unwrap(),
            pairs: 8,
            rounds: vec!["mitchell".into(), "danish".into()],
            hands: 1,
            preset: "fitab".into(),
            duplicate: true,
            level: Level::Random,
            deadline: Duration::from_secs(120),
            // This process: the figure is read the same way as a separate server's.
            server_pid: Some(std::process::id()),
        })
        .await
        .expect("the tournament runs");
        let json = summary.to_json();
        assert_eq!(summary.errors, 0, "{json}");
        assert_eq!(summary.rounds.len(), 2, "{json}");
        for round in &summary.rounds {
            assert_eq!(round.tables, 4, "{json}");
            assert!(round.start_to_dealt > Duration::ZERO, "{json}");
            assert!(round.start_to_dealt < Duration::from_secs(60), "{json}");
            let standings = round
                .last_end_to_standings
                .expect("standings after each round");
            assert!(standings < Duration::from_secs(10), "{json}");
        }
        assert!(
            summary.server_peak_rss_bytes.is_some_and(|b| b > 0),
            "{json}"
        );
        for key in ["tournament", "errors", "rounds", "server_peak_rss_mib"] {
            assert!(!json[key].is_null(), "{key} missing: {json}");
        }
        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(20), server).await;
    }
}
