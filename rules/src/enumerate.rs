//! Legal actions for the seat on turn, for bots and tests.
//!
//! Every action listed here is accepted by [`Game::apply`]; the property tests hold the two to it.
//! The lists are complete enough for a random player choosing only among them to finish any hand:
//! there is always a take, and after it always a discard.

use crate::card::Card;
use crate::game::{Action, Game, MeldId, Phase};
use crate::meld::{attachments, openable_melds};

impl Game {
    /// Draw and/or pick up, when the seat on turn has not taken yet.
    pub fn legal_takes(&self) -> Vec<Action> {
        let mut takes = Vec::with_capacity(2);
        if self.is_over() || self.phase() != Phase::Take {
            return takes;
        }
        if self.check_draw().is_ok() {
            takes.push(Action::Draw);
        }
        if self.check_pick_up().is_ok() {
            takes.push(Action::PickUp);
        }
        takes
    }

    /// Every meld the seat on turn may open now.
    pub fn legal_openings(&self) -> Vec<Action> {
        if self.phase() != Phase::Play {
            return Vec::new();
        }
        // The enumerated melds are valid and made of the hand's cards (`openable_melds` promises
        // each is what `Meld::open(cards, wild_position)` returns): only the game's checks remain.
        openable_melds(self.hand(self.on_turn()))
            .into_iter()
            .filter(|meld| self.check_opened(meld).is_ok())
            .map(|meld| Action::Open {
                cards: meld.cards().to_vec(),
                wild_at: meld.wild_position(),
            })
            .collect()
    }

    /// Every attachment the seat on turn may make to its side's melds now.
    pub fn legal_attachments(&self) -> Vec<Action> {
        if self.phase() != Phase::Play {
            return Vec::new();
        }
        let side = self.side_of(self.on_turn());
        let hand = self.hand(self.on_turn());
        let mut out = Vec::new();
        for (id, (meld_side, meld)) in self.melds().iter().enumerate() {
            if *meld_side != side {
                continue;
            }
            let id = id as MeldId;
            // As for openings, the attachments are valid by construction (and most melds take
            // nothing from a given hand, which `attachments` finds out first and cheaply).
            for a in attachments(meld, hand) {
                if self.check_attached(id, &a.cards, &a.result).is_ok() {
                    out.push(Action::Attach {
                        meld: id,
                        cards: a.cards.to_vec(),
                        wild_at: a.wild_at,
                    });
                }
            }
        }
        out
    }

    /// The discards the seat on turn may make, as actions.
    pub fn legal_discard_actions(&self) -> Vec<Action> {
        self.legal_discards()
            .into_iter()
            .map(|card: Card| Action::Discard { card })
            .collect()
    }

    /// Every legal action of the seat on turn: takes, or melds, attachments and discards.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase() {
            Phase::Take => self.legal_takes(),
            Phase::Play => {
                let mut all = self.legal_openings();
                all.extend(self.legal_attachments());
                all.extend(self.legal_discard_actions());
                all
            }
            Phase::Over => Vec::new(),
        }
    }
}
