//! A tournament's chat (protocol 1.7): its entrants' players and its director send lines to the
//! event (`tournament_chat`), heard by every entrant's player and every watcher
//! (`tournament_chat_message`); a page opened later reads the recent lines
//! (`tournament_chat_history`).
//!
//! The text rule is the table chat's (`burraco_protocol::text::normalise_line`, at most 200
//! characters, no bidi override or invisible character), the flood limit the same (each request
//! counts in its connection's token bucket), and a muted account is refused `muted` on the
//! connection's node before the request goes anywhere ([`muted`]). A player whose match of the
//! round in play is still being played is refused `chat_closed`: the tournament's chat reaches
//! the partner and the other tables (a duplicate board's players too), where the table's own
//! chat is closed during a hand.
//!
//! The lines are kept in a bounded buffer of the actor ([`KEPT`] lines), not in the tournament's
//! log: chat decides nothing in the event (the log is what the record and the standings fold,
//! and a restart or a takeover folds it all again; a busy chat would grow it without bound),
//! as a table's chat is not in the table's log either. A restart forgets them; a reload finds
//! the recent ones.
//!
//! A kept line also holds who said it (the speaker's player id and account, the round then),
//! which no page reads: a signed-in account reports a line (protocol 1.8,
//! `tournament_report`, [`report`]) and the report keeps that line with the [`AROUND`] lines
//! each side, read here on the tournament's node, so a moderator's mute answering it names the
//! speaker as a table chat's report does.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage, TournamentChatLine};

use super::{Command, Refusal, TournamentActor};
use crate::moderation::chat_memory::AROUND;
use crate::moderation::{ChatLine, Context, NewReport, ReportKind};
use crate::outbound::Frame;

/// The lines a tournament keeps for a page opened later.
pub const KEPT: usize = 100;

/// A line as the tournament keeps it: what a page reads, and what only a report reads.
#[derive(Debug, Clone)]
struct KeptLine {
    line: TournamentChatLine,
    /// The speaker's player id (`p-...`, a guest's too): what a guest's mute names.
    player: String,
    /// The speaker's signed-in account, if any: what an account's mute names.
    account: Option<String>,
    /// The round started when it was said (`None` before the first).
    round: Option<u32>,
}

impl KeptLine {
    /// The line as a report keeps it (the moderation's `ChatLine`, numbered by `line`).
    fn for_report(&self) -> ChatLine {
        ChatLine {
            seq: self.line.line,
            seat: None,
            name: self.line.name.clone(),
            account: self.account.clone(),
            player: Some(self.player.clone()),
            text: self.line.text.clone(),
            at_ms: self.line.at_ms,
        }
    }
}

/// The recent lines, oldest first, and the next line's number.
#[derive(Debug, Default)]
pub struct ChatLines {
    lines: VecDeque<KeptLine>,
    said: u64,
}

impl ChatLines {
    /// Keeps a line (the oldest leaves past [`KEPT`]); returns it numbered.
    fn push(
        &mut self,
        mut line: TournamentChatLine,
        speaker: &Speaker,
        round: Option<u32>,
    ) -> TournamentChatLine {
        self.said += 1;
        line.line = self.said;
        if self.lines.len() == KEPT {
            self.lines.pop_front();
        }
        self.lines.push_back(KeptLine {
            line: line.clone(),
            player: speaker.player.clone(),
            account: speaker.account.clone(),
            round,
        });
        line
    }

    pub fn recent(&self) -> Vec<TournamentChatLine> {
        self.lines.iter().map(|kept| kept.line.clone()).collect()
    }

    /// The line numbered `number` and the [`AROUND`] lines each side of it, oldest first;
    /// `None` when it is not among the kept lines.
    fn around(&self, number: u64) -> Option<(&KeptLine, Vec<&KeptLine>)> {
        let at = self.lines.iter().position(|l| l.line.line == number)?;
        let from = at.saturating_sub(AROUND);
        let to = (at + AROUND + 1).min(self.lines.len());
        Some((&self.lines[at], self.lines.range(from..to).collect()))
    }
}

/// Who speaks: a player by id and the name its connection gave, its connection's signed-in
/// account, and the director's token if it speaks as the director.
#[derive(Debug)]
pub struct Speaker {
    pub player: String,
    pub name: String,
    pub account: Option<String>,
    pub director: Option<String>,
}

/// A reported line as the tournament read it: whom the report is about, and its context.
#[derive(Debug)]
pub struct ReportedLine {
    /// The speaker's account; `None` for a guest (named by `context.guest`).
    pub subject: Option<String>,
    pub subject_name: String,
    pub context: Context,
}

