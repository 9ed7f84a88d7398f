//! A seat's moves: the client messages `draw`, `pick_up`, `open`, `attach`, `discard` are the
//! rules' [`Action`]s addressed to a table. Both directions live here, so a new action is one
//! variant on each side and one arm in each function below.

use burraco_rules::Action;

use crate::wire::ClientMessage;

/// A move read from a client message: the request, the table it is for, and the rules action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableAction {
    pub id: u64,
    pub table: String,
    pub action: Action,
}

impl TableAction {
    /// The client message that asks for this move.
    pub fn to_wire(&self) -> ClientMessage {
        ClientMessage::action(&self.action, self.id, &self.table)
    }
}

impl ClientMessage {
    /// The message that plays `action` at `table` as request `id`.
    pub fn action(action: &Action, id: u64, table: &str) -> ClientMessage {
        let table = table.to_owned();
        match action {
            Action::Draw => ClientMessage::Draw { id, table },
            Action::PickUp => ClientMessage::PickUp { id, table },
            Action::Open { cards, wild_at } => ClientMessage::Open {
                id,
                table,
                cards: cards.clone(),
                wild_at: *wild_at,
            },
            Action::Attach {
                meld,
                cards,
                wild_at,
            } => ClientMessage::Attach {
                id,
                table,
                meld: *meld,
                cards: cards.clone(),
                wild_at: *wild_at,
            },
            Action::Discard { card } => ClientMessage::Discard {
                id,
                table,
                card: *card,
            },
        }
    }

    /// The move this message asks for, taking the message apart (no copy of its cards); every
    /// other message comes back unchanged in `Err`, for the caller's own dispatch.
    pub fn into_table_action(self) -> Result<TableAction, ClientMessage> {
        use ClientMessage as C;
        let (id, table, action) = match self {
            C::Draw { id, table } => (id, table, Action::Draw),
            C::PickUp { id, table } => (id, table, Action::PickUp),
            C::Open {
                id,
                table,
                cards,
                wild_at,
            } => (id, table, Action::Open { cards, wild_at }),
            C::Attach {
                id,
                table,
                meld,
                cards,
                wild_at,
            } => (
                id,
                table,
                Action::Attach {
                    meld,
                    cards,
                    wild_at,
                },
            ),
            C::Discard { id, table, card } => (id, table, Action::Discard { card }),
            other => return Err(other),
        };
        Ok(TableAction { id, table, action })
    }

    /// [`ClientMessage::into_table_action`] of a borrowed message; `None` when it is no move.
    pub fn table_action(&self) -> Option<TableAction> {
        if !self.is_action() {
            return None;
        }
        self.clone().into_table_action().ok()
    }

    /// Whether this message is a seat's move.
    pub fn is_action(&self) -> bool {
        use ClientMessage as C;
        matches!(
            self,
            C::Draw { .. }
                | C::PickUp { .. }
                | C::Open { .. }
                | C::Attach { .. }
                | C::Discard { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use burraco_rules::parse_cards;

    use super::*;

    #[test]
    fn every_action_goes_to_the_wire_and_back() {
        let cards = parse_cards("5H 6H JK").unwrap();
        for action in [
            Action::Draw,
            Action::PickUp,
            Action::Open {
                cards: cards.clone(),
                wild_at: Some(7),
            },
            Action::Attach {
                meld: 2,
                cards: cards.clone(),
                wild_at: None,
            },
            Action::Discard { card: cards[0] },
        ] {
            let message = ClientMessage::action(&action, 9, "t1");
            assert!(message.is_action());
            assert_eq!(message.kind(), action.code());
            let read = TableAction {
                id: 9,
                table: "t1".into(),
                action,
            };
            assert_eq!(message.table_action().as_ref(), Some(&read));
            assert_eq!(read.to_wire(), message);
            assert_eq!(message.into_table_action(), Ok(read));
        }
        let ping = ClientMessage::Ping { id: 1 };
        assert!(!ping.is_action());
        assert_eq!(ping.table_action(), None);
        assert_eq!(ping.clone().into_table_action(), Err(ping));
    }
}
