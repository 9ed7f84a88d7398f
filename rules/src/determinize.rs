//! What one seat knows, and whole games consistent with it ("determinizations").
//!
//! A bot sees only its seat's view (RULES.md section 12). [`SeatKnowledge`] folds the events that
//! seat may see into everything it knows: its hand, the melds, the pile, every hand's size, the
//! cards it saw an opponent or its partner pick up from the pile (and not play since), the
//! pozzetti taken, the turn, the stallo and TIME OUT counters. [`SeatKnowledge::determinize`] then
//! deals the cards the seat cannot see (other hands, the tallone, untaken pozzetti) from a
//! caller-supplied RNG, giving a full [`Game`] on which `legal_actions()` and simulations work.
//! Sampling ISMCTS worlds is calling it again with the same RNG.
//!
//! A determinized game is consistent with the seat's knowledge: its own hand is exactly the
//! seat's, every card another seat was seen to pick up and still holds is in that seat's hand,
//! the public state (melds, pile, sizes, counters) is the real one, and the 108 cards are all
//! there. Which physical deck produced it is meaningless, so its source is the canonical deck.

use crate::card::{Card, Hand};
use crate::config::Config;
use crate::deal::{DECK_SIZE, HAND_SIZE, canonical_deck};
use crate::game::{DealSource, Event, Game, HandEnd, Phase, PozzettoId, WorldParts};
use crate::meld::Meld;
use crate::score::HandScore;
use crate::seat::{Players, Seat, Side};
use crate::view::TableView;

/// Why a seat's knowledge does not describe a game in play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeterminizeError {
    #[error("no hand is in play")]
    NoHand,
    #[error("the hand is over")]
    HandOver,
    #[error(
        "the cards the seat knows of do not leave {needed} unseen cards for the hidden places (found {found})"
    )]
    Inconsistent { needed: usize, found: usize },
    /// The world assembled from the seat's knowledge is not a game (cards not conserved, the turn
    /// off the table): a bug in the knowledge fold, never the seat's doing.
    #[error("the assembled world is not a valid game")]
    InvalidWorld,
}

/// What one seat knows of the hand in play, folded from the events it may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatKnowledge {
    config: Config,
    seat: Seat,
    started: bool,
    dealer: Seat,
    /// The seat's own hand; `None` while it is a pozzetto the seat may not see yet.
    own: Option<Hand>,
    sizes: [usize; 4],
    /// Cards another seat picked up from the pile and has not played since.
    known: [Hand; 4],
    melds: Vec<(Side, Meld)>,
    pile: Vec<Card>,
    tallone: usize,
    pozzetto_of: [Option<PozzettoId>; 2],
    /// Per side: a pozzetto taken con lo scarto not yet shown to its owner (owner, reveal after).
    hidden: [Option<(Seat, Seat)>; 2],
    on_turn: Seat,
    phase: Phase,
    turns_started: u32,
    cards_held: u8,
    picked_up: u8,
    single_card: Option<Card>,
    single_card_melded: bool,
    drew: bool,
    stallo_exchanges: u8,
    stallo_first: Option<Seat>,
    stallo_must_draw: Option<Seat>,
    last_round: Option<u8>,
    result: Option<(HandEnd, HandScore)>,
    /// Every card the seat saw discarded this hand, in order (for "what the opponents threw").
    discards: Vec<(Seat, Card)>,
    /// Every card the seat saw picked up this hand, by whom.
    pickups: Vec<(Seat, Vec<Card>)>,
}

impl SeatKnowledge {
    /// A seat at a table of `config`, before the hand's first event.
    pub fn new(config: Config, seat: Seat) -> SeatKnowledge {
        SeatKnowledge {
            config,
            seat,
            started: false,
            dealer: seat,
            own: None,
            sizes: [0; 4],
            known: Default::default(),
            melds: Vec::new(),
            pile: Vec::new(),
            tallone: 0,
            pozzetto_of: [None, None],
            hidden: [None, None],
            on_turn: seat,
            phase: Phase::Take,
            turns_started: 0,
            cards_held: 0,
            picked_up: 0,
            single_card: None,
            single_card_melded: false,
            drew: false,
            stallo_exchanges: 0,
            stallo_first: None,
            stallo_must_draw: None,
            last_round: None,
            result: None,
            discards: Vec::new(),
            pickups: Vec::new(),
        }
    }