/// A `tournament_chat` as a connection sent it, made ready for the tournament as a director's
/// request is (`director_request::with_account`): a token written as an account's is blanked,
/// and an empty one from a signed-in connection becomes its account's.
pub fn with_account(mut message: ClientMessage, account: Option<&str>) -> ClientMessage {
    if let ClientMessage::TournamentChat {
        director: Some(director),
        ..
    } = &mut message
    {
        super::director_request::secure_token(director, account);
    }
    message
}

/// A muted account's or guest's `tournament_chat`, refused as a table's chat is (`muted`).
pub async fn muted(
    shared: &crate::Shared,
    account: Option<&str>,
    player: &str,
    request: &ClientMessage,
) -> Option<Refusal> {
    if !matches!(request, ClientMessage::TournamentChat { .. }) {
        return None;
    }
    crate::moderation::chat_refusal(&*shared.moderation.store, account, player)
        .await
        .map(|why| (ErrorCode::Muted, why))
}

impl TournamentActor {
    /// A line to the event: checked, kept, and told to everyone who hears the tournament.
    pub(super) fn chat(&mut self, speaker: Speaker, text: &str) -> Result<(), Refusal> {
        let (name, entrant, director) = match &speaker.director {
            Some(token) => {
                if !self.is_director(token) {
                    return Err((
                        ErrorCode::NotDirector,
                        "that is not this tournament's director token or account".into(),
                    ));
                }
                (speaker.name.clone(), None, true)
            }
            None => {
                let Some((entrant, name)) = self.entrant_player(&speaker.player) else {
                    return Err((
                        ErrorCode::NotRegistered,
                        "only the tournament's entrants and its director write in its chat".into(),
                    ));
                };
                if self.playing_now(&speaker.player) {
                    return Err((
                        ErrorCode::ChatClosed,
                        "the tournament's chat is closed to a player whose match is in play; \
                         the table's chat is open between hands"
                            .into(),
                    ));
                }
                (name, Some(entrant), false)
            }
        };
        let text = burraco_protocol::text::normalise_line(text, burraco_protocol::text::MAX_CHAT)
            .ok_or((
            ErrorCode::InvalidText,
            "chat text: 1 to 200 characters, without control, format (zero-width, \
                     bidi) or invisible characters"
                .into(),
        ))?;
        let round = self.state.rounds.len() as u32;
        let line = self.chat_lines.push(
            TournamentChatLine {
                line: 0,
                name,
                entrant,
                director,
                text,
                at_ms: crate::ids::unix_ms(),
            },
            &speaker,
            (round > 0).then_some(round),
        );
        let frame = Frame::new(ServerMessage::TournamentChatMessage {
            tournament: self.id.to_string(),
            line,
        });
        for player in self.chat_hearers(&speaker.player) {
            self.shared.tournaments.tell_frame(&player, &frame);
        }
        Ok(())
    }

    /// The line numbered `number` reported by `reporter` (a player id), with its context: the
    /// line, the [`AROUND`] lines each side, the tournament and the round then. Refused
    /// `invalid_report` for a line no longer kept (or never said) and for one's own line.
    pub(super) fn reported_line(
        &self,
        reporter: &str,
        number: u64,
    ) -> Result<ReportedLine, Refusal> {
        let Some((line, around)) = self.chat_lines.around(number) else {
            return Err((
                ErrorCode::InvalidReport,
                format!("no line {number} among the tournament chat's last {KEPT} lines"),
            ));
        };
        if line.player == reporter {
            return Err((
                ErrorCode::InvalidReport,
                "you cannot report your own line".into(),
            ));
        }
        let context = Context {
            tournament: Some(self.id.to_string()),
            round: line.round,
            line: Some(line.for_report()),
            chat: around.iter().map(|l| l.for_report()).collect(),
            chat_here: true,
            guest: line.account.is_none().then(|| line.player.clone()),
            ..Context::default()
        };
        Ok(ReportedLine {
            subject: line.account.clone(),
            subject_name: line.line.name.clone(),
            context,
        })
    }

    /// The entrant and registered name of `player`, an entrant's player still in the event.
    fn entrant_player(&self, player: &str) -> Option<(u32, String)> {
        self.state
            .entrants
            .iter()
            .filter(|e| !e.unregistered && e.disqualified.is_none())
            .find_map(|e| {
                let p = e.players.iter().find(|p| p.player == player)?;
                Some((e.id, p.name.clone()))
            })
    }

    /// Whether `player` sits at a table of the round in play whose match is not scored yet.
    fn playing_now(&self, player: &str) -> bool {
        let state = &self.state;
        let Some(round) = state.round_in_play() else {
            return false;
        };
        round.tables.iter().enumerate().any(|(i, t)| {
            round.results.get(i).is_some_and(Option::is_none)
                && state
                    .settings
                    .kind
                    .places(t)
                    .into_iter()
                    .any(|(entrant, index, _, _)| {
                        state
                            .player_at(round, entrant, index)
                            .is_some_and(|p| p.player == player)
                    })
        })
    }

