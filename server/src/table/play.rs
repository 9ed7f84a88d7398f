//! Play, from the match's start to each hand's end: dealing, the one path of every input
//! ([`TableActor::process`]: check, append durably, play, publish), and what a hand's end does
//! to the match.

use burraco_protocol::ErrorCode;
use burraco_protocol::log::{MatchEndCode, MatchResult, TableEntry};
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::{Action, Game, HandEnd, Input, Match, MatchEnd, Side};
use tokio::time::Instant;

use super::hand_log::HandLog;
use super::handle::Request;
use super::{Staged, Status, TableActor};

/// Why an input was not applied.
pub(super) enum Refused {
    NoHand,
    Illegal(burraco_rules::IllegalAction),
    /// The input could not be made durable; nothing changed.
    Log,
}

/// What a finished hand does to the match: the one place that learns a TIME OUT (the hand's
/// last round was announced) and a void hand from the hand itself. The live table and a restore
/// both call it.
pub(super) fn settle_hand(matc: &mut Match, game: &Game) {
    let Some((end, score)) = game.result() else {
        return;
    };
    if game.last_round().is_some() {
        matc.time_out();
    }
    let settled = if end == HandEnd::Voided {
        matc.record_void_hand()
    } else {
        matc.record_hand(score)
    };
    if let Err(e) = settled {
        tracing::error!("the match refused the hand's result: {e}");
    }
}

impl TableActor {
    pub(super) async fn start_match(&mut self) {
        let seats = self.players().seats();
        let draw = self
            .shared
            .config
            .fixed_seed
            .map_or_else(|| crate::ids::random_bytes::<1>()[0], |seed| seed[0]);
        let first = seats[usize::from(draw) % seats.len()];
        let first = self.state.boards.as_ref().map_or(first, |b| b.first_dealer);
        // Checked before it is logged: a match that cannot start is not written.
        if Match::new(self.state.config, first, false).is_err() {
            return;
        }
        let started = TableEntry::MatchStarted {
            first_dealer: first.index() as u8,
            round_started_ms: crate::ids::unix_ms(),
        };
        if let Err(e) = self.append(&[started]).await {
            tracing::error!("cannot start the match: {e}");
            return;
        }
        // Folded on appending: the match and the table's status.
        let round = self.round_clock_ms();
        // Started during its tournament's pause: the round clock runs from the resume (the log's
        // reckoning counts the pause out).
        self.round_deadline = round
            .filter(|_| !self.state.paused())
            .map(|ms| Instant::now() + std::time::Duration::from_millis(ms));
        self.publish(None, |table, seq| ServerMessage::MatchStarted {
            table,
            seq,
            first_dealer: WireSeat(first),
            round_clock_ms: round,
        });
        self.refresh_info();
        self.deal_hand().await;
    }

    pub(super) async fn deal_hand(&mut self) {
        let Some(dealer) = self
            .state
            .matc
            .as_ref()
            .and_then(Match::dealer_of_next_hand)
        else {
            return;
        };
        let seed = self
            .shared
            .config
            .fixed_seed
            .unwrap_or_else(crate::ids::random_bytes::<32>);
        let number = self.state.hand_no + 1;
        let seed = self.board_seed(number).unwrap_or(seed);
        let (hand, events) =
            match HandLog::deal(self.state.config, dealer, number, seed, Instant::now()) {
                Ok(dealt) => dealt,
                Err(e) => {
                    tracing::error!("cannot deal: {e}");
                    return;
                }
            };
        if let Err(e) = self.append(&[hand.dealt_entry(self.seq)]).await {
            tracing::error!("cannot save the deal: {e}");
            self.next_hand_at = Some(Instant::now() + std::time::Duration::from_secs(1));
            return;
        }
        // The deal's entry counted the hand on appending; the hand itself is dealt here.
        self.state.hand = Some(hand);
        self.publish_events(&events);
        if self.pending_time_out {
            self.pending_time_out = false;
            let _ = self.process(Input::TimeOut).await;
        }
    }

    /// Between hands: the next hand is dealt once every player has said `ready` (bots are ready
    /// at once), or at the latest `next_hand_delay` after this hand's end, so nobody is hurried
    /// past the score and nobody waits for a player who has gone.
    fn await_next_hand(&mut self) {
        self.reset_ready();
        let now = Instant::now();
        let wait = if self.all_ready() {
            std::time::Duration::ZERO
        } else {
            self.shared.config.next_hand_delay
        };
        if self.state.paused() {
            // A hand finished during its tournament's pause: the next is dealt after the resume.
            self.held.hold_next_hand(wait);
            return;
        }
        self.next_hand_at = Some(now + wait);
    }

