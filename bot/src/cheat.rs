//! Cheating bots, for proving the fair-play detectors (docs/FAIR_PLAY.md), and an in-process loop
//! that plays a hand with them and writes its [`HandRecord`].
//!
//! Every cheater is L2 ([`Expert`](crate::Expert)) with one difference, so a detector that flags
//! it flags the cheating and nothing else: its discard is re-ranked with information an honest
//! seat does not have.
//!
//! - [`Cheat::SeesPartner`]: sees its partner's hand and discards what the partner can use (the
//!   pile it grows is the partner's to pick up).
//! - [`Cheat::SeesNextOpponent`]: sees the next opponent's hand and never feeds it, the way L2
//!   avoids the cards it saw that opponent pick up, but over the whole hand.
//! - [`Cheat::Signals`]: a pair with a code in its discards and no peeking at all. The suit of a
//!   discard is the suit after the one the discarder holds most of (hearts, diamonds, clubs,
//!   spades, round again), chosen among near-equal discards so the hand hardly suffers; the partner
//!   decodes the latest signal and discards in the signalled suit, feeding the long suit.
//!
//! Nothing here is reachable from the server: these bots exist for the detectors' harness.

use burraco_protocol::record::{HandRecord, RecordOutcome};
use burraco_rules::{
    Action, Card, Config, DealSource, Game, Hand, Seat, SeatKnowledge, Seed, Suit,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::arena::ArenaError;
use crate::strategy::expert::{expert_choice, expert_discards, feeds_known};
use crate::strategy::{Decision, Strategy};

/// How a cheater cheats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cheat {
    SeesPartner,
    SeesNextOpponent,
    Signals,
}

impl Cheat {
    pub const ALL: [Cheat; 3] = [Cheat::SeesPartner, Cheat::SeesNextOpponent, Cheat::Signals];

    pub fn code(self) -> &'static str {
        match self {
            Cheat::SeesPartner => "sees-partner",
            Cheat::SeesNextOpponent => "sees-next-opponent",
            Cheat::Signals => "signals",
        }
    }
}

/// How strongly a signalling discard may be worse than L2's own choice (in L2's discard score).
const SIGNAL_SLACK: i32 = 15;
/// How much the signal receiver prefers a discard in the signalled suit.
const SIGNAL_PULL: i32 = 30;

/// L2 plus one cheat. It needs the real game (`truth`) for the peeking cheats.
#[derive(Debug, Clone)]
pub struct Cheater {
    cheat: Cheat,
}

impl Cheater {
    pub fn new(cheat: Cheat) -> Cheater {
        Cheater { cheat }
    }

    pub fn cheat(&self) -> Cheat {
        self.cheat
    }

    /// L2's decision, with the discard re-ranked by the cheat.
    pub fn choose(&mut self, decision: &Decision<'_>, truth: &Game) -> Action {
        let know = decision.knowledge;
        let honest = expert_choice(decision.world, decision.legal, Some(know));
        if !matches!(honest, Action::Discard { .. }) {
            return honest;
        }
        let ranked = expert_discards(decision.world, decision.legal, Some(know));
        if ranked.len() < 2 {
            return honest;
        }
        let seat = know.seat();
        let players = know.players();
        let adjusted: Vec<(i32, Action)> = match self.cheat {
            Cheat::SeesPartner => {
                let partner = truth.hand(seat.partner());
                ranked
                    .into_iter()
                    .map(|(s, a)| (s - discard_feeds(&a, partner), a))
                    .collect()
            }
            Cheat::SeesNextOpponent => {
                let next = truth.hand(players.next(seat));
                ranked
                    .into_iter()
                    .map(|(s, a)| (s + discard_feeds(&a, next), a))
                    .collect()
            }
            Cheat::Signals => return signal_discard(know, ranked).unwrap_or(honest),
        };
        adjusted
            .into_iter()
            .min_by_key(|(s, _)| *s)
            .map(|(_, a)| a)
            .unwrap_or(honest)
    }
}

fn discard_feeds(action: &Action, hand: &Hand) -> i32 {
    match action {
        Action::Discard { card } => feeds_known(hand, *card),
        _ => 0,
    }
}

/// The suit `hand` holds most natural cards of (ties: the first in [`Suit::ALL`]).
pub fn longest_suit(hand: &Hand) -> Suit {
    let count = |s: Suit| {
        hand.cards()
            .filter(|c| !c.is_wild() && c.suit() == Some(s))
            .count()
    };
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| (count(s), std::cmp::Reverse(s as u8)))
        .unwrap_or(Suit::Hearts)
}