    /// Every entrant's player (but the server's bots), every watcher, and the speaker, once each.
    fn chat_hearers(&self, speaker: &str) -> Vec<String> {
        let mut seen = HashSet::new();
        let entrants = self
            .state
            .entrants
            .iter()
            .filter(|e| !e.unregistered && !e.server_bot)
            .flat_map(|e| e.players.iter().map(|p| p.player.as_str()));
        entrants
            .chain(self.watchers.iter().map(String::as_str))
            .chain(std::iter::once(speaker))
            .filter(|p| seen.insert(*p))
            .map(str::to_owned)
            .collect()
    }
}

/// `tournament_report` (protocol 1.8), on the tournament's node: a line of `tournament`'s chat
/// reported by the signed-in `account` of `player`'s connection, read with its context by the
/// tournament and filed as the table's `report` is (one note rule, one filing path, one flood
/// limit); answered `report_filed` once stored.
pub async fn report(
    shared: &Arc<crate::Shared>,
    (player, account): (&str, Option<&str>),
    (id, tournament): (u64, &str),
    number: u64,
    reason: &str,
    note: Option<&str>,
) -> Result<ServerMessage, Refusal> {
    let Some(reporter) = account else {
        return Err((
            ErrorCode::AccountRequired,
            "reports are made by signed-in accounts".into(),
        ));
    };
    let (reason, note) = crate::moderation::protocol_report_fields(reason, note)
        .map_err(|(code, message)| (code, message.to_owned()))?;
    let handle = shared.tournaments.get(tournament).ok_or((
        ErrorCode::UnknownTournament,
        format!("no tournament {tournament:?}"),
    ))?;
    let reporter_player = player.to_owned();
    let reported = handle
        .ask(|reply| Command::ReportLine {
            reporter: reporter_player,
            line: number,
            reply,
        })
        .await?;
    if reported.subject.as_deref() == Some(reporter) {
        return Err((
            ErrorCode::InvalidReport,
            "you cannot report your own line".into(),
        ));
    }
    let report = NewReport::by_account(
        reporter,
        ReportKind::Chat,
        (reported.subject, reported.subject_name),
        None,
        (reason, note),
        reported.context,
    );
    match shared.moderation.file_by_account(&report).await {
        Ok(()) => {
            tracing::info!(report = %report.id, tournament, "tournament chat report");
            Ok(ServerMessage::ReportFiled {
                id,
                report: report.id,
            })
        }
        Err(e) => Err(crate::moderation::filing_refusal(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> TournamentChatLine {
        TournamentChatLine {
            line: 0,
            name: "Anna".into(),
            entrant: Some(0),
            director: false,
            text: text.into(),
            at_ms: 0,
        }
    }

    fn anna() -> Speaker {
        Speaker {
            player: "p-anna".into(),
            name: "Anna".into(),
            account: None,
            director: None,
        }
    }

    #[test]
    fn lines_are_numbered_from_1_and_the_oldest_leave_past_the_bound() {
        let mut chat = ChatLines::default();
        assert_eq!(chat.push(line("a"), &anna(), None).line, 1);
        for i in 0..KEPT {
            chat.push(line(&i.to_string()), &anna(), Some(1));
        }
        let recent = chat.recent();
        assert_eq!(recent.len(), KEPT);
        assert_eq!(recent[0].line, 2, "the first line left");
        assert_eq!(recent[KEPT - 1].line, KEPT as u64 + 1);
        assert!(chat.around(1).is_none(), "the first line left");
        let (at, around) = chat.around(50).expect("kept");
        assert_eq!((at.line.line, at.round), (50, Some(1)));
        let numbers: Vec<u64> = around.iter().map(|l| l.line.line).collect();
        assert_eq!(numbers, (45..=55).collect::<Vec<_>>());
        let (_, newest) = chat.around(KEPT as u64 + 1).expect("the newest");
        assert_eq!(newest.len(), AROUND + 1, "nothing after the newest line");
    }

    #[test]
    fn a_chat_speaks_for_an_account_only_from_its_connection() {
        let chat = |director: &str| ClientMessage::TournamentChat {
            id: 1,
            tournament: "T-1".into(),
            director: Some(director.into()),
            text: "hi".into(),
        };
        let director_of = |m: ClientMessage| match m {
            ClientMessage::TournamentChat { director, .. } => director,
            _ => None,
        };
        assert_eq!(
            director_of(with_account(chat(""), Some("u-1"))),
            Some("account:u-1".into())
        );
        assert_eq!(
            director_of(with_account(chat("account:u-2"), None)),
            Some(String::new()),
            "a client cannot write an account's token"
        );
        assert_eq!(
            director_of(with_account(chat("abc"), Some("u-1"))),
            Some("abc".into())
        );
    }
}