    pub(super) async fn act(&mut self, player: &str, action: Action, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            return req.error(ErrorCode::NotSeated, "you are not seated at this table");
        };
        if crate::bots::is_bot_conn(req.out.id()) {
            // A stand-in's request still queued when its player took the seat back.
            let drives = self.state.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.out.as_ref())
                .is_some_and(|o| o.id() == req.out.id());
            if !drives {
                return req.error(ErrorCode::NotSeated, "this bot no longer plays the seat");
            }
        }
        let id = req.id;
        let think = self.think(seat, Instant::now());
        // Everything the action publishes goes out at its end, with the reply: one write per seat.
        self.staged = Some(Staged::default());
        let processed = self.process(Input::Act { seat, action }).await;
        let reply = processed
            .is_ok()
            .then_some((&req.out, ServerMessage::Ok { id }));
        self.release_staged(reply, Some(req.received));
        match processed {
            Ok(()) => {
                let received = req.received;
                let _ = req.done.send(());
                self.note_think(seat, think).await;
                metrics::counter!("burraco_actions_total").increment(1);
                metrics::histogram!("burraco_action_latency_seconds")
                    .record(received.elapsed().as_secs_f64());
            }
            Err(Refused::NoHand) => {
                req.error(ErrorCode::NoHandInPlay, "no hand is in play at this table")
            }
            Err(Refused::Log) => req.error(
                ErrorCode::InternalError,
                "the move could not be saved; it was not played",
            ),
            Err(Refused::Illegal(e)) => req.refuse(
                ErrorCode::IllegalAction,
                e.to_string(),
                Some(e.code().into()),
            ),
        }
    }

    /// The one path of every input: check (a refusal changes nothing), append durably, play,
    /// publish, finish the hand if it ended. Nothing is undone: the hand is only played once its
    /// input is durable.
    pub(super) async fn process(&mut self, input: Input) -> Result<(), Refused> {
        let Some(hand) = self.state.hand.as_ref().filter(|h| !h.is_over()) else {
            return Err(Refused::NoHand);
        };
        let pending = hand
            .check(&input, Instant::now())
            .map_err(Refused::Illegal)?;
        if let Err(e) = self.append_encoded(vec![pending.entry()]).await {
            tracing::error!("input not saved: {e}");
            return Err(Refused::Log);
        }
        let Some(hand) = self.state.hand.as_mut() else {
            return Err(Refused::NoHand);
        };
        let events = match hand.play(pending) {
            Ok(events) => events,
            Err(e) => {
                // Only if the hand changed between the check and now, which nothing does: the
                // log holds an input the game did not play, so the table must not go on.
                tracing::error!("a durable input was refused on playing it: {e}");
                self.stop_serving();
                return Err(Refused::Log);
            }
        };
        if input == Input::TimeOut {
            self.round_deadline = None;
        }
        self.publish_events(&events);
        if self.state.hand.as_ref().is_some_and(HandLog::is_over) {
            self.finish_hand().await;
        }
        Ok(())
    }

    async fn finish_hand(&mut self) {
        self.move_timer = None;
        let players = self.players();
        let names = self.seat_names();
        let identities = self.seat_identities();
        let (Some(hand), Some(matc)) = (self.state.hand.as_mut(), self.state.matc.as_mut()) else {
            return;
        };
        settle_hand(matc, hand.game());
        let Some(mut record) = hand.finish(names) else {
            return;
        };
        super::identities::label_record(&mut record, &identities);
        if self.state.boards.is_some() {
            // A duplicate board's seed is the tournament's to reveal, once every table played it.
            record.seed = None;
        }
        let number = hand.number();
        let json = record.to_json();
        let names = record.seats.iter().map(|s| s.name.clone()).collect();
        let mut entries = vec![TableEntry::HandFinished {
            hand: number,
            record: json.clone(),
            names,
        }];
        let result = matc.result();
        // Who won, by the one rule every reader of the match uses (its VP; a 10-10 is a draw
        // whatever the totals): the log and `match_ended` say the same as the player's page,
        // the season and the rating.
        let winner = result.as_ref().and_then(|result| {
            let column = burraco_ratings::scoring_column(matc.config(), result.hands);
            let outcomes = burraco_ratings::match_outcomes(result.vp, result.totals, column);
            let side = burraco_ratings::winning_side(outcomes)?;
            Some(players.side_label(Side::BOTH[side]).to_owned())
        });
        if let Some(result) = &result {
            let logged = MatchResult {
                sides: Side::BOTH
                    .iter()
                    .map(|&s| players.side_label(s).to_owned())
                    .collect(),
                totals: result.totals,
                winner: winner.clone(),
                vp: result.vp,
                end: match result.end {
                    MatchEnd::Hands => MatchEndCode::Hands,
                    MatchEnd::Target => MatchEndCode::Target,
                    MatchEnd::TimeOut => MatchEndCode::TimeOut,
                },
                hands: result.hands,
            };
            entries.push(TableEntry::MatchFinished {
                result: logged.to_json(),
            });
        }
        // Pending before the end is logged: whatever crash follows, a sweep runs the match-end
        // projections (fair play, ratings, the players' index) exactly once.
        let ended_ms = match result {
            Some(_) => Some(crate::match_end::pending(&*self.shared.ratings, &self.id).await),
            None => None,
        };
        if let Err(e) = self.append(&entries).await {
            tracing::error!("hand record not saved: {e}");
        } else if let Some(ended_ms) = ended_ms {
            // Its end is in the log: the projections and the tournament read it from there.
            self.shared.match_ends.announce(&self.id, ended_ms);
            if let Some(tournament) = &self.state.tournament {
                self.shared.tournaments.table_ended(tournament, &self.id);
                // An arena match's next table: its turn came.
                crate::arena::table_ended(&self.shared, tournament, &self.id, ended_ms);
            }
        }
        self.publish(None, |table, seq| ServerMessage::HandRecord {
            table,
            seq,
            hand: number,
            record: json,
        });
        match result {
            Some(result) => {
                self.publish(None, |table, seq| ServerMessage::MatchEnded {
                    table,
                    seq,
                    sides: Side::BOTH
                        .iter()
                        .map(|&s| players.side_label(s).to_owned())
                        .collect(),
                    totals: result.totals.to_vec(),
                    winner: winner.clone(),
                    vp: result.vp.map(|v| v.to_vec()),
                });
                // Folded from `MatchFinished` on appending; set here also when that append
                // failed: the match is over all the same (a restore finds it over from its hands).
                self.state.status = Status::Finished;
                self.round_deadline = None;
                self.linger_until = Some(Instant::now() + self.shared.config.finished_linger);
                for slot in self.state.seats.iter().flatten() {
                    self.shared.directory.forget_seat(&slot.player, &self.id);
                }
                self.refresh_info();
            }
            None => self.await_next_hand(),
        }
    }
}