    /// What a seat knows from a snapshot of the table (a view) alone, e.g. after a resync.
    ///
    /// A view does not say how many turns were played nor how big a pile the seat on turn picked
    /// up: pass them when known. Without them the first round is assumed over (which matters only
    /// for `fedibur`'s closing) and a pick-up is assumed only when the view shows a single card.
    /// Cards picked up by others before the snapshot are not known any more, and the move clock of
    /// a determinized game is set by the cards held now rather than at the start of the turn.
    pub fn from_view(
        config: Config,
        view: &TableView,
        turns_played: Option<u32>,
        picked_up: Option<u8>,
    ) -> SeatKnowledge {
        let seat = match view.viewer {
            crate::view::Viewer::Seat(seat) => seat,
            crate::view::Viewer::Spectator => view.on_turn,
        };
        let players = config.players();
        let mut k = SeatKnowledge::new(config, seat);
        k.started = true;
        k.dealer = view.dealer;
        k.own = view
            .hand
            .as_ref()
            .map(|cards| cards.iter().copied().collect());
        for &(s, n) in &view.hand_sizes {
            k.sizes[s.index()] = n;
        }
        k.melds = view.melds.iter().map(|m| (m.side, m.meld)).collect();
        k.pile = view.pile.clone();
        k.tallone = view.tallone;
        for (i, side) in view.pozzetti.iter().enumerate() {
            if let Some(side) = side {
                k.pozzetto_of[side.index()] =
                    Some(if i == 0 { PozzettoId::A } else { PozzettoId::B });
            }
        }
        if view.hand.is_none() && players.is_seated(seat) && view.result.is_none() {
            let reveal_after = match players {
                Players::Four => seat.partner(),
                Players::Two => players.next(seat),
            };
            k.hidden[players.side_of(seat).index()] = Some((seat, reveal_after));
        }
        k.on_turn = view.on_turn;
        k.phase = view.phase;
        let min_turns = players.count() as u32;
        k.turns_started = turns_played.unwrap_or(min_turns) + 1;
        k.cards_held = k.sizes[view.on_turn.index()].min(usize::from(u8::MAX)) as u8;
        k.single_card = view.picked_single_card;
        k.picked_up = picked_up.unwrap_or(u8::from(view.picked_single_card.is_some()));
        k.drew = view.phase == Phase::Play && k.picked_up == 0;
        k.stallo_exchanges = view.stallo_exchanges;
        k.stallo_must_draw = view.stallo_must_draw;
        if view.stallo_exchanges > 0 {
            // The run began `exchanges` completed turns before the one in progress.
            let mut first = view.on_turn;
            for _ in 0..view.stallo_exchanges % players.count() as u8 {
                first = previous(players, first);
            }
            k.stallo_first = Some(first);
        }
        k.last_round = view.last_round;
        k.result = view.result.clone();
        k
    }

    // ----- reading -------------------------------------------------------------------------------

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn players(&self) -> Players {
        self.config.players()
    }

