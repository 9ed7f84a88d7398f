//! The bot crate's integration tests: one binary, a module per subject.

mod arena;
mod server;
/// `burraco-bot tournament` plays an event at a real server and writes its standings.
mod tournament;
mod wire;

/// Shared by the modules.
mod common {
    use std::net::SocketAddr;
    use std::time::Duration;

    use burraco_server::ServerConfig;
    use tokio::net::TcpListener;
    use tokio::sync::oneshot;

    /// A server on 127.0.0.1:0 with a temporary data directory, in this test's runtime.
    pub struct TestServer {
        pub addr: SocketAddr,
        _dir: tempfile::TempDir,
        stop: Option<oneshot::Sender<()>>,
        task: tokio::task::JoinHandle<Result<(), burraco_server::RunError>>,
    }

    impl TestServer {
        pub async fn start(adjust: impl FnOnce(&mut ServerConfig)) -> TestServer {
            let dir = tempfile::tempdir().expect("temp dir");
            let mut config = ServerConfig {
                data_dir: dir.path().to_owned(),
                next_hand_delay: Duration::ZERO,
                ..ServerConfig::default()
            };
            adjust(&mut config);
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let addr = listener.local_addr().expect("addr");
            let (stop, stopped) = oneshot::channel::<()>();
            let task = tokio::spawn(burraco_server::run(listener, config, async move {
                let _ = stopped.await;
            }));
            TestServer {
                addr,
                _dir: dir,
                stop: Some(stop),
                task,
            }
        }

        pub fn url(&self) -> String {
            format!("ws://{}/ws", self.addr)
        }

        pub async fn stop(mut self) {
            if let Some(stop) = self.stop.take() {
                let _ = stop.send(());
            }
            let _ = tokio::time::timeout(Duration::from_secs(20), &mut self.task).await;
        }
    }
}
