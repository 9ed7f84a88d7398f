//! Helpers shared by the test modules: card codes, explicit decks laid out as RULES.md section 3
//! deals them, and a [`Table`] that drives a [`Game`] and checks the `apply` contract on every
//! refusal.

use burraco_rules::{
    Action, Card, Config, DECK_SIZE, DealSource, Event, Game, HAND_SIZE, HandEnd, HandScore,
    IllegalAction, Input, MeldId, Phase, Players, PozzettoId, Seat, canonical_deck, parse_cards,
};

/// One card from its code (`"10H"`, `"JK"`).
pub fn c(code: &str) -> Card {
    code.parse()
        .unwrap_or_else(|e| panic!("bad card code in a test: {e}"))
}

/// Cards from codes separated by spaces (`"5H 6H JK"`).
pub fn cs(codes: &str) -> Vec<Card> {
    parse_cards(codes).unwrap_or_else(|e| panic!("bad card code in a test: {e}"))
}

/// Sorted copy, to compare multisets.
pub fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

/// Builds a 108-card order that deals chosen cards where a test wants them (RULES.md 3): hands
/// by seat, the up card, the top of the tallone, the pozzetti. Everything not chosen is filled
/// with the remaining cards, naturals before wilds, so fillers are as dull as possible.
#[derive(Debug, Clone)]
pub struct DeckBuilder {
    players: Players,
    dealer: Seat,
    hands: [Vec<Card>; 4],
    up: Option<Card>,
    tallone: Vec<Card>,
    pozzetti: [Vec<Card>; 2],
}

impl DeckBuilder {
    pub fn new(players: Players, dealer: Seat) -> DeckBuilder {
        DeckBuilder {
            players,
            dealer,
            hands: Default::default(),
            up: None,
            tallone: Vec::new(),
            pozzetti: Default::default(),
        }
    }

    /// Four players, West deals: North plays first, then East, South, West.
    pub fn four() -> DeckBuilder {
        DeckBuilder::new(Players::Four, Seat::West)
    }

    /// Head to head, South deals: North plays first.
    pub fn two() -> DeckBuilder {
        DeckBuilder::new(Players::Two, Seat::South)
    }

    /// The first cards (up to 11) of `seat`'s hand; the rest is filled.
    pub fn hand(mut self, seat: Seat, codes: &str) -> DeckBuilder {
        let cards = cs(codes);
        assert!(cards.len() <= HAND_SIZE, "a hand holds 11 cards");
        self.hands[seat.index()] = cards;
        self
    }

    pub fn up(mut self, code: &str) -> DeckBuilder {
        self.up = Some(c(code));
        self
    }

    /// The top of the tallone, top first.
    pub fn tallone(mut self, codes: &str) -> DeckBuilder {
        self.tallone = cs(codes);
        self
    }

    pub fn pozzetto(mut self, pozzetto: PozzettoId, codes: &str) -> DeckBuilder {
        let cards = cs(codes);
        assert!(cards.len() <= HAND_SIZE, "a pozzetto holds 11 cards");
        self.pozzetti[pozzetto.index()] = cards;
        self
    }

    /// The deck, top first.
    pub fn build(&self) -> [Card; DECK_SIZE] {
        let n = self.players.count();
        let mut pool = [0u8; Card::FACES];
        for card in canonical_deck() {
            pool[card.index()] += 1;
        }
        let mut slots: [Option<Card>; DECK_SIZE] = [None; DECK_SIZE];
        let mut place = |slot: usize, card: Card| {
            assert!(
                pool[card.index()] > 0,
                "the test deck asks for {card} more often than two decks hold it"
            );
            pool[card.index()] -= 1;
            slots[slot] = Some(card);
        };
        for i in 0..n {
            let seat = burraco_rules::Deal::seat_of_hand(self.players, self.dealer, i);
            for (j, &card) in self.hands[seat.index()].iter().enumerate() {
                place(j * n + i, card);
            }
        }
        for seat in Seat::ALL {
            if !self.players.is_seated(seat) {
                assert!(self.hands[seat.index()].is_empty(), "{seat} is not seated");
            }
        }
        let up = n * HAND_SIZE;
        if let Some(card) = self.up {
            place(up, card);
        }
        let tallone_len = DECK_SIZE - 2 * HAND_SIZE - up - 1;
        assert!(self.tallone.len() <= tallone_len);
        for (t, &card) in self.tallone.iter().enumerate() {
            place(up + 1 + t, card);
        }
        for (p, cards) in self.pozzetti.iter().enumerate() {
            for (j, &card) in cards.iter().enumerate() {
                place(DECK_SIZE - 1 - p - 2 * j, card);
            }
        }
        let mut rest: Vec<Card> = (0..Card::FACES)
            .flat_map(|i| {
                let card = Card::from_index(i).expect("face");
                std::iter::repeat_n(card, usize::from(pool[i]))
            })
            .collect();
        rest.sort_by_key(|card| card.is_wild());
        let mut rest = rest.into_iter();
        std::array::from_fn(|i| slots[i].unwrap_or_else(|| rest.next().expect("108 cards")))
    }

