//! The `/api` routes' edge over raw HTTP (issue 32): a query or a path that does not parse is
//! answered with the route's typed JSON error, never axum's plain text; and
//! `GET /api/ratings/{account-or-username}` takes either, `404 no_such_account` for neither.

use std::time::Duration;

use serde_json::Value;

use crate::accounts::http::{Reply, http};
use crate::common::TestServer;
use crate::ratings::{play_rated_match, sign_up, until_matches};

async fn get(server: &TestServer, path: &str) -> Reply {
    http(server.addr, "GET", path, &[], "").await
}

/// `path` answers `status` with a JSON body whose `code` is `code`.
async fn refused(server: &TestServer, path: &str, status: u16, code: &str) {
    let reply = get(server, path).await;
    assert_eq!(
        (reply.status, reply.header("content-type")),
        (status, Some("application/json")),
        "{path}: {}",
        reply.body
    );
    assert_eq!(reply.code(), code, "{path}: {}", reply.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_query_or_path_is_the_routes_typed_json_error() {
    let server = TestServer::start().await;
    // `%FF` percent-decodes to a byte that is not UTF-8: no route's path parameter reads it.
    let cases: [(&str, u16, &str); 23] = [
        ("/api/players/Anna?limit=abc", 400, "bad_page"),
        ("/api/players/Anna?limit=-1", 400, "bad_page"),
        ("/api/players/%FF", 404, "no_such_player"),
        ("/api/session/matches?limit=abc", 400, "bad_page"),
        ("/api/seasons/current/two?limit=abc", 400, "bad_page"),
        ("/api/seasons/current/two?bots=maybe", 400, "bad_page"),
        ("/api/seasons/%FF/two", 404, "unknown_season"),
        ("/api/leaderboards/two?bots=maybe", 400, "bad_query"),
        ("/api/leaderboards/two?period=month", 400, "unknown_period"),
        ("/api/leaderboards/three", 404, "unknown_category"),
        ("/api/leaderboards/%FF", 400, "bad_path"),
        ("/api/ratings/%FF", 400, "bad_path"),
        ("/api/ratings/nobody", 404, "no_such_account"),
        ("/api/ratings/u-0000000000000000", 404, "no_such_account"),
        ("/api/tables/%FF/expected", 400, "bad_path"),
        ("/api/tables/t-0000000000/expected", 404, "unknown_table"),
        ("/api/tables/%FF/hands", 400, "bad_path"),
        ("/api/players/%FF/hands", 400, "bad_path"),
        ("/api/tournaments/x", 404, "unknown_tournament"),
        ("/api/tournaments/T-0000000000", 404, "unknown_tournament"),
        ("/api/tournaments/%FF", 404, "unknown_tournament"),
        ("/api/tournaments/%FF/levels", 400, "bad_path"),
        ("/api/moderation/accounts/%FF", 404, "unknown_account"),
    ];
    for (path, status, code) in cases {
        refused(&server, path, status, code).await;
    }
    // What still reads is served as before: an id nobody played under has no hands.
    let reply = get(&server, "/api/tables/t-0000000000/hands").await;
    assert_eq!((reply.status, reply.body.as_str()), (200, "[]"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_ratings_are_found_by_its_id_or_its_username() {
    let server = TestServer::with(|config| config.rated_min_play = Duration::ZERO).await;
    let addr = server.addr;
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (_, bruno) = sign_up(addr, "Bruno").await;
    play_rated_match(addr, &anna, &bruno).await;
    let by_id = until_matches(addr, &anna_id, 1, Duration::from_secs(10)).await;
    assert_eq!(
        by_id["history"].as_array().map(Vec::len),
        Some(1),
        "{by_id}"
    );
    for name in ["Anna", "anna"] {
        let reply = get(&server, &format!("/api/ratings/{name}")).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let by_name: Value = reply.json();
        assert_eq!(by_name, by_id, "{name}");
        assert_eq!(by_name["account"], anna_id.as_str());
    }
    server.stop().await;
}
