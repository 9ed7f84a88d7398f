//! What each party may see (RULES.md section 12), as a pure function of the game.
//!
//! A view never holds another seat's hand, the tallone's order, an unseen pozzetto or the seed:
//! only counts and public cards. The property tests check this for every seat of every state.

use crate::card::Card;
use crate::config::MoveClock;
use crate::game::{Game, HandEnd, MeldId, Phase};
use crate::meld::Meld;
use crate::score::HandScore;
use crate::seat::{Players, Seat, Side};

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// A meld as everyone sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeldView {
    pub id: MeldId,
    pub side: Side,
    pub meld: Meld,
}

/// The table as one party may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableView {
    pub viewer: Viewer,
    pub players: Players,
    pub dealer: Seat,
    pub on_turn: Seat,
    pub phase: Phase,
    /// The viewer's own hand; `None` for a spectator, or while it is a pozzetto not yet visible.
    pub hand: Option<Vec<Card>>,
    /// Cards held by each seated player (public at a physical table).
    pub hand_sizes: Vec<(Seat, usize)>,
    pub melds: Vec<MeldView>,
    /// The discard pile, bottom first.
    pub pile: Vec<Card>,
    pub tallone: usize,
    /// Who took pozzetto A and B.
    pub pozzetti: [Option<Side>; 2],
    /// The single card picked up this turn, which its taker may not discard (art. 8).
    pub picked_single_card: Option<Card>,
    /// SHA-256 of the seed (never the seed itself during the hand).
    pub commitment: Option<[u8; 32]>,
    pub move_clock: Option<MoveClock>,
    pub last_round: Option<u8>,
    pub stallo_exchanges: u8,
    pub stallo_must_draw: Option<Seat>,
    pub result: Option<(HandEnd, HandScore)>,
    /// Every hand, once the hand is over (the record is public then).
    pub final_hands: Option<Vec<(Seat, Vec<Card>)>>,
}

impl Game {
    /// The table as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> TableView {
        let players = self.players();
        let hand = match viewer {
            Viewer::Seat(seat) if players.is_seated(seat) && self.hand_visible_to_owner(seat) => {
                Some(self.hand(seat).to_vec())
            }
            _ => None,
        };
        let mut pozzetti = [None, None];
        for side in Side::BOTH {
            if let Some(p) = self.pozzetto_of(side) {
                pozzetti[p.index()] = Some(side);
            }
        }
        let (stallo_exchanges, stallo_must_draw) = self.stallo();
        TableView {
            viewer,
            players,
            dealer: self.dealer(),
            on_turn: self.on_turn(),
            phase: self.phase(),
            hand,
            hand_sizes: players
                .seats()
                .iter()
                .map(|&s| (s, self.hand(s).len()))
                .collect(),
            melds: self
                .melds()
                .iter()
                .enumerate()
                .map(|(id, (side, meld))| MeldView {
                    id: id as MeldId,
                    side: *side,
                    meld: *meld,
                })
                .collect(),
            pile: self.pile().to_vec(),
            tallone: self.tallone_len(),
            pozzetti,
            picked_single_card: self.picked_single_card(),
            commitment: self.source().commitment(),
            move_clock: self.move_clock(),
            last_round: self.last_round(),
            stallo_exchanges,
            stallo_must_draw,
            result: self.result().map(|(end, score)| (end, score.clone())),
            final_hands: self.is_over().then(|| {
                players
                    .seats()
                    .iter()
                    .map(|&s| (s, self.hand(s).to_vec()))
                    .collect()
            }),
        }
    }
}
