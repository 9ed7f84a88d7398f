//! A director's request, parsed once where it arrives (as a table's move is): the message
//! becomes a [`DirectorRequest`] whose [`DirectorAction`] holds only what is well formed on its
//! own (two different entrants to keep apart, a seating without repeats, a round time in range,
//! reasons of a bounded length), or a [`DirectorRequestError`]. The actor then checks only what
//! depends on the tournament (the token, the entrants it knows, whether it has started).

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, WireRegistration};

use super::Refusal;

/// The longest reason a director may give (it is in the record for good).
pub const MAX_REASON: usize = 200;

/// The longest round time a director may set: 4 hours.
pub const MAX_ROUND_SECS: u32 = 4 * 3600;

/// A director's request, well formed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectorRequest {
    /// The request's id, for the answer.
    pub id: u64,
    pub tournament: String,
    /// The director's token, as sent (the actor checks it).
    pub token: String,
    pub action: DirectorAction,
}

/// The director's powers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectorAction {
    StartRound,
    Adjust {
        entrant: u32,
        vp: i32,
        reason: String,
    },
    Withdraw {
        entrant: u32,
        reason: String,
    },
    /// A withdrawal for force majeure (FITAB art. 36).
    Excuse {
        entrant: u32,
        reason: String,
    },
    End,
    /// Answered with the invitation code of an invite-only list.
    Registration(WireRegistration),
    Pause,
    Resume,
    Warn {
        entrant: u32,
        reason: String,
    },
    Disqualify {
        entrant: u32,
        reason: String,
    },
    /// Two different entrants not to meet in a round paired by standing.
    Forbid {
        entrants: [u32; 2],
    },
    /// The first round's order, no entrant twice.
    Seat {
        order: Vec<u32>,
    },
    /// 1 second to [`MAX_ROUND_SECS`]; `None`: the preset's clock.
    RoundTime {
        secs: Option<u32>,
    },
}

/// Why a director's request is malformed, whatever the tournament. Each is refused with
/// [`ErrorCode::InvalidMessage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DirectorRequestError {
    #[error("a reason is at most {MAX_REASON} characters")]
    ReasonTooLong,
    #[error("forbid_pairing names two entrants")]
    ForbidNotTwo,
    #[error("forbid_pairing names two different entrants")]
    ForbidSameEntrant,
    #[error("a round time is 1 second to 4 hours")]
    RoundTimeOutOfRange,
    #[error("entrant {0} is seated twice")]
    SeatedTwice(u32),
}

impl DirectorRequestError {
    pub fn code(self) -> ErrorCode {
        ErrorCode::InvalidMessage
    }

    pub fn refusal(self) -> Refusal {
        (self.code(), self.to_string())
    }
}

/// What a client message is to the director's side.
#[derive(Debug)]
pub enum Parsed {
    Request(DirectorRequest),
    /// A director's request, malformed: refused without asking the tournament.
    Malformed {
        id: u64,
        error: DirectorRequestError,
    },
    /// Not a director's request: given back.
    Other(ClientMessage),
}

