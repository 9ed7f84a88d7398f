//! Legal actions for the seat on turn, for bots and tests.
//!
//! Every action listed here is accepted by [`Game::apply`]; the property tests hold the two to it.
//! The lists are complete enough for a random player choosing only among them to finish any hand:
//! there is always a take, and after it always a discard.

use crate::card::{Card, Hand, Rank, Suit};
use crate::game::{Action, Game, MeldId, Phase};
use crate::meld::{Meld, MeldShape, attachments, openable_melds};

/// A cheap necessary condition for [`attachments`] to find anything, checked first because most
/// melds on the table take nothing from a given hand. An attachment holds a natural card of the
/// meld's rank (a combination) or of its suit near its naturals (a sequence: the new natural
/// nearest to them is at most two positions away, one wild filling the gap, or is the natural
/// card a bound wild stands for), or else only wilds, which a meld that already has a wild refuses
/// (art. 10: one wild at most; its wild moves only when its natural card comes with it) unless
/// that wild is the sequence's own 2.
fn might_attach(meld: &Meld, hand: &Hand) -> bool {
    let own = match meld.shape() {
        MeldShape::Combination { rank } => Suit::ALL
            .iter()
            .any(|&suit| hand.contains(Card::new(rank, suit))),
        MeldShape::Sequence { suit } => {
            let start = meld.start().unwrap_or(1);
            let end = start + meld.len() as u8 - 1;
            let (mut low, mut high) = (start, end);
            match meld.wild_position() {
                Some(p) if p == start => low += 1,
                Some(p) if p == end => high -= 1,
                _ => {}
            }
            let near = |pos: u8| pos + 2 >= low && pos <= high + 2;
            Rank::ALL.iter().any(|&rank| {
                let n = rank.number();
                hand.contains(Card::new(rank, suit)) && (near(n) || (rank == Rank::Ace && near(14)))
            })
        }
    };
    // A sequence whose wild is its own 2 may still take a wild: the 2 can move to its natural
    // position and leave the wild's role to the newcomer.
    let takes_a_wild = match (meld.wild_card(), meld.shape()) {
        (None, _) => true,
        (Some(wild), MeldShape::Sequence { suit }) => wild == Card::new(Rank::Two, suit),
        (Some(_), MeldShape::Combination { .. }) => false,
    };
    own || (takes_a_wild
        && (hand.contains(Card::JOKER)
            || Suit::ALL
                .iter()
                .any(|&suit| hand.contains(Card::new(Rank::Two, suit)))))
}

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
            if !might_attach(meld, hand) {
                continue;
            }
            let id = id as MeldId;
            // As for openings, the attachments are valid by construction.
            for a in attachments(meld, hand) {
                if self.check_attached(id, &a.cards, &a.result).is_ok() {
                    out.push(Action::Attach {
                        meld: id,
                        cards: a.cards,
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
