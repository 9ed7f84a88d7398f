//! What a table tells the moderation (`crate::moderation`) and the moderation tells a table:
//! each chat line it published (kept for reports, and read by the chat filter); who sits at it,
//! and through which connection, once a seat is taken or a seat's connection comes or goes (the
//! same-address signal, at a rated table, and the seats it finds, told to the table); the
//! addresses accounts' connections ask for seats from; and a player's `report`
//! (protocol 1.7), which the table answers because it holds the context: the seats, the hand,
//! the chat lines (on the node serving it, whichever node the reporter is connected to).
//! Nothing here waits on the store: reports are filed in the background.

use burraco_protocol::ErrorCode;
use burraco_protocol::log::SeatAccount;
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat};
use burraco_rules::Seat;

use super::TableActor;
use super::handle::{Request, TableRequest};
use crate::moderation::signals::{self, SeatedAccount};
use crate::moderation::{ChatLine, NewReport, ReportKind, filing_refusal, protocol_report_fields};
use crate::outbound::Outbox;

impl TableActor {
    /// The chat line just published (the table's last event), by `player` from `seat` or as a
    /// spectator.
    pub(super) fn chat_published(&self, player: &str, seat: Option<Seat>, name: &str, text: &str) {
        let account = seat
            .and_then(|s| self.state.seats[s.index()].as_ref())
            .and_then(|slot| slot.account.as_ref())
            .map(|a| a.id.clone());
        let line = ChatLine {
            seq: self.seq,
            seat: seat.map(|s| s.to_string()),
            name: name.to_owned(),
            account,
            player: Some(player.to_owned()),
            text: text.to_owned(),
            at_ms: crate::ids::unix_ms(),
        };
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        signals::chat_line(
            &self.shared.moderation,
            &self.shared.tracker,
            &self.id,
            line,
            &info,
        );
    }

    /// A request about to be read: an account's connection asking for a seat from a known
    /// address (its own here, or its node's word for it in a cluster) is noted for the
    /// same-address signal, by the connection.
    pub(super) fn note_address(&self, request: TableRequest) -> TableRequest {
        let takes_seat = matches!(
            request.message,
            ClientMessage::Join { .. } | ClientMessage::QuickPlay { .. }
        );
        if takes_seat && let (Some(account), Some(address)) = (&request.account, request.address) {
            let conn = request.req.out.id();
            (self.shared.moderation.seen).note(&account.id, conn, address, crate::ids::unix_ms());
        }
        request
    }

    /// A seated player's request through `out`: the first through a connection that holds its
    /// seat checks the addresses again. A connection that comes back is attached to its seats
    /// (`conn/hello.rs`) before its address is registered (`conn`), so the check its attach made may
    /// not have known it; by its first request it does.
    pub(super) fn first_request_through(&mut self, player: &str, out: &Outbox) {
        if !self.state.rated {
            return;
        }
        let Some(seat) = self.seat_of(player) else {
            return;
        };
        let holds = self.state.seats[seat.index()]
            .as_ref()
            .and_then(|slot| slot.out.as_ref())
            .is_some_and(|o| o.id() == out.id());
        let checked = &mut self.same_address_checked[seat.index()];
        if !holds || *checked == Some(out.id()) {
            return;
        }
        *checked = Some(out.id());
        self.seats_changed();
    }

    /// A seat was taken, or a seat's connection came, went or made its first request: at a
    /// rated table, the accounts seated here are checked for connections that share an address
    /// now (`signals::sharing`), and when the seats found change they are reported to the
    /// moderators and told to the table (an empty list when none share one any more).
    pub(super) fn seats_changed(&mut self) {
        if !self.state.rated {
            return;
        }
        let seated: Vec<SeatedAccount> = Seat::ALL
            .into_iter()
            .filter_map(|seat| {
                let slot = self.state.seats[seat.index()].as_ref()?;
                let conn = slot
                    .out
                    .as_ref()
                    .filter(|o| slot.bot.is_none() && !o.is_gone())
                    .map(Outbox::id);
                Some(SeatedAccount {
                    seat,
                    account: slot.account.as_ref()?.id.clone(),
                    name: slot.name.clone(),
                    conn,
                })
            })
            .collect();
        if seated.len() < 2 && self.same_address.is_empty() {
            return;
        }
        let pairs = signals::sharing(&self.shared.moderation, &seated);
        let mut sharing: Vec<(Seat, String)> = pairs
            .iter()
            .flat_map(|(a, b)| [(a.seat, a.account.clone()), (b.seat, b.account.clone())])
            .collect();
        sharing.sort_by_key(|(seat, _)| seat.index());
        sharing.dedup();
        if sharing == self.same_address {
            return;
        }
        // Reported when what the table is told changes: a seat taken again, a request, a
        // connection that comes back find the same pairs without a word to the moderators.
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        signals::report_sharing(
            &self.shared.moderation,
            &self.shared.tracker,
            &self.id,
            &pairs,
            &info,
        );
        let told = !self.same_address.is_empty();
        self.same_address = sharing;
        let notice = match self.same_address_notice() {
            Some(notice) => notice,
            // What the table was told is no longer so: it hears that no seat shares one now.
            None if told => ServerMessage::SameAddress {
                table: self.id.to_string(),
                seats: Vec::new(),
            },
            None => return,
        };
        let receivers = self
            .state
            .seats
            .iter()
            .flatten()
            .filter_map(|s| s.out.as_ref())
            .chain(self.spectators.iter());
        for out in receivers {
            if out.reads(&notice) {
                out.send_message(notice.clone());
            }
        }
    }

