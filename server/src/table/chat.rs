//! Table chat: fixed phrases at any time, free text only while no hand is in play (RULES.md 12).

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ServerMessage, WireSeat};

use super::TableActor;
use super::handle::Request;

/// The fixed chat phrases, open even while a hand is in play (RULES.md section 12).
const CHAT_PHRASES: &[&str] = &[
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "sorry",
    "goodbye",
];

impl TableActor {
    pub(super) fn chat(
        &mut self,
        player: &str,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
        req: Request,
    ) {
        let seat = self.seat_of(player);
        let watching = self.spectators.iter().any(|o| o.id() == req.out.id());
        if seat.is_none() && !watching {
            return req.error(
                ErrorCode::NotAtTable,
                "you are neither seated at nor watching this table",
            );
        }
        let text = match (text, phrase) {
            (_, Some(phrase)) => match CHAT_PHRASES.iter().find(|p| **p == phrase) {
                Some(p) => (*p).to_owned(),
                None => {
                    return req.error(
                        ErrorCode::UnknownPhrase,
                        format!("unknown phrase {phrase:?}"),
                    );
                }
            },
            (Some(text), None) => {
                if self.state.hand.as_ref().is_some_and(|h| !h.is_over()) {
                    return req.error(
                        ErrorCode::ChatClosed,
                        "free-text chat is closed while a hand is in play; fixed phrases stay open (RULES.md 12)",
                    );
                }
                // A line others read: the rule of names (no bidi override turning what it
                // says around, nothing invisible), up to 200 characters.
                match burraco_protocol::text::normalise_line(
                    &text,
                    burraco_protocol::text::MAX_CHAT,
                ) {
                    Some(text) => text,
                    None => {
                        return req.error(
                            ErrorCode::InvalidText,
                            "chat text: 1 to 200 characters, without control, format (zero-width, \
                             bidi) or invisible characters",
                        );
                    }
                }
            }
            (None, None) => {
                return req.error(ErrorCode::InvalidMessage, "chat needs text or phrase");
            }
        };
        let id = req.id;
        let (said_by, said) = (name.clone(), text.clone());
        self.publish(None, |table, seq| ServerMessage::ChatMessage {
            table,
            seq,
            seat: seat.map(WireSeat),
            name,
            text,
        });
        // Delivered as written; the moderation keeps it, and reports it if the filter flags it.
        self.chat_published(player, seat, &said_by, &said);
        req.reply(ServerMessage::Ok { id });
    }
}