    /// The seat this knowledge belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn side(&self) -> Side {
        self.players().side_of(self.seat)
    }

    pub fn side_of(&self, seat: Seat) -> Side {
        self.players().side_of(seat)
    }

    /// Whether a hand has been dealt (the knowledge has seen `HandStarted` or a snapshot).
    pub fn in_hand(&self) -> bool {
        self.started
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat's own hand; `None` while it is a pozzetto not yet visible.
    pub fn hand(&self) -> Option<&Hand> {
        self.own.as_ref()
    }

    /// Cards held by `seat`.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.sizes[seat.index()]
    }

    /// Cards `seat` is known to hold: picked up from the pile and not played since.
    pub fn known_cards(&self, seat: Seat) -> &Hand {
        &self.known[seat.index()]
    }

    /// Every meld with its side, by meld id.
    pub fn melds(&self) -> &[(Side, Meld)] {
        &self.melds
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn tallone(&self) -> usize {
        self.tallone
    }

    /// The pozzetto `side` took, if any.
    pub fn pozzetto_of(&self, side: Side) -> Option<PozzettoId> {
        self.pozzetto_of[side.index()]
    }

    pub fn on_turn(&self) -> Seat {
        self.on_turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the seat must act now.
    pub fn my_turn(&self) -> bool {
        self.started
            && self.result.is_none()
            && self.on_turn == self.seat
            && self.phase != Phase::Over
    }

    /// Turns completed before the one in progress.
    pub fn turns_played(&self) -> u32 {
        self.turns_started.saturating_sub(1)
    }

    /// Size of the pile the seat on turn picked up this turn (0: none).
    pub fn picked_up_this_turn(&self) -> usize {
        usize::from(self.picked_up)
    }

    /// The single card picked up this turn, which may not be discarded (art. 8).
    pub fn picked_single_card(&self) -> Option<Card> {
        self.single_card
    }

    /// Consecutive card exchanges so far and the seat that must draw under `fedibur`'s stallo.
    pub fn stallo(&self) -> (u8, Option<Seat>) {
        (self.stallo_exchanges, self.stallo_must_draw)
    }

    /// Turns left after a TIME OUT, counting the one in progress.
    pub fn last_round(&self) -> Option<u8> {
        self.last_round
    }

    pub fn result(&self) -> Option<&(HandEnd, HandScore)> {
        self.result.as_ref()
    }

    /// Every discard seen this hand, in order.
    pub fn discards(&self) -> &[(Seat, Card)] {
        &self.discards
    }

    /// Every pick-up of the pile seen this hand, in order.
    pub fn pickups(&self) -> &[(Seat, Vec<Card>)] {
        &self.pickups
    }

    /// How many copies of `card` the seat cannot locate: in other hands, the tallone or a pozzetto.
    pub fn unseen_count(&self, card: Card) -> u8 {
        let total: u8 = if card.is_joker() { 4 } else { 2 };
        let mut seen = self.own.as_ref().map_or(0, |h| h.count(card));
        for (_, m) in &self.melds {
            seen += m.cards().iter().filter(|&&c| c == card).count() as u8;
        }
        seen += self.pile.iter().filter(|&&c| c == card).count() as u8;
        for s in self.players().seats() {
            if *s != self.seat {
                seen += self.known[s.index()].count(card);
            }
        }
        total.saturating_sub(seen)
    }

    // ----- folding events ------------------------------------------------------------------------

    /// Folds one event in. Events private to another seat are ignored (a seat never sees them).
    pub fn observe(&mut self, event: &Event) {
        if event.private_to().is_some_and(|s| s != self.seat) {
            return;
        }
        let players = self.players();
        match event {
            Event::HandStarted {
                dealer,
                first,
                up_card,
                ..
            } => {
                let seat = self.seat;
                let config = self.config;
                *self = SeatKnowledge::new(config, seat);
                self.started = true;
                self.dealer = *dealer;
                self.on_turn = *first;
                for s in players.seats() {
                    self.sizes[s.index()] = HAND_SIZE;
                }
                self.pile = vec![*up_card];
                self.tallone = DECK_SIZE - (players.count() + 2) * HAND_SIZE - 1;
                self.own = players.is_seated(seat).then(Hand::new);
            }
            Event::Dealt { cards, .. } => {
                self.own = Some(cards.iter().copied().collect());
            }
            Event::TurnStarted {
                seat, cards_held, ..
            } => {
                self.on_turn = *seat;
                self.phase = Phase::Take;
                self.turns_started += 1;
                self.cards_held = *cards_held;
                self.picked_up = 0;
                self.single_card = None;
                self.single_card_melded = false;
                self.drew = false;
            }
            Event::Drew { seat } => {
                self.sizes[seat.index()] += 1;
                self.tallone = self.tallone.saturating_sub(1);
                self.phase = Phase::Play;
                self.drew = true;
            }
            Event::DrewCard { card, .. } => {
                if let Some(h) = &mut self.own {
                    h.add(*card);
                }
            }
            Event::PickedUp { seat, cards } => {
                self.sizes[seat.index()] += cards.len();
                self.pile.clear();
                if *seat == self.seat {
                    if let Some(h) = &mut self.own {
                        cards.iter().for_each(|&c| h.add(c));
                    }
                } else {
                    cards.iter().for_each(|&c| self.known[seat.index()].add(c));
                }
                self.picked_up = cards.len().min(usize::from(u8::MAX)) as u8;
                self.single_card = (cards.len() == 1).then(|| cards[0]);
                self.phase = Phase::Play;
                self.pickups.push((*seat, cards.clone()));
            }
            Event::Opened {
                seat,
                meld,
                cards,
                result,
            }
            | Event::Attached {
                seat,
                meld,
                cards,
                result,
            } => {
                self.play_cards(*seat, cards);
                if self
                    .single_card
                    .is_some_and(|single| cards.contains(&single))
                {
                    self.single_card_melded = true;
                }
                let side = players.side_of(*seat);
                let id = usize::from(*meld);
                if id < self.melds.len() {
                    self.melds[id] = (side, *result);
                } else {
                    self.melds.push((side, *result));
                }
            }
            Event::PozzettoTaken {
                seat,
                pozzetto,
                in_diretta,
            } => {
                let side = players.side_of(*seat);
                self.pozzetto_of[side.index()] = Some(*pozzetto);
                self.sizes[seat.index()] = HAND_SIZE;
                self.known[seat.index()] = Hand::new();
                if *seat == self.seat {
                    self.own = None;
                }
                if !in_diretta {
                    let reveal_after = match players {
                        Players::Four => seat.partner(),
                        Players::Two => players.next(*seat),
                    };
                    self.hidden[side.index()] = Some((*seat, reveal_after));
                }
            }
            Event::PozzettoCards { cards, .. } => {
                self.own = Some(cards.iter().copied().collect());
                for slot in &mut self.hidden {
                    if slot.is_some_and(|(owner, _)| owner == self.seat) {
                        *slot = None;
                    }
                }
            }
            Event::Discarded { seat, card } => {
                self.play_cards(*seat, std::slice::from_ref(card));
                self.pile.push(*card);
                self.discards.push((*seat, *card));
                for slot in &mut self.hidden {
                    if slot.is_some_and(|(_, after)| after == *seat) {
                        *slot = None;
                    }
                }
                self.end_turn(*seat);
            }
            Event::ClockExpired { .. } | Event::StalloWarning { .. } => {}
            Event::TimeOutAnnounced { turns_left } => {
                self.last_round = Some(*turns_left);
            }
            Event::Stallo { must_draw } => {
                self.stallo_must_draw = *must_draw;
            }
            Event::HandEnded { end, score, .. } => {
                self.phase = Phase::Over;
                self.result = Some((*end, score.clone()));
            }
        }
    }

    fn play_cards(&mut self, seat: Seat, cards: &[Card]) {
        let i = seat.index();
        self.sizes[i] = self.sizes[i].saturating_sub(cards.len());
        for &c in cards {
            if seat == self.seat {
                if let Some(h) = &mut self.own {
                    h.remove(c);
                }
            } else {
                self.known[i].remove(c);
            }
        }
    }

    /// The bookkeeping `Game` does when a turn ends with a discard (stallo run, last round).
    fn end_turn(&mut self, seat: Seat) {
        if self.single_card.is_some() {
            if self.stallo_exchanges == 0 {
                self.stallo_first = Some(seat);
            }
            self.stallo_exchanges = self.stallo_exchanges.saturating_add(1);
        } else {
            self.stallo_exchanges = 0;
            self.stallo_first = None;
        }
        if self.stallo_must_draw == Some(seat) {
            self.stallo_must_draw = None;
        }
        if let Some(left) = self.last_round {
            self.last_round = Some(left.saturating_sub(1));
        }
    }

    // ----- determinizing -------------------------------------------------------------------------

    /// The cards this seat cannot locate, each copy once, in face order.
    pub fn unseen_cards(&self) -> Vec<Card> {
        let mut counts = [2u8; Card::FACES];
        counts[Card::JOKER.index()] = 4;
        let mut take = |c: Card| {
            let n = &mut counts[c.index()];
            *n = n.saturating_sub(1);
        };
        if let Some(h) = &self.own {
            h.cards().for_each(&mut take);
        }
        self.melds
            .iter()
            .flat_map(|(_, m)| m.cards().iter().copied())
            .for_each(&mut take);
        self.pile.iter().copied().for_each(&mut take);
        for s in self.players().seats() {
            if *s != self.seat {
                self.known[s.index()].cards().for_each(&mut take);
            }
        }
        counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| {
                std::iter::repeat_n(Card::from_index(i).expect("face index"), usize::from(n))
            })
            .collect()
    }

    /// A full game consistent with this seat's knowledge: the unseen cards are shuffled with `rng`
    /// and dealt to the other hands (beside the cards known to be there), the untaken pozzetti
    /// and the tallone.
    pub fn determinize<R: rand_core::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<Game, DeterminizeError> {
        if !self.started {
            return Err(DeterminizeError::NoHand);
        }
        if self.result.is_some() || self.phase == Phase::Over {
            return Err(DeterminizeError::HandOver);
        }
        let players = self.players();
        let mut pool = self.unseen_cards();
        crate::deal::fisher_yates(&mut pool, rng);

        let untaken: Vec<PozzettoId> = [PozzettoId::A, PozzettoId::B]
            .into_iter()
            .filter(|p| !self.pozzetto_of.contains(&Some(*p)))
            .collect();
        let mut needed = self.tallone + untaken.len() * HAND_SIZE;
        for &s in players.seats() {
            if s == self.seat {
                if self.own.is_none() {
                    needed += self.sizes[s.index()];
                }
            } else {
                needed += self.sizes[s.index()].saturating_sub(self.known[s.index()].len());
            }
        }
        if needed != pool.len() {
            return Err(DeterminizeError::Inconsistent {
                needed,
                found: pool.len(),
            });
        }

        let mut hands: [Hand; 4] = Default::default();
        for &s in players.seats() {
            let i = s.index();
            if s == self.seat {
                match &self.own {
                    Some(h) => hands[i] = h.clone(),
                    None => hands[i] = pool.drain(pool.len() - self.sizes[i]..).collect(),
                }
            } else {
                let mut h = self.known[i].clone();
                let unknown = self.sizes[i].saturating_sub(h.len());
                pool.drain(pool.len() - unknown..).for_each(|c| h.add(c));
                hands[i] = h;
            }
        }
        let mut pozzetti: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for p in untaken {
            pozzetti[p.index()] = pool.drain(pool.len() - HAND_SIZE..).collect();
        }
        let tallone = pool;

        let hidden_pozzetti = self
            .hidden
            .map(|slot| slot.map(|(owner, after)| (owner, after, hands[owner.index()].to_vec())));
        let parts = WorldParts {
            config: self.config,
            dealer: self.dealer,
            source: DealSource::Deck(Box::new(canonical_deck())),
            hands,
            tallone,
            pile: self.pile.clone(),
            pozzetti,
            pozzetto_of: self.pozzetto_of,
            melds: self.melds.clone(),
            on_turn: self.on_turn,
            phase: self.phase,
            turn_index: self.turns_played(),
            cards_held: self.cards_held,
            picked_up: self.picked_up,
            single_card: self.single_card,
            single_card_melded: self.single_card_melded,
            last_from_tallone: self.drew && self.tallone == 2,
            hidden_pozzetti,
            stallo_exchanges: self.stallo_exchanges,
            stallo_first: self.stallo_first,
            stallo_must_draw: self.stallo_must_draw,
            last_round: self.last_round,
        };
        Game::from_world(parts).map_err(|_| DeterminizeError::InvalidWorld)
    }
}