    /// The seats sharing an address that are still held by the accounts found there (a seat
    /// left since, or taken by another, is not named); `None` when fewer than two are.
    fn same_address_notice(&self) -> Option<ServerMessage> {
        let seats: Vec<WireSeat> = self
            .same_address
            .iter()
            .filter(|(seat, account)| {
                self.state.seats[seat.index()]
                    .as_ref()
                    .and_then(|slot| slot.account.as_ref())
                    .is_some_and(|a| a.id == *account)
            })
            .map(|(seat, _)| WireSeat(*seat))
            .collect();
        (seats.len() >= 2).then(|| ServerMessage::SameAddress {
            table: self.id.to_string(),
            seats,
        })
    }

    /// After a snapshot: the seats sharing an address, when some do (a 1.7 receiver's).
    pub(super) fn send_same_address_after_snapshot(&self, out: &Outbox) {
        if let Some(notice) = self.same_address_notice()
            && out.reads(&notice)
        {
            out.send_message(notice);
        }
    }

    /// `report` (protocol 1.7): a seat's player or a chat line reported by an account seated
    /// here or watching, kept with what the table knows (its seats, the hand, the chat lines
    /// around the line or the latest ones), answered `report_filed` once stored.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report(
        &mut self,
        player: &str,
        account: Option<SeatAccount>,
        seat: Option<Seat>,
        seq: Option<u64>,
        reason: String,
        note: Option<String>,
        req: Request,
    ) {
        let Some(reporter) = account else {
            return req.error(
                ErrorCode::AccountRequired,
                "reports are made by signed-in accounts",
            );
        };
        let watching = self.spectators.iter().any(|o| o.id() == req.out.id());
        if self.seat_of(player).is_none() && !watching {
            return req.error(
                ErrorCode::NotAtTable,
                "you are neither seated at nor watching this table",
            );
        }
        let (reason, note) = match protocol_report_fields(&reason, note.as_deref()) {
            Ok(fields) => fields,
            Err((code, message)) => return req.error(code, message),
        };
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut context = signals::context_of(&self.id, &info);
        let chat = &self.shared.moderation.chat;
        let (kind, subject, subject_name, guest) = match (seat, seq) {
            (Some(seat), None) => {
                if !self.players().is_seated(seat) {
                    return req.error(
                        ErrorCode::InvalidSeat,
                        format!("seat {seat} is not in play at this table"),
                    );
                }
                let Some(slot) = self.state.seats[seat.index()].as_ref() else {
                    return req.error(ErrorCode::InvalidSeat, format!("nobody sits at {seat}"));
                };
                if slot.bot.is_some_and(|b| !b.stand_in) {
                    return req.error(
                        ErrorCode::InvalidSeat,
                        format!("the server's own bot plays {seat}"),
                    );
                }
                if slot.player == player {
                    return req.error(ErrorCode::InvalidReport, "you cannot report yourself");
                }
                context.chat = chat.latest(&self.id);
                context.chat_here = true;
                let account = slot.account.as_ref().map(|a| a.id.clone());
                let guest = account.is_none().then(|| slot.player.clone());
                (ReportKind::Player, account, slot.name.clone(), guest)
            }
            (None, Some(seq)) => {
                let Some((line, around)) = chat.around(&self.id, seq) else {
                    return req.error(
                        ErrorCode::InvalidReport,
                        format!("no chat line {seq} among this table's recent lines"),
                    );
                };
                if line.player.as_deref() == Some(player) {
                    return req.error(ErrorCode::InvalidReport, "you cannot report your own line");
                }
                context.chat = around;
                context.chat_here = true;
                let guest = match line.account {
                    None => line.player.clone(),
                    Some(_) => None,
                };
                context.line = Some(line.clone());
                (ReportKind::Chat, line.account, line.name, guest)
            }
            _ => {
                return req.error(
                    ErrorCode::InvalidReport,
                    "a report names a seat or a chat line (its seq), not both",
                );
            }
        };
        if subject.as_deref() == Some(reporter.id.as_str()) {
            return req.error(ErrorCode::InvalidReport, "you cannot report yourself");
        }
        context.guest = guest;
        let report = NewReport::by_account(
            &reporter.id,
            kind,
            (subject, subject_name),
            Some(self.id.to_string()),
            (reason, note),
            context,
        );
        // Stored off the table's task; the reporter's next request waits for the reply.
        let shared = self.shared.clone();
        self.shared.tracker.spawn(async move {
            let filed = shared.moderation.file_by_account(&report).await;
            match filed {
                Ok(()) => {
                    tracing::info!(report = %report.id, kind = report.kind.as_str(), "report");
                    let id = req.id;
                    req.reply(ServerMessage::ReportFiled {
                        id,
                        report: report.id,
                    });
                }
                Err(e) => {
                    let (code, message) = filing_refusal(e);
                    req.error(code, message);
                }
            }
        });
    }
}