    pub fn source(&self) -> DealSource {
        DealSource::Deck(Box::new(self.build()))
    }
}

/// A game under test, with every event it produced.
#[derive(Debug, Clone)]
pub struct Table {
    pub game: Game,
    pub events: Vec<Event>,
}

impl Table {
    pub fn new(config: Config, deck: &DeckBuilder) -> Table {
        assert_eq!(
            config.players(),
            deck.players,
            "the deck is laid out for another table"
        );
        let (game, events) =
            Game::new(config, deck.dealer, deck.source()).expect("test decks are complete");
        Table { game, events }
    }

    /// Applies an input that must be accepted; returns its events.
    pub fn input(&mut self, input: &Input) -> Vec<Event> {
        let events = self
            .game
            .apply(input)
            .unwrap_or_else(|e| panic!("{input:?} refused: {e} ({})", e.code()));
        self.events.extend(events.iter().cloned());
        events
    }

    /// Applies an input that must be refused, and checks the refusal changed nothing.
    pub fn refused_input(&mut self, input: &Input) -> IllegalAction {
        let before = self.game.clone();
        match self.game.apply(input) {
            Ok(events) => panic!("{input:?} was accepted: {events:?}"),
            Err(e) => {
                assert_eq!(self.game, before, "a refused {input:?} changed the game");
                e
            }
        }
    }

    pub fn act(&mut self, seat: Seat, action: Action) -> Vec<Event> {
        self.input(&Input::Act { seat, action })
    }

    pub fn refused(&mut self, seat: Seat, action: Action) -> IllegalAction {
        self.refused_input(&Input::Act { seat, action })
    }

    pub fn draw(&mut self, seat: Seat) -> Vec<Event> {
        self.act(seat, Action::Draw)
    }

    pub fn pick_up(&mut self, seat: Seat) -> Vec<Event> {
        self.act(seat, Action::PickUp)
    }

    pub fn discard(&mut self, seat: Seat, code: &str) -> Vec<Event> {
        self.act(seat, Action::Discard { card: c(code) })
    }

    pub fn open(&mut self, seat: Seat, codes: &str) -> Vec<Event> {
        self.act(seat, open(codes))
    }

    pub fn attach(&mut self, seat: Seat, meld: MeldId, codes: &str) -> Vec<Event> {
        self.act(seat, attach(meld, codes))
    }

    pub fn clock(&mut self) -> Vec<Event> {
        self.input(&Input::ClockExpired)
    }

    pub fn time_out(&mut self) -> Vec<Event> {
        self.input(&Input::TimeOut)
    }

    pub fn on_turn(&self) -> Seat {
        self.game.on_turn()
    }

    pub fn hand(&self, seat: Seat) -> Vec<Card> {
        self.game.hand(seat).to_vec()
    }

    /// The seat on turn draws and discards its lowest legal card secondo norma: a turn that
    /// changes nothing of interest. Returns the seat that played.
    pub fn pass(&mut self) -> Seat {
        let seat = self.on_turn();
        self.pass_events();
        seat
    }

    /// [`Table::pass`], returning the events of the turn.
    pub fn pass_events(&mut self) -> Vec<Event> {
        let seat = self.on_turn();
        let mut events = Vec::new();
        if self.game.phase() == Phase::Take {
            events.extend(self.draw(seat));
        }
        let card = self
            .game
            .legal_discards()
            .into_iter()
            .min_by_key(|c| c.norma_key())
            .expect("a legal discard");
        events.extend(self.act(seat, Action::Discard { card }));
        events
    }

    /// How the hand ended, once it has.
    pub fn result(&self) -> Option<(HandEnd, HandScore)> {
        self.game.result().map(|(end, score)| (end, score.clone()))
    }
}

pub fn open(codes: &str) -> Action {
    Action::Open {
        cards: cs(codes),
        wild_at: None,
    }
}

pub fn attach(meld: MeldId, codes: &str) -> Action {
    Action::Attach {
        meld,
        cards: cs(codes),
        wild_at: None,
    }
}

pub fn discard(code: &str) -> Action {
    Action::Discard { card: c(code) }
}

/// The seats whose discards appear in `events`, in order.
pub fn discarders(events: &[Event]) -> Vec<Seat> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Discarded { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect()
}

/// Whether the events include a `HandEnded`, and with what end.
pub fn hand_end(events: &[Event]) -> Option<HandEnd> {
    events.iter().find_map(|e| match e {
        Event::HandEnded { end, .. } => Some(*end),
        _ => None,
    })
}
