//! What a table tells the moderation (`crate::moderation`) and the moderation tells a table:
//! each chat line it published (kept for reports, and read by the chat filter); who sits at it
//! once a seat is taken (the same-address signal, at a rated table, and the seats it finds,
//! told to the table); the addresses accounts ask for seats from; and a player's `report`
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

    /// A request about to be read: an account asking for a seat from a known address (its
    /// connection's here, or its node's word for it in a cluster) is noted for the
    /// same-address signal.
    pub(super) fn note_address(&self, request: TableRequest) -> TableRequest {
        let takes_seat = matches!(
            request.message,
            ClientMessage::Join { .. } | ClientMessage::QuickPlay { .. }
        );
        if takes_seat && let (Some(account), Some(address)) = (&request.account, request.address) {
            (self.shared.moderation.seen).note(&account.id, address, crate::ids::unix_ms());
        }
        request
    }

    /// A seat was taken: at a rated table, the accounts seated here are checked for a shared
    /// address (reported to the moderators by `signals::seated`), and the seats found are told
    /// to the table when they change.
    pub(super) fn seats_changed(&mut self) {
        if !self.state.rated {
            return;
        }
        let seated: Vec<SeatedAccount> = Seat::ALL
            .into_iter()
            .filter_map(|seat| {
                let slot = self.state.seats[seat.index()].as_ref()?;
                Some(SeatedAccount {
                    seat,
                    account: slot.account.as_ref()?.id.clone(),
                    name: slot.name.clone(),
                })
            })
            .collect();
        if seated.len() < 2 {
            return;
        }
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let sharing: Vec<(Seat, String)> = signals::seated(
            &self.shared.moderation,
            &self.shared.tracker,
            &self.id,
            &seated,
            &info,
        )
        .into_iter()
        .filter_map(|seat| {
            let s = seated.iter().find(|s| s.seat == seat)?;
            Some((seat, s.account.clone()))
        })
        .collect();
        if sharing == self.same_address {
            return;
        }
        self.same_address = sharing;
        let Some(notice) = self.same_address_notice() else {
            return;
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