impl DirectorRequest {
    /// Parses `message` if it is a director's request: one that [`director_field`] names, the
    /// list [`with_account`] goes through, so nothing is read here as the director's that
    /// `with_account` would have passed on as the client wrote it.
    pub fn parse(mut message: ClientMessage) -> Parsed {
        use ClientMessage as C;
        let Some(token) = director_field(&mut message).map(std::mem::take) else {
            return Parsed::Other(message);
        };
        let (id, tournament, action) = match message {
            C::StartRound { id, tournament, .. } => {
                (id, tournament, Ok(DirectorAction::StartRound))
            }
            C::AdjustScore {
                id,
                tournament,
                entrant,
                vp,
                reason,
                ..
            } => {
                let action = reason_of(reason).map(|reason| DirectorAction::Adjust {
                    entrant,
                    vp,
                    reason,
                });
                (id, tournament, action)
            }
            C::WithdrawEntrant {
                id,
                tournament,
                entrant,
                reason,
                ..
            } => {
                let action =
                    reason_of(reason).map(|reason| DirectorAction::Withdraw { entrant, reason });
                (id, tournament, action)
            }
            C::ExcuseEntrant {
                id,
                tournament,
                entrant,
                reason,
                ..
            } => {
                let action =
                    reason_of(reason).map(|reason| DirectorAction::Excuse { entrant, reason });
                (id, tournament, action)
            }
            C::WarnEntrant {
                id,
                tournament,
                entrant,
                reason,
                ..
            } => {
                let action =
                    reason_of(reason).map(|reason| DirectorAction::Warn { entrant, reason });
                (id, tournament, action)
            }
            C::DisqualifyEntrant {
                id,
                tournament,
                entrant,
                reason,
                ..
            } => {
                let action =
                    reason_of(reason).map(|reason| DirectorAction::Disqualify { entrant, reason });
                (id, tournament, action)
            }
            C::EndTournament { id, tournament, .. } => (id, tournament, Ok(DirectorAction::End)),
            C::ConfigureRegistration {
                id,
                tournament,
                registration,
                ..
            } => (
                id,
                tournament,
                Ok(DirectorAction::Registration(registration)),
            ),
            C::PauseTournament { id, tournament, .. } => {
                (id, tournament, Ok(DirectorAction::Pause))
            }
            C::ResumeTournament { id, tournament, .. } => {
                (id, tournament, Ok(DirectorAction::Resume))
            }
            C::ForbidPairing {
                id,
                tournament,
                entrants,
                ..
            } => (id, tournament, forbid(&entrants)),
            C::SeatEntrants {
                id,
                tournament,
                order,
                ..
            } => (id, tournament, seat(order)),
            C::SetRoundTime {
                id,
                tournament,
                round_secs,
                ..
            } => (id, tournament, round_time(round_secs)),
            // Never taken: `director_field` answered for the director's requests alone, each
            // read above. A message it named and this match forgot is refused, never trusted.
            other => return Parsed::Other(other),
        };
        match action {
            Ok(action) => Parsed::Request(DirectorRequest {
                id,
                tournament,
                token,
                action,
            }),
            Err(error) => Parsed::Malformed { id, error },
        }
    }
}

/// How the director field names a signed-in account (protocol 1.6): written by the server only,
/// for the connection's own account ([`with_account`]), so the tournament may trust it.
pub const ACCOUNT_TOKEN: &str = "account:";

/// A director's request as a connection sent it, made ready for the tournament (before any
/// forwarding to the node serving it): a token written as an account's is blanked (a client
/// cannot speak for an account), and an empty one from a signed-in connection becomes its
/// account's. Any other message is given back as it is.
pub fn with_account(mut message: ClientMessage, account: Option<&str>) -> ClientMessage {
    if let Some(director) = director_field(&mut message) {
        secure_token(director, account);
    }
    message
}

/// A director's token as a connection sent it, made safe: a token written as an account's is
/// blanked (only the serving node writes that form), and an empty one from a signed-in
/// connection becomes its account's. Also used by the tournament chat's optional `director`.
pub(super) fn secure_token(director: &mut String, account: Option<&str>) {
    if director.starts_with(ACCOUNT_TOKEN) {
        director.clear();
    }
    if let (true, Some(account)) = (director.is_empty(), account) {
        *director = format!("{ACCOUNT_TOKEN}{account}");
    }
}

/// The director's token field of `message`, if it is a director's request: the one list of
/// them, which both [`with_account`] (a client's `account:` blanked, the connection's own
/// written) and [`DirectorRequest::parse`] (the token read) go through, so no request can be
/// read as the director's without its field made safe first.
fn director_field(message: &mut ClientMessage) -> Option<&mut String> {
    use ClientMessage as C;
    match message {
        C::StartRound { director, .. }
        | C::AdjustScore { director, .. }
        | C::WithdrawEntrant { director, .. }
        | C::ExcuseEntrant { director, .. }
        | C::WarnEntrant { director, .. }
        | C::DisqualifyEntrant { director, .. }
        | C::EndTournament { director, .. }
        | C::ConfigureRegistration { director, .. }
        | C::PauseTournament { director, .. }
        | C::ResumeTournament { director, .. }
        | C::ForbidPairing { director, .. }
        | C::SeatEntrants { director, .. }
        | C::SetRoundTime { director, .. } => Some(director),
        _ => None,
    }
}

