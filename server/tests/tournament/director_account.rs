//! A tournament director as an account (protocol 1.6): the account that created a tournament
//! directs it from any of its connections with an empty `director`; another account, and a guest
//! who writes the account's form of the field, are refused as a wrong token is; the token still
//! works for anyone; a restart keeps the director's account (it is in the tournament's log).

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireTournamentSettings};

use crate::common::Client;
use crate::ratings::{sign_up, signed_in};

fn singles_of_four() -> WireTournamentSettings {
    WireTournamentSettings {
        name: "director's cup".into(),
        kind: "singles".into(),
        rounds: vec!["danish".into()],
        hands: 1,
        preset: "fitab".into(),
        max_entrants: Some(4),
        ..WireTournamentSettings::default()
    }
}

/// What a pause then a resume with `director` got: both answers.
async fn pause_and_resume(
    client: &mut Client,
    tournament: &str,
    director: &str,
) -> [ServerMessage; 2] {
    let (t, d) = (tournament.to_owned(), director.to_owned());
    let paused = client
        .request(|id| ClientMessage::PauseTournament {
            id,
            tournament: t,
            director: d,
        })
        .await;
    let (t, d) = (tournament.to_owned(), director.to_owned());
    let resumed = client
        .request(|id| ClientMessage::ResumeTournament {
            id,
            tournament: t,
            director: d,
        })
        .await;
    [paused, resumed]
}

fn assert_ok(answers: &[ServerMessage; 2], who: &str) {
    for answer in answers {
        assert!(
            matches!(answer, ServerMessage::Ok { .. }),
            "{who}: {answer:?}"
        );
    }
}

fn assert_not_director(answers: &[ServerMessage; 2], who: &str) {
    for answer in answers {
        let ServerMessage::Error { code, .. } = answer else {
            panic!("{who}: {answer:?}")
        };
        assert_eq!(code, "not_director", "{who}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_creating_account_directs_without_the_token_and_nobody_else_does() {
    let data = tempfile::tempdir().expect("temp dir");
    let (mut child, addr) = crate::crash::start_with(data.path(), &[]);
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (_, bruno_session) = sign_up(addr, "Bruno").await;
    let mut creator = signed_in(addr, "Anna", &anna).await;
    let created = creator
        .request(|id| ClientMessage::CreateTournament {
            id,
            settings: Box::new(singles_of_four()),
        })
        .await;
    let ServerMessage::TournamentCreated {
        tournament,
        director_token,
        ..
    } = created
    else {
        panic!("create: {created:?}")
    };
    // Another connection of the same account: no token needed.
    let mut again = signed_in(addr, "Anna", &anna).await;
    assert_ok(&pause_and_resume(&mut again, &tournament, "").await, "Anna");
    let mut bruno = signed_in(addr, "Bruno", &bruno_session).await;
    assert_not_director(
        &pause_and_resume(&mut bruno, &tournament, "").await,
        "Bruno",
    );
    // A client cannot write the account's form itself, signed in or not.
    let forged = format!("account:{anna_id}");
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.5")
        .await
        .0;
    assert_not_director(
        &pause_and_resume(&mut guest, &tournament, &forged).await,
        "a guest writing Anna's account",
    );
    assert_not_director(
        &pause_and_resume(&mut bruno, &tournament, &forged).await,
        "Bruno writing Anna's account",
    );
    assert_not_director(
        &pause_and_resume(&mut guest, &tournament, "").await,
        "a guest with no token",
    );
    // The token works for anyone.
    assert_ok(
        &pause_and_resume(&mut guest, &tournament, &director_token).await,
        "a guest with the token",
    );
    // A rated tournament (1.6's own request) is directed by its account as well.
    let cookie = format!("burraco_session={anna}");
    let origin = format!("http://{addr}");
    let headers = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    let mut rated_creator = Client::connect_with_headers(addr, "Anna", "1.6", &headers)
        .await
        .0;
    let created = rated_creator
        .request(|id| ClientMessage::CreateRatedTournament {
            id,
            settings: Box::new(singles_of_four()),
        })
        .await;
    let ServerMessage::TournamentCreated {
        tournament: rated, ..
    } = created
    else {
        panic!("create rated: {created:?}")
    };
    assert_ok(
        &pause_and_resume(&mut again, &rated, "").await,
        "Anna, rated",
    );
    assert_not_director(
        &pause_and_resume(&mut bruno, &rated, "").await,
        "Bruno, rated",
    );
    // A restart folds the director's account from the log.
    child.0.kill().expect("kill -9");
    let _ = child.0.wait();
    let (_child, addr) = crate::crash::start_with(data.path(), &[]);
    let mut after = signed_in(addr, "Anna", &anna).await;
    for t in [&tournament, &rated] {
        assert_ok(
            &pause_and_resume(&mut after, t, "").await,
            "Anna after a restart",
        );
    }
    let mut bruno = signed_in(addr, "Bruno", &bruno_session).await;
    assert_not_director(
        &pause_and_resume(&mut bruno, &tournament, "").await,
        "Bruno after a restart",
    );
}