fn rotate(suit: Suit, by: usize) -> Suit {
    let i = Suit::ALL.iter().position(|&s| s == suit).unwrap_or(0);
    Suit::ALL[(i + by) % 4]
}

/// The suit a signaller holding `hand` discards in: the one after its longest.
pub fn signal_for(hand: &Hand) -> Suit {
    rotate(longest_suit(hand), 1)
}

/// The suit a signal asks for: the one before the discard's.
pub fn decode_signal(discard: Card) -> Option<Suit> {
    (!discard.is_wild())
        .then(|| discard.suit())
        .flatten()
        .map(|s| rotate(s, 3))
}

fn signal_discard(know: &SeatKnowledge, ranked: Vec<(i32, Action)>) -> Option<Action> {
    let partner = know.seat().partner();
    let wanted = know
        .discards()
        .iter()
        .rev()
        .find(|(s, _)| *s == partner)
        .and_then(|(_, c)| decode_signal(*c));
    let suit_of = |a: &Action| match a {
        Action::Discard { card } if !card.is_wild() => card.suit(),
        _ => None,
    };
    let scored: Vec<(i32, Action)> = ranked
        .into_iter()
        .map(|(s, a)| {
            let pull = if wanted.is_some() && suit_of(&a) == wanted {
                SIGNAL_PULL
            } else {
                0
            };
            (s - pull, a)
        })
        .collect();
    let best = scored.iter().map(|(s, _)| *s).min()?;
    let signal = signal_for(know.hand()?);
    scored
        .iter()
        .filter(|(s, a)| *s <= best + SIGNAL_SLACK && suit_of(a) == Some(signal))
        .min_by_key(|(s, _)| *s)
        .or_else(|| scored.iter().find(|(s, _)| *s == best))
        .map(|(_, a)| a.clone())
}

/// Who plays a seat in [`play_recorded_hand`].
#[derive(Debug)]
pub enum Player {
    Honest(Box<dyn Strategy>),
    Cheater(Cheater),
}

/// Plays one hand in process, every seat by its `players` entry (indexed by [`Seat::index`]),
/// named `names[i]` in the record, and returns its complete record (outcome and final hands
/// included). `rng_seed` fixes the determinizations the strategies see.
pub fn play_recorded_hand(
    config: Config,
    dealer: Seat,
    seed: Seed,
    players: &mut [Player; 4],
    names: &[String; 4],
    rng_seed: u64,
) -> Result<HandRecord, ArenaError> {
    let source = DealSource::Seed(seed);
    let (mut game, events) =
        Game::new(config, dealer, source.clone()).map_err(|e| ArenaError::Deal(e.to_string()))?;
    let seated = config.players().seats();
    let mut record = HandRecord::new(
        &config,
        seated.iter().map(|s| (*s, names[s.index()].clone())),
        dealer,
        &source,
    );
    let mut know: Vec<SeatKnowledge> = Seat::ALL
        .iter()
        .map(|&s| SeatKnowledge::new(config, s))
        .collect();
    for k in &mut know {
        events.iter().for_each(|e| k.observe(e));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    const MAX_ACTIONS: usize = 5000;
    for _ in 0..MAX_ACTIONS {
        if let Some((end, score)) = game.result() {
            let hands: Vec<(Seat, Vec<Card>)> =
                seated.iter().map(|&s| (s, game.hand(s).to_vec())).collect();
            record.finish(RecordOutcome::new(
                config.players(),
                end,
                score,
                Some(&hands),
            ));
            return Ok(record);
        }
        let seat = game.on_turn();
        let legal = game.legal_actions();
        let k = &know[seat.index()];
        let world = k.determinize(&mut rng)?;
        let decision = Decision {
            knowledge: k,
            legal: &legal,
            world: &world,
        };
        let chosen = match &mut players[seat.index()] {
            Player::Honest(s) => s.choose(&decision),
            Player::Cheater(c) => c.choose(&decision, &game),
        };
        let action = if legal.contains(&chosen) {
            chosen
        } else {
            legal[0].clone()
        };
        let input = burraco_rules::Input::Act {
            seat,
            action: action.clone(),
        };
        let events = game.act(seat, &action).expect("a legal action is accepted");
        record.push(&input, None);
        for k in &mut know {
            events.iter().for_each(|e| k.observe(e));
        }
    }
    Err(ArenaError::Runaway(MAX_ACTIONS))
}