fn reason_of(reason: String) -> Result<String, DirectorRequestError> {
    if reason.chars().count() > MAX_REASON {
        return Err(DirectorRequestError::ReasonTooLong);
    }
    Ok(reason)
}

fn forbid(entrants: &[u32]) -> Result<DirectorAction, DirectorRequestError> {
    let &[a, b] = entrants else {
        return Err(DirectorRequestError::ForbidNotTwo);
    };
    if a == b {
        return Err(DirectorRequestError::ForbidSameEntrant);
    }
    Ok(DirectorAction::Forbid { entrants: [a, b] })
}

fn seat(order: Vec<u32>) -> Result<DirectorAction, DirectorRequestError> {
    let mut seen = std::collections::HashSet::new();
    if let Some(&twice) = order.iter().find(|&&e| !seen.insert(e)) {
        return Err(DirectorRequestError::SeatedTwice(twice));
    }
    Ok(DirectorAction::Seat { order })
}

fn round_time(secs: Option<u32>) -> Result<DirectorAction, DirectorRequestError> {
    if secs.is_some_and(|s| s == 0 || s > MAX_ROUND_SECS) {
        return Err(DirectorRequestError::RoundTimeOutOfRange);
    }
    Ok(DirectorAction::RoundTime { secs })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The director field `with_account` leaves in a pause request.
    fn director_after(director: &str, account: Option<&str>) -> String {
        let message = ClientMessage::PauseTournament {
            id: 7,
            tournament: "T-1".into(),
            director: director.into(),
        };
        match with_account(message, account) {
            ClientMessage::PauseTournament { director, .. } => director,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn only_the_server_writes_an_accounts_director_field() {
        assert_eq!(director_after("", Some("a-1")), "account:a-1");
        assert_eq!(director_after("secret", Some("a-1")), "secret");
        assert_eq!(director_after("", None), "");
        assert_eq!(director_after("account:a-1", None), "");
        assert_eq!(director_after("account:a-2", Some("a-1")), "account:a-1");
        let other = ClientMessage::Ping { id: 1 };
        assert_eq!(with_account(other.clone(), Some("a-1")), other);
    }

    /// Every client message of the protocol, as its golden file has it (one file per message:
    /// the protocol's own tests hold it to that), with its `director` field, if it has one,
    /// forged as an account's.
    fn every_message_forged() -> Vec<(String, bool, ClientMessage)> {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../protocol/tests/golden/client"
        );
        let mut messages = Vec::new();
        for entry in std::fs::read_dir(dir).expect("the protocol's golden client messages") {
            let path = entry.expect("a golden file").path();
            let text = std::fs::read_to_string(&path).expect("readable");
            let mut json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            let directed = json.get("director").is_some();
            if directed {
                json["director"] = format!("{ACCOUNT_TOKEN}victim").into();
            }
            let decoded =
                burraco_protocol::codec::from_json::<ClientMessage>(&json.to_string(), usize::MAX);
            let name = path.display().to_string();
            let message = decoded.result.unwrap_or_else(|e| panic!("{name}: {e:?}"));
            messages.push((name, directed, message));
        }
        assert!(messages.len() > 40, "the golden files are there");
        messages
    }

    /// A director's request that `with_account` did not cover would carry a client's forged
    /// `account:<id>` to the tournament, which trusts that form: every message with a director
    /// field is read as the director's, and only after its field was made the connection's.
    #[test]
    fn every_request_with_a_director_field_is_read_only_as_with_account_wrote_it() {
        let mut directed = 0;
        for (name, has_director, message) in every_message_forged() {
            for (account, token) in [(None, ""), (Some("a-1"), "account:a-1")] {
                // The chat's optional director goes through the same `secure_token`
                // (`requests::handle` applies both), and is not a director's request.
                let message = super::super::chat::with_account(message.clone(), account);
                if let ClientMessage::TournamentChat { director, .. } = &message {
                    assert!(has_director, "{name}: the sample speaks as the director");
                    assert_eq!(director.as_deref(), Some(token), "{name}");
                    continue;
                }
                match DirectorRequest::parse(with_account(message, account)) {
                    Parsed::Request(request) => {
                        assert!(has_director, "{name}: read as a director's request");
                        assert_eq!(request.token, token, "{name}");
                    }
                    Parsed::Malformed { error, .. } => panic!("{name}: a golden sample {error}"),
                    Parsed::Other(_) => assert!(
                        !has_director,
                        "{name} has a director field but is not read as a director's request"
                    ),
                }
            }
            directed += usize::from(has_director);
        }
        assert!(directed > 0, "the director's requests were among them");
    }

    fn parsed(message: ClientMessage) -> Result<DirectorAction, DirectorRequestError> {
        match DirectorRequest::parse(message) {
            Parsed::Request(request) => {
                assert_eq!((request.id, request.token.as_str()), (7, "secret"));
                assert_eq!(request.tournament, "T-1");
                Ok(request.action)
            }
            Parsed::Malformed { id, error } => {
                assert_eq!(id, 7);
                Err(error)
            }
            Parsed::Other(other) => panic!("not a director's request: {other:?}"),
        }
    }

    fn forbid_pairing(entrants: Vec<u32>) -> ClientMessage {
        ClientMessage::ForbidPairing {
            id: 7,
            tournament: "T-1".into(),
            director: "secret".into(),
            entrants,
        }
    }

    fn warn(reason: String) -> ClientMessage {
        ClientMessage::WarnEntrant {
            id: 7,
            tournament: "T-1".into(),
            director: "secret".into(),
            entrant: 2,
            reason,
        }
    }

    #[test]
    fn a_pairing_forbidden_is_two_different_entrants() {
        assert_eq!(
            parsed(forbid_pairing(vec![0, 1])),
            Ok(DirectorAction::Forbid { entrants: [0, 1] })
        );
        for (entrants, error) in [
            (vec![0, 1, 0], DirectorRequestError::ForbidNotTwo),
            (vec![0], DirectorRequestError::ForbidNotTwo),
            (vec![1, 1], DirectorRequestError::ForbidSameEntrant),
        ] {
            assert_eq!(parsed(forbid_pairing(entrants)), Err(error));
        }
    }

    #[test]
    fn a_reason_is_bounded_in_characters_not_bytes() {
        let longest = "é".repeat(MAX_REASON);
        assert_eq!(
            parsed(warn(longest.clone())),
            Ok(DirectorAction::Warn {
                entrant: 2,
                reason: longest
            })
        );
        assert_eq!(
            parsed(warn("x".repeat(MAX_REASON + 1))),
            Err(DirectorRequestError::ReasonTooLong)
        );
    }

    #[test]
    fn a_seating_names_each_entrant_once_and_a_round_time_is_in_range() {
        let seat = |order: Vec<u32>| ClientMessage::SeatEntrants {
            id: 7,
            tournament: "T-1".into(),
            director: "secret".into(),
            order,
        };
        assert_eq!(
            parsed(seat(vec![2, 0, 1])),
            Ok(DirectorAction::Seat {
                order: vec![2, 0, 1]
            })
        );
        assert_eq!(
            parsed(seat(vec![2, 0, 2])),
            Err(DirectorRequestError::SeatedTwice(2))
        );
        let time = |round_secs| ClientMessage::SetRoundTime {
            id: 7,
            tournament: "T-1".into(),
            director: "secret".into(),
            round_secs,
        };
        for secs in [None, Some(1), Some(MAX_ROUND_SECS)] {
            assert_eq!(parsed(time(secs)), Ok(DirectorAction::RoundTime { secs }));
        }
        for secs in [Some(0), Some(MAX_ROUND_SECS + 1)] {
            assert_eq!(
                parsed(time(secs)),
                Err(DirectorRequestError::RoundTimeOutOfRange)
            );
        }
    }

    #[test]
    fn a_players_request_is_given_back() {
        let message = ClientMessage::CheckInTournament {
            id: 7,
            tournament: "T-1".into(),
        };
        assert!(matches!(
            DirectorRequest::parse(message.clone()),
            Parsed::Other(other) if other == message
        ));
    }

    #[test]
    fn every_malformed_request_is_refused_as_invalid() {
        for error in [
            DirectorRequestError::ReasonTooLong,
            DirectorRequestError::ForbidNotTwo,
            DirectorRequestError::ForbidSameEntrant,
            DirectorRequestError::RoundTimeOutOfRange,
            DirectorRequestError::SeatedTwice(3),
        ] {
            assert_eq!(error.refusal().0, ErrorCode::InvalidMessage);
        }
    }
}