fn previous(players: Players, seat: Seat) -> Seat {
    match players {
        Players::Four => seat.right(),
        Players::Two => seat.partner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Preset;
    use crate::deal::Seed;
    use crate::game::Input;
    use crate::view::Viewer;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    fn pick<R: Rng>(rng: &mut R, n: usize) -> usize {
        (rng.next_u32() as usize) % n
    }

    /// Plays random legal hands, folding each seat's visible events, and checks at every step
    /// that each seat's knowledge matches its view and that determinized games are consistent.
    fn check_random_hands(config: Config, hands: u64) {
        let players = config.players();
        for h in 0..hands {
            let mut rng = ChaCha8Rng::seed_from_u64(h);
            let seed = Seed(std::array::from_fn(|i| {
                (i as u8).wrapping_mul(31).wrapping_add(h as u8)
            }));
            let dealer = players.seats()[h as usize % players.count()];
            let (mut game, events) = Game::new(config, dealer, DealSource::Seed(seed)).unwrap();
            let mut know: Vec<SeatKnowledge> = players
                .seats()
                .iter()
                .map(|&s| SeatKnowledge::new(config, s))
                .collect();
            let fold = |know: &mut Vec<SeatKnowledge>, events: &[Event]| {
                for k in know.iter_mut() {
                    events.iter().for_each(|e| k.observe(e));
                }
            };
            fold(&mut know, &events);
            let mut steps = 0;
            while !game.is_over() && steps < 2000 {
                for k in &know {
                    check_knowledge(&game, k, &mut rng);
                }
                let input = if steps % 97 == 96 && game.move_clock().is_some() {
                    Input::ClockExpired
                } else if steps == 150 && h % 3 == 0 {
                    Input::TimeOut
                } else {
                    let legal = game.legal_actions();
                    assert!(!legal.is_empty());
                    Input::Act {
                        seat: game.on_turn(),
                        action: legal[pick(&mut rng, legal.len())].clone(),
                    }
                };
                let events = game.apply(&input).unwrap();
                fold(&mut know, &events);
                steps += 1;
            }
            assert!(game.is_over());
            for k in &know {
                assert_eq!(k.result().map(|r| r.0), game.result().map(|r| r.0));
            }
        }
    }

    fn check_knowledge(game: &Game, k: &SeatKnowledge, rng: &mut ChaCha8Rng) {
        let seat = k.seat();
        let view = game.view(Viewer::Seat(seat));
        assert_eq!(k.hand().map(Hand::to_vec), view.hand);
        for &(s, n) in &view.hand_sizes {
            assert_eq!(k.hand_size(s), n);
        }
        assert_eq!(k.pile(), view.pile.as_slice());
        assert_eq!(k.tallone(), view.tallone);
        assert_eq!(k.melds(), game.melds());
        assert_eq!(k.on_turn(), game.on_turn());
        assert_eq!(k.phase(), game.phase());
        assert_eq!(k.turns_played(), game.turns_played());
        assert_eq!(k.picked_up_this_turn(), game.picked_up_this_turn());
        assert_eq!(k.stallo(), game.stallo());
        assert_eq!(k.last_round(), game.last_round());
        for s in game.players().seats() {
            // Known cards really are in that hand.
            assert!(game.hand(*s).contains_all(&k.known_cards(*s).to_vec()));
        }

        let world = k.determinize(rng).unwrap();
        // Conservation: 108 cards, two of each face and four jokers.
        let mut all: Vec<Card> = Vec::new();
        for s in game.players().seats() {
            all.extend(world.hand(*s).cards());
        }
        all.extend(world.tallone_top_first());
        all.extend(world.pile());
        all.extend(
            world
                .melds()
                .iter()
                .flat_map(|(_, m)| m.cards().iter().copied()),
        );
        all.extend(world.pozzetto_cards(PozzettoId::A));
        all.extend(world.pozzetto_cards(PozzettoId::B));
        assert!(crate::deal::is_complete_deck(&all), "{} cards", all.len());
        // The seat's view of the world is its view of the real game.
        let mut wv = world.view(Viewer::Seat(seat));
        wv.commitment = view.commitment;
        assert_eq!(wv, view);
        // Every card placed where the seat cannot see could have been there.
        let unseen = k.unseen_cards();
        let unseen: Hand = unseen.into_iter().collect();
        for s in game.players().seats() {
            if *s == seat && k.hand().is_some() {
                assert_eq!(world.hand(*s), game.hand(*s));
                continue;
            }
            let mut rest = world.hand(*s).clone();
            for c in k.known_cards(*s).cards() {
                assert!(rest.remove(c));
            }
            assert!(rest.cards().all(|c| unseen.contains(c)));
        }
        // The same legal actions for the seat on turn, when it is this seat.
        if game.on_turn() == seat {
            assert_eq!(world.legal_actions(), game.legal_actions());
        }
    }

    #[test]
    fn knowledge_tracks_the_view_and_worlds_are_consistent_fitab() {
        check_random_hands(Config::of(Preset::Fitab), 12);
    }

    #[test]
    fn knowledge_tracks_the_view_and_worlds_are_consistent_other_presets() {
        check_random_hands(Config::of(Preset::Fedibur), 6);
        check_random_hands(Config::of(Preset::Feburit), 4);
        check_random_hands(Config::head_to_head(Preset::Fitab), 6);
    }

    #[test]
    fn knowledge_from_a_view_determinizes() {
        let config = Config::of(Preset::Fitab);
        let (mut game, _) =
            Game::new(config, Seat::North, DealSource::Seed(Seed([5; 32]))).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..40 {
            let legal = game.legal_actions();
            let a = legal[pick(&mut rng, legal.len())].clone();
            game.act(game.on_turn(), &a).unwrap();
            if game.is_over() {
                break;
            }
            for &s in game.players().seats() {
                let view = game.view(Viewer::Seat(s));
                let k = SeatKnowledge::from_view(
                    config,
                    &view,
                    Some(game.turns_played()),
                    Some(game.picked_up_this_turn() as u8),
                );
                let world = k.determinize(&mut rng).unwrap();
                let mut wv = world.view(Viewer::Seat(s));
                // A view does not say how many cards its turn began with (the move clock's size).
                wv.commitment = view.commitment;
                wv.move_clock = view.move_clock;
                assert_eq!(wv, view);
                assert_eq!(world.stallo(), game.stallo());
            }
        }
    }
}
