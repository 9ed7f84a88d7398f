//! One hand of Burraco as a state machine (RULES.md sections 3-10).
//!
//! [`Game::apply`] checks an [`Input`] completely before it changes anything, so a refused input
//! leaves the game exactly as it was; an accepted one returns the [`Event`]s it caused, in order.
//! Everything that happens in a hand is an input: a seat's [`Action`], an expired move clock, the
//! round clock's TIME OUT. A hand is therefore fully determined by its configuration, dealer, deal
//! and input log, which is what persistence, replays and arbiters rely on.

use crate::card::{Card, Hand};
use crate::config::{Config, MoveClock, PileClosing, Preset, StalloRule};
use crate::deal::{DECK_SIZE, Deal, Seed, is_complete_deck, shuffled_deck};
use crate::error::IllegalAction;
use crate::meld::{Meld, MeldShape};
use crate::score::{HandScore, score_side};
use crate::seat::{Players, Seat, Side};

/// A meld's number at the table, in the order melds were opened (0, 1, 2, ...).
pub type MeldId = u8;

/// The two pozzetti: A is taken by the first side to claim one, B by the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PozzettoId {
    A = 0,
    B = 1,
}

impl PozzettoId {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn code(self) -> &'static str {
        match self {
            PozzettoId::A => "A",
            PozzettoId::B => "B",
        }
    }
}

/// Where the cards come from: a seed (the normal, provably fair case) or an explicit order (tests).
#[derive(Clone, PartialEq, Eq)]
pub enum DealSource {
    Seed(Seed),
    Deck(Box<[Card; DECK_SIZE]>),
}

impl std::fmt::Debug for DealSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DealSource::Seed(seed) => seed.fmt(f),
            DealSource::Deck(_) => f.write_str("Deck(..)"),
        }
    }
}

impl DealSource {
    /// The deck in dealing order, top first.
    pub fn deck(&self) -> [Card; DECK_SIZE] {
        match self {
            DealSource::Seed(seed) => shuffled_deck(seed),
            DealSource::Deck(deck) => **deck,
        }
    }

    /// SHA-256 of the seed, published before the first action; `None` for an explicit deck.
    pub fn commitment(&self) -> Option<[u8; 32]> {
        match self {
            DealSource::Seed(seed) => Some(seed.commitment()),
            DealSource::Deck(_) => None,
        }
    }
}

/// Why a hand could not be dealt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("the explicit deck is not the 108 cards of two decks and four jokers")]
    IncompleteDeck,
    #[error("the dealer {0} is not seated at this table")]
    DealerNotSeated(Seat),
}

/// What a seat asks to do.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take the top card of the tallone.
    Draw,
    /// Take the whole discard pile.
    PickUp,
    /// Lay a new meld from the hand. `wild_at` names a sequence position for the wild.
    Open {
        cards: Vec<Card>,
        wild_at: Option<u8>,
    },
    /// Add cards from the hand to one of the side's melds.
    Attach {
        meld: MeldId,
        cards: Vec<Card>,
        wild_at: Option<u8>,
    },
    /// Put a card on the pile, ending the turn.
    Discard { card: Card },
}

impl Action {
    pub fn code(&self) -> &'static str {
        match self {
            Action::Draw => "draw",
            Action::PickUp => "pick_up",
            Action::Open { .. } => "open",
            Action::Attach { .. } => "attach",
            Action::Discard { .. } => "discard",
        }
    }
}

/// Everything that can move a hand forward: the log of a hand is a list of these.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Input {
    Act {
        seat: Seat,
        action: Action,
    },
    /// The seat on turn ran out of time, grace included: the turn is completed for it.
    ClockExpired,
    /// The round clock ran out: the preset's last round begins (RULES.md section 9).
    TimeOut,
}

/// An input [`Game::check`] accepted, with what it found (an opening's or attachment's meld), for
/// [`Game::play`] to apply without checking again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedInput {
    input: Input,
    step: Step,
    /// How many inputs the game had played when it was checked: a checked input is only good for
    /// the game as it was then.
    at: u32,
}

impl CheckedInput {
    /// The input that was checked.
    pub fn input(&self) -> &Input {
        &self.input
    }
}

/// What playing a checked input does. A lay's cards are the input's own ([`laid_cards`]): the
/// step does not keep a copy of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Draw,
    PickUp,
    Lay {
        target: Option<MeldId>,
        result: Meld,
    },
    Discard(Card),
    ClockExpired,
    TimeOut,
}

/// The cards an action lays on the table (an opening's or an attachment's; none for the others).
fn laid_cards(action: &Action) -> &[Card] {
    match action {
        Action::Open { cards, .. } | Action::Attach { cards, .. } => cards,
        Action::Draw | Action::PickUp | Action::Discard { .. } => &[],
    }
}

/// [`laid_cards`] of an input's action (none for the clocks' inputs).
fn input_cards(input: &Input) -> &[Card] {
    match input {
        Input::Act { action, .. } => laid_cards(action),
        Input::ClockExpired | Input::TimeOut => &[],
    }
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandEnd {
    Closed {
        seat: Seat,
    },
    /// The third-to-last tallone card was drawn and that turn ended (art. 17).
    TalloneExhausted,
    /// A further card exchange after a stallo (`fitab`, `feburit`).
    Stallo,
    /// The last round after a TIME OUT was played.
    TimeOut,
    /// TIME OUT before the first take under `fedibur`: the hand is not played.
    Voided,
}

impl HandEnd {
    pub fn code(self) -> &'static str {
        match self {
            HandEnd::Closed { .. } => "closed",
            HandEnd::TalloneExhausted => "tallone_exhausted",
            HandEnd::Stallo => "stallo",
            HandEnd::TimeOut => "time_out",
            HandEnd::Voided => "voided",
        }
    }
}

/// What happened, in order. Each event is either public or private to one seat
/// ([`Event::private_to`]); a private event is hidden from everyone else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The hand is dealt: who deals, who plays first, the up-card, the seed commitment.
    HandStarted {
        dealer: Seat,
        first: Seat,
        up_card: Card,
        commitment: Option<[u8; 32]>,
    },
    /// Private: the cards a seat was dealt.
    Dealt {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// A turn begins; `clock` is its per-move limit when clocks run.
    TurnStarted {
        seat: Seat,
        cards_held: u8,
        clock: Option<MoveClock>,
    },
    /// A seat drew from the tallone (which card is the next, private, event).
    Drew {
        seat: Seat,
    },
    /// Private: the card drawn.
    DrewCard {
        seat: Seat,
        card: Card,
    },
    PickedUp {
        seat: Seat,
        cards: Vec<Card>,
    },
    Opened {
        seat: Seat,
        meld: MeldId,
        cards: Vec<Card>,
        result: Meld,
    },
    Attached {
        seat: Seat,
        meld: MeldId,
        cards: Vec<Card>,
        result: Meld,
    },
    /// A side took a pozzetto, in diretta (by melding) or con lo scarto (by discarding).
    PozzettoTaken {
        seat: Seat,
        pozzetto: PozzettoId,
        in_diretta: bool,
    },
    /// Private: the pozzetto's cards, when its owner may see them (RULES.md section 6).
    PozzettoCards {
        seat: Seat,
        cards: Vec<Card>,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    /// The seat's move clock ran out; the turn is completed by the events that follow.
    ClockExpired {
        seat: Seat,
    },
    /// TIME OUT: `turns_left` turns remain, counting the one in progress (0 for a voided hand).
    TimeOutAnnounced {
        turns_left: u8,
    },
    /// One round of consecutive card exchanges is played: a stallo is one round away.
    StalloWarning {
        exchanges: u8,
    },
    /// Two rounds of card exchanges: under `fedibur` `must_draw` will have to draw; otherwise
    /// a further exchange ends the hand.
    Stallo {
        must_draw: Option<Seat>,
    },
    /// The hand is over; every hand is public from here on.
    HandEnded {
        end: HandEnd,
        score: HandScore,
        hands: Vec<(Seat, Vec<Card>)>,
    },
}

impl Event {
    /// The one seat allowed to see this event, or `None` when it is public.
    pub fn private_to(&self) -> Option<Seat> {
        match self {
            Event::Dealt { seat, .. }
            | Event::DrewCard { seat, .. }
            | Event::PozzettoCards { seat, .. } => Some(*seat),
            _ => None,
        }
    }
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The seat on turn must draw or pick up.
    Take,
    /// The seat on turn may meld, and must discard.
    Play,
    /// The hand is over.
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Turn {
    seat: Seat,
    phase: Phase,
    /// Completed turns before this one: the first round is turns 0..players.
    index: u32,
    /// Cards held when the turn began (sets the move clock).
    cards_held: u8,
    /// Size of the pile picked up this turn (0: none).
    picked_up: u8,
    /// The card of a single-card pile picked up this turn (art. 8).
    single_card: Option<Card>,
    /// A copy of `single_card` was melded this turn. Copies of a face are indistinguishable, so
    /// the melded one may be taken to be the picked-up card: art. 8 no longer applies.
    single_card_melded: bool,
    /// This turn drew the third-to-last tallone card: the hand ends with its discard (art. 17).
    last_from_tallone: bool,
}

/// A pozzetto taken con lo scarto, hidden from its owner until `reveal_after` discards.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HiddenPozzetto {
    owner: Seat,
    reveal_after: Seat,
    cards: Vec<Card>,
}

/// What the side on turn has among its burracos (for the closing checks).
#[derive(Debug, Clone, Copy, Default)]
struct Burracos {
    any: bool,
    clean: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct StalloState {
    /// Consecutive completed card-exchange turns.
    exchanges: u8,
    /// Who made the first exchange of the run.
    first: Option<Seat>,
    /// `fedibur`: this seat may not pick up at its next turn.
    must_draw: Option<Seat>,
}

/// Room the discard pile is given when it starts again after a pick-up.
const PILE_ROOM: usize = 16;

/// One hand in play (or finished).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    config: Config,
    dealer: Seat,
    source: DealSource,
    hands: [Hand; 4],
    /// Top card last, so drawing is a pop.
    tallone: Vec<Card>,
    /// Top card last.
    pile: Vec<Card>,
    /// Contents of pozzetti A and B while untaken (emptied when taken).
    pozzetti: [Vec<Card>; 2],
    /// Per side, the pozzetto it took.
    pozzetto_of: [Option<PozzettoId>; 2],
    melds: Vec<(Side, Meld)>,
    turn: Turn,
    /// Per side, a pozzetto taken con lo scarto that its owner may not see yet.
    hidden_pozzetti: [Option<HiddenPozzetto>; 2],
    stallo: StalloState,
    /// After a TIME OUT: turns left, counting the one in progress.
    last_round: Option<u8>,
    ended: Option<(HandEnd, HandScore)>,
    /// Inputs played so far (a [`CheckedInput`] is good for one value of it).
    inputs_played: u32,
}

impl Game {
    /// Deals a hand and returns it with its opening events ([`Event::HandStarted`], one private
    /// [`Event::Dealt`] per seat, the first [`Event::TurnStarted`]).
    pub fn new(
        config: Config,
        dealer: Seat,
        source: DealSource,
    ) -> Result<(Game, Vec<Event>), DealError> {
        let players = config.players();
        if !players.is_seated(dealer) {
            return Err(DealError::DealerNotSeated(dealer));
        }
        let deck = source.deck();
        if !is_complete_deck(&deck) {
            return Err(DealError::IncompleteDeck);
        }
        let deal = Deal::from_deck(&deck, players);
        let mut hands: [Hand; 4] = Default::default();
        for (i, cards) in deal.hands.iter().enumerate() {
            hands[Deal::seat_of_hand(players, dealer, i).index()] = cards.iter().copied().collect();
        }
        let first = players.next(dealer);
        let mut tallone = deal.tallone;
        tallone.reverse();
        let game = Game {
            config,
            dealer,
            hands,
            tallone,
            pile: vec![deal.discard],
            pozzetti: deal.pozzetti,
            pozzetto_of: [None, None],
            melds: Vec::new(),
            turn: Turn {
                seat: first,
                phase: Phase::Take,
                index: 0,
                cards_held: crate::deal::HAND_SIZE as u8,
                picked_up: 0,
                single_card: None,
                single_card_melded: false,
                last_from_tallone: false,
            },
            hidden_pozzetti: [None, None],
            stallo: StalloState::default(),
            last_round: None,
            ended: None,
            inputs_played: 0,
            source,
        };
        let mut events = vec![Event::HandStarted {
            dealer,
            first,
            up_card: deal.discard,
            commitment: game.source.commitment(),
        }];
        for &seat in players.seats() {
            events.push(Event::Dealt {
                seat,
                cards: game.hands[seat.index()].to_vec(),
            });
        }
        events.push(game.turn_started());
        Ok((game, events))
    }

    // ----- reading the state -------------------------------------------------------------------

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn players(&self) -> Players {
        self.config.players()
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn source(&self) -> &DealSource {
        &self.source
    }

    /// The seat on turn (the last one to play, once the hand is over).
    pub fn on_turn(&self) -> Seat {
        self.turn.seat
    }

    pub fn phase(&self) -> Phase {
        self.turn.phase
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// How the hand ended and its score.
    pub fn result(&self) -> Option<(HandEnd, &HandScore)> {
        self.ended.as_ref().map(|(end, score)| (*end, score))
    }

    /// Turns completed so far.
    pub fn turns_played(&self) -> u32 {
        self.turn.index
    }

    pub fn hand(&self, seat: Seat) -> &Hand {
        &self.hands[seat.index()]
    }

    /// Whether `seat` may see its own hand now: not while it is a pozzetto taken con lo scarto and
    /// not yet revealed (RULES.md section 6).
    pub fn hand_visible_to_owner(&self, seat: Seat) -> bool {
        self.hidden_pozzetti
            .iter()
            .flatten()
            .all(|h| h.owner != seat)
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn tallone_len(&self) -> usize {
        self.tallone.len()
    }

    /// The tallone, top first. Hidden information: for records and tests, never for a view.
    pub fn tallone_top_first(&self) -> Vec<Card> {
        self.tallone.iter().rev().copied().collect()
    }

    /// The cards of an untaken pozzetto (empty once taken). Hidden information.
    pub fn pozzetto_cards(&self, pozzetto: PozzettoId) -> &[Card] {
        &self.pozzetti[pozzetto.index()]
    }

    /// The pozzetto each side took, by [`Side::index`].
    pub fn pozzetto_of(&self, side: Side) -> Option<PozzettoId> {
        self.pozzetto_of[side.index()]
    }

    /// Every meld with its side, by [`MeldId`].
    pub fn melds(&self) -> &[(Side, Meld)] {
        &self.melds
    }

    pub fn side_of(&self, seat: Seat) -> Side {
        self.players().side_of(seat)
    }

    /// The per-move clock of the turn in progress.
    pub fn move_clock(&self) -> Option<MoveClock> {
        self.config.move_clock(usize::from(self.turn.cards_held))
    }

    /// The single card picked up this turn, which may not be discarded (art. 8).
    pub fn picked_single_card(&self) -> Option<Card> {
        self.turn.single_card
    }

    /// Size of the discard pile picked up this turn (0 when the seat drew or has not taken).
    pub fn picked_up_this_turn(&self) -> usize {
        usize::from(self.turn.picked_up)
    }

    /// Turns left in the last round after a TIME OUT, counting the one in progress.
    pub fn last_round(&self) -> Option<u8> {
        self.last_round
    }

    /// Consecutive card exchanges so far, and the seat that must draw under `fedibur`'s stallo.
    pub fn stallo(&self) -> (u8, Option<Seat>) {
        (self.stallo.exchanges, self.stallo.must_draw)
    }

    fn turn_started(&self) -> Event {
        Event::TurnStarted {
            seat: self.turn.seat,
            cards_held: self.turn.cards_held,
            clock: self.move_clock(),
        }
    }

    // ----- applying inputs ---------------------------------------------------------------------

    /// Applies one input. On `Err` the game is unchanged. The same as [`Game::check`] then
    /// [`Game::play`], without the copy of the input a [`CheckedInput`] keeps.
    pub fn apply(&mut self, input: &Input) -> Result<Vec<Event>, IllegalAction> {
        let step = self.step_of(input)?;
        let mut events = Vec::with_capacity(4);
        self.play_step(step, input_cards(input), &mut events);
        Ok(events)
    }

    /// Validates `input` completely without changing anything: what [`Game::play`] needs to
    /// apply it cannot fail. A server checks, makes the input durable, and only then plays it, so
    /// it never has to undo a move (nor keep a copy of the game to undo it with).
    pub fn check(&self, input: &Input) -> Result<CheckedInput, IllegalAction> {
        let step = self.step_of(input)?;
        Ok(CheckedInput {
            input: input.clone(),
            step,
            at: self.inputs_played,
        })
    }

    /// Plays an input [`Game::check`] accepted on this game as it is now. A checked input kept
    /// past another input is checked again (and refused as it would be then).
    pub fn play(&mut self, checked: CheckedInput) -> Result<Vec<Event>, IllegalAction> {
        let step = if checked.at == self.inputs_played {
            checked.step
        } else {
            self.step_of(&checked.input)?
        };
        let mut events = Vec::with_capacity(4);
        self.play_step(step, input_cards(&checked.input), &mut events);
        Ok(events)
    }

    /// Shorthand for `apply(&Input::Act { seat, action })`, without building the input (nor
    /// copying the action into it).
    pub fn act(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, IllegalAction> {
        let mut events = Vec::with_capacity(4);
        self.act_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::act`] appending the events to `events` instead of returning a new list: a search
    /// or a playout that plays thousands of actions reuses one buffer (clearing it between them)
    /// rather than allocating a list for every action. On `Err` neither the game nor `events`
    /// change.
    pub fn act_into(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        // `check_turn`, first in `action_step`, refuses a finished hand as `step_of` does.
        let step = self.action_step(seat, action)?;
        self.play_step(step, laid_cards(action), events);
        Ok(())
    }

    /// The whole of [`Game::check`]'s validation: what playing `input` would do, or why not.
    fn step_of(&self, input: &Input) -> Result<Step, IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::HandOver);
        }
        match input {
            Input::Act { seat, action } => self.action_step(*seat, action),
            // An arbiter replaying a record must not accept an expiry the table could not have had.
            Input::ClockExpired if self.move_clock().is_none() => Err(IllegalAction::NoMoveClock),
            Input::ClockExpired => Ok(Step::ClockExpired),
            Input::TimeOut if self.last_round.is_some() => {
                Err(IllegalAction::TimeOutAlreadyAnnounced)
            }
            Input::TimeOut => Ok(Step::TimeOut),
        }
    }

    fn action_step(&self, seat: Seat, action: &Action) -> Result<Step, IllegalAction> {
        self.check_turn(seat)?;
        Ok(match action {
            Action::Draw => self.check_draw().map(|()| Step::Draw)?,
            Action::PickUp => self.check_pick_up().map(|()| Step::PickUp)?,
            Action::Open { cards, wild_at } => Step::Lay {
                result: self.check_open(cards, *wild_at)?,
                target: None,
            },
            Action::Attach {
                meld,
                cards,
                wild_at,
            } => Step::Lay {
                result: self.check_attach(*meld, cards, *wild_at)?,
                target: Some(*meld),
            },
            Action::Discard { card } => self.check_discard(*card).map(|()| Step::Discard(*card))?,
        })
    }

    /// Plays a step [`Game::step_of`] accepted on this game as it is now; `laid` are the cards of
    /// the input's action ([`laid_cards`]).
    fn play_step(&mut self, step: Step, laid: &[Card], events: &mut Vec<Event>) {
        self.inputs_played += 1;
        match step {
            Step::Draw => self.draw(events),
            Step::PickUp => self.pick_up(events),
            Step::Lay { target, result } => self.lay(laid, target, result, events),
            Step::Discard(card) => self.discard(card, events),
            Step::ClockExpired => self.expire_clock(events),
            Step::TimeOut => self.time_out(events),
        }
    }

    fn check_turn(&self, seat: Seat) -> Result<(), IllegalAction> {
        if self.is_over() {
            Err(IllegalAction::HandOver)
        } else if !self.players().is_seated(seat) {
            Err(IllegalAction::NotSeated { seat })
        } else if seat != self.turn.seat {
            Err(IllegalAction::NotYourTurn {
                on_turn: self.turn.seat,
            })
        } else {
            Ok(())
        }
    }

    pub(crate) fn check_draw(&self) -> Result<(), IllegalAction> {
        if self.turn.phase != Phase::Take {
            return Err(IllegalAction::AlreadyTaken);
        }
        // Never reached in play (the hand ends first) but kept so the invariant cannot break.
        if self.tallone.len() <= 2 {
            return Err(IllegalAction::TalloneExhausted);
        }
        Ok(())
    }

    pub(crate) fn check_pick_up(&self) -> Result<(), IllegalAction> {
        if self.turn.phase != Phase::Take {
            return Err(IllegalAction::AlreadyTaken);
        }
        if self.stallo.must_draw == Some(self.turn.seat) {
            return Err(IllegalAction::StalloMustDraw);
        }
        Ok(())
    }

    fn draw(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        let card = self
            .tallone
            .pop()
            .expect("check_draw keeps two cards in the tallone");
        self.hands[seat.index()].add(card);
        self.turn.phase = Phase::Play;
        self.turn.last_from_tallone = self.tallone.len() == 2;
        events.push(Event::Drew { seat });
        events.push(Event::DrewCard { seat, card });
    }

    fn pick_up(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        // The pile starts again with room for a few discards, not from nothing (which regrows it
        // discard by discard).
        let cards = std::mem::replace(&mut self.pile, Vec::with_capacity(PILE_ROOM));
        for &c in &cards {
            self.hands[seat.index()].add(c);
        }
        self.turn.phase = Phase::Play;
        self.turn.picked_up = cards.len().min(usize::from(u8::MAX)) as u8;
        self.turn.single_card = (cards.len() == 1).then(|| cards[0]);
        events.push(Event::PickedUp { seat, cards });
    }

    fn check_play_phase(&self) -> Result<(), IllegalAction> {
        match self.turn.phase {
            Phase::Take => Err(IllegalAction::MustTakeFirst),
            Phase::Play => Ok(()),
            Phase::Over => Err(IllegalAction::HandOver),
        }
    }

    /// The meld `cards` would open, if the seat on turn may open it.
    pub(crate) fn check_open(
        &self,
        cards: &[Card],
        wild_at: Option<u8>,
    ) -> Result<Meld, IllegalAction> {
        self.check_play_phase()?;
        let hand = &self.hands[self.turn.seat.index()];
        if !hand.contains_all(cards) {
            return Err(IllegalAction::CardsNotInHand);
        }
        let meld = Meld::open(cards, wild_at)?;
        self.check_opened(&meld)?;
        Ok(meld)
    }

    /// The checks of an opening left once its cards are known to be in the hand and to make
    /// `meld`: art. 31 and the hand it leaves (RULES.md 6). The enumerators, whose melds are valid
    /// by construction, start here.
    pub(crate) fn check_opened(&self, meld: &Meld) -> Result<(), IllegalAction> {
        if let MeldShape::Combination { rank } = meld.shape() {
            let side = self.side_of(self.turn.seat);
            let duplicate = self
                .melds
                .iter()
                .any(|(s, m)| *s == side && m.shape() == MeldShape::Combination { rank });
            if duplicate {
                return Err(IllegalAction::DuplicateCombination);
            }
        }
        self.check_hand_after_play(meld.cards(), None, meld)
    }

    /// The meld `id` would become with `cards` attached, if the seat on turn may attach them.
    pub(crate) fn check_attach(
        &self,
        id: MeldId,
        cards: &[Card],
        wild_at: Option<u8>,
    ) -> Result<Meld, IllegalAction> {
        self.check_play_phase()?;
        let (side, meld) = self
            .melds
            .get(usize::from(id))
            .ok_or(IllegalAction::UnknownMeld { meld: id })?;
        if *side != self.side_of(self.turn.seat) {
            return Err(IllegalAction::OpponentsMeld { meld: id });
        }
        if !self.hands[self.turn.seat.index()].contains_all(cards) {
            return Err(IllegalAction::CardsNotInHand);
        }
        let result = meld.attach(cards, wild_at)?;
        self.check_attached(id, cards, &result)?;
        Ok(result)
    }

    /// The check of an attachment left once `cards` are known to be in the hand and to turn the
    /// side's meld `id` into `result`: the hand it leaves (RULES.md 6).
    pub(crate) fn check_attached(
        &self,
        id: MeldId,
        cards: &[Card],
        result: &Meld,
    ) -> Result<(), IllegalAction> {
        self.check_hand_after_play(cards, Some(id), result)
    }

    /// After melding `cards` (making `result` as meld `target`, or a new meld) the turn must still
    /// be able to end (RULES.md section 6): an emptied hand takes the pozzetto in diretta if the side
    /// has none, else it is refused; a non-empty hand must keep a legal discard.
    ///
    /// Only a one-card hand can lack one: with two or more cards at most one face is art. 8's. When
    /// the last card could not close, the refusal names the closing rule (RULES.md 7) that forbids
    /// it; when it is art. 8's card there is no legal discard at all.
    fn check_hand_after_play(
        &self,
        cards: &[Card],
        target: Option<MeldId>,
        result: &Meld,
    ) -> Result<(), IllegalAction> {
        let seat = self.turn.seat;
        let left = self.hands[seat.index()].len().saturating_sub(cards.len());
        if left > 1 {
            return Ok(());
        }
        let mut after = self.hands[seat.index()].clone();
        for &c in cards {
            after.remove(c);
        }
        let Some(last) = after.faces().next() else {
            return if self.pozzetto_of(self.side_of(seat)).is_some() {
                Err(IllegalAction::WouldEmptyHand)
            } else {
                Ok(())
            };
        };
        let restricted = self.restricted_card().filter(|c| !cards.contains(c));
        // A one-card hand can only close, and whether it may depends on the melds after this play.
        match self.discard_error(&after, last, restricted, Some((target, result))) {
            None => Ok(()),
            Some(IllegalAction::DiscardPickedUpCard { .. }) => {
                Err(IllegalAction::NoLegalDiscardLeft)
            }
            Some(closing) => Err(closing),
        }
    }

    /// The card art. 8 forbids to discard now: a single-card pile picked up this turn, unless a
    /// copy of it was melded since.
    fn restricted_card(&self) -> Option<Card> {
        self.turn
            .single_card
            .filter(|_| !self.turn.single_card_melded)
    }

    /// Whether the side on turn has a burraco, and a clean one, counting `change` (meld `id`
    /// becoming the given meld, or a new meld when `id` is `None`).
    fn side_burracos(&self, change: Option<(Option<MeldId>, &Meld)>) -> Burracos {
        let side = self.side_of(self.turn.seat);
        let semipulito = self.config.semipulito();
        let mut found = Burracos::default();
        let mut note = |meld: &Meld| {
            if let Some(kind) = meld.burraco_kind(semipulito) {
                found.any = true;
                found.clean |= kind.is_clean();
            }
        };
        for (id, (s, meld)) in self.melds.iter().enumerate() {
            if *s != side {
                continue;
            }
            match change {
                Some((Some(target), replaced)) if usize::from(target) == id => note(replaced),
                _ => note(meld),
            }
        }
        if let Some((None, new)) = change {
            note(new);
        }
        found
    }

    pub(crate) fn check_discard(&self, card: Card) -> Result<(), IllegalAction> {
        self.check_play_phase()?;
        let hand = &self.hands[self.turn.seat.index()];
        if !hand.contains(card) {
            return Err(IllegalAction::CardNotInHand { card });
        }
        match self.discard_error(hand, card, self.restricted_card(), None) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Why discarding `card` from `hand` would be refused, or `None` when it is legal. `restricted`
    /// is art. 8's card ([`Game::restricted_card`]); `change` a play about to be made, whose meld
    /// counts for the closing rules ([`Game::side_burracos`]).
    fn discard_error(
        &self,
        hand: &Hand,
        card: Card,
        restricted: Option<Card>,
        change: Option<(Option<MeldId>, &Meld)>,
    ) -> Option<IllegalAction> {
        if restricted == Some(card) && hand.count(card) < 2 {
            return Some(IllegalAction::DiscardPickedUpCard { card });
        }
        if hand.len() > 1 {
            return None;
        }
        match self.pozzetto_of(self.side_of(self.turn.seat)) {
            // Con lo scarto: going to the pozzetto with any card, a wild included, is allowed.
            None => None,
            Some(_) => self.closing_error(card, self.side_burracos(change)),
        }
    }

    /// Why closing by discarding `card` would be refused, or `None` when it is allowed.
    fn closing_error(&self, card: Card, burracos: Burracos) -> Option<IllegalAction> {
        if self.pozzetto_of(self.side_of(self.turn.seat)).is_none() {
            return Some(IllegalAction::CloseWithoutPozzetto);
        }
        if !burracos.any {
            return Some(IllegalAction::CloseWithoutBurraco);
        }
        if self.config.close_requires_pulito() && !burracos.clean {
            return Some(IllegalAction::CloseWithoutBurracoPulito);
        }
        if card.is_wild() {
            return Some(IllegalAction::CloseWithWild);
        }
        if self.turn.picked_up > 0 {
            match self.config.pile_closing() {
                PileClosing::Forbidden => return Some(IllegalAction::CloseAfterPilePickup),
                PileClosing::SingleCardOnly if self.turn.picked_up > 1 => {
                    return Some(IllegalAction::CloseAfterMultiCardPickup);
                }
                _ => {}
            }
        }
        if !self.config.closing_in_first_round() && self.turn.index < self.players().count() as u32
        {
            return Some(IllegalAction::CloseInFirstRound);
        }
        None
    }

    /// Moves `cards` from the hand into a new meld (`target` None) or meld `target`, then takes the
    /// pozzetto in diretta if the hand emptied.
    fn lay(
        &mut self,
        cards: &[Card],
        target: Option<MeldId>,
        result: Meld,
        events: &mut Vec<Event>,
    ) {
        let seat = self.turn.seat;
        for &c in cards {
            self.hands[seat.index()].remove(c);
        }
        if self
            .turn
            .single_card
            .is_some_and(|single| cards.contains(&single))
        {
            self.turn.single_card_melded = true;
        }
        let cards = cards.to_vec();
        match target {
            None => {
                let id = self.melds.len() as MeldId;
                self.melds.push((self.side_of(seat), result));
                events.push(Event::Opened {
                    seat,
                    meld: id,
                    cards,
                    result,
                });
            }
            Some(id) => {
                self.melds[usize::from(id)].1 = result;
                events.push(Event::Attached {
                    seat,
                    meld: id,
                    cards,
                    result,
                });
            }
        }
        if self.hands[seat.index()].is_empty() {
            let (pozzetto, cards) = self.take_pozzetto(seat);
            self.hands[seat.index()] = cards.iter().copied().collect();
            events.push(Event::PozzettoTaken {
                seat,
                pozzetto,
                in_diretta: true,
            });
            events.push(Event::PozzettoCards { seat, cards });
        }
    }

    fn take_pozzetto(&mut self, seat: Seat) -> (PozzettoId, Vec<Card>) {
        let side = self.side_of(seat);
        let pozzetto = if self.pozzetto_of[side.other().index()] == Some(PozzettoId::A) {
            PozzettoId::B
        } else {
            PozzettoId::A
        };
        self.pozzetto_of[side.index()] = Some(pozzetto);
        (
            pozzetto,
            std::mem::take(&mut self.pozzetti[pozzetto.index()]),
        )
    }

    fn discard(&mut self, card: Card, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        let players = self.players();
        self.hands[seat.index()].remove(card);
        self.pile.push(card);
        events.push(Event::Discarded { seat, card });

        for slot in &mut self.hidden_pozzetti {
            if let Some(hidden) = slot.take_if(|h| h.reveal_after == seat) {
                events.push(Event::PozzettoCards {
                    seat: hidden.owner,
                    cards: hidden.cards,
                });
            }
        }

        if self.hands[seat.index()].is_empty() {
            if self.pozzetto_of(self.side_of(seat)).is_some() {
                // check_discard allowed it, so this is a legal closing.
                self.end_hand(HandEnd::Closed { seat }, events);
                return;
            }
            let (pozzetto, cards) = self.take_pozzetto(seat);
            self.hands[seat.index()] = cards.iter().copied().collect();
            events.push(Event::PozzettoTaken {
                seat,
                pozzetto,
                in_diretta: false,
            });
            // Head to head the owner sees it at its next turn, i.e. after the opponent's discard;
            // with four players after the partner's next discard (art. 22.3).
            let reveal_after = match players {
                Players::Four => seat.partner(),
                Players::Two => players.next(seat),
            };
            self.hidden_pozzetti[self.side_of(seat).index()] = Some(HiddenPozzetto {
                owner: seat,
                reveal_after,
                cards,
            });
        }

        self.end_turn(events);
    }

    /// Stallo bookkeeping, the ends of a hand that fall on a discard, then the next turn.
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        let players = self.players().count() as u8;
        if self.turn.single_card.is_some() {
            if self.stallo.exchanges == 0 {
                self.stallo.first = Some(seat);
            }
            self.stallo.exchanges = self.stallo.exchanges.saturating_add(1);
        } else {
            self.stallo.exchanges = 0;
            self.stallo.first = None;
        }
        if self.stallo.must_draw == Some(seat) {
            self.stallo.must_draw = None;
        }

        let exchanges = self.stallo.exchanges;
        let mut end = None;
        if exchanges == players {
            events.push(Event::StalloWarning { exchanges });
        } else if exchanges == 2 * players {
            let must_draw = match self.config.stallo_rule() {
                StalloRule::HandEnds => None,
                StalloRule::FirstExchangerMustDraw => self.stallo.first,
            };
            self.stallo.must_draw = must_draw;
            events.push(Event::Stallo { must_draw });
        } else if exchanges > 2 * players && self.config.stallo_rule() == StalloRule::HandEnds {
            end = Some(HandEnd::Stallo);
        }
        if self.turn.last_from_tallone {
            end = Some(HandEnd::TalloneExhausted);
        }
        if let Some(left) = self.last_round {
            self.last_round = Some(left - 1);
            if left <= 1 {
                end = Some(HandEnd::TimeOut);
            }
        }
        if let Some(end) = end {
            self.end_hand(end, events);
            return;
        }

        let next = self.players().next(seat);
        self.turn = Turn {
            seat: next,
            phase: Phase::Take,
            index: self.turn.index + 1,
            cards_held: self.hands[next.index()].len().min(usize::from(u8::MAX)) as u8,
            picked_up: 0,
            single_card: None,
            single_card_melded: false,
            last_from_tallone: false,
        };
        events.push(self.turn_started());
    }

    fn end_hand(&mut self, end: HandEnd, events: &mut Vec<Event>) {
        self.turn.phase = Phase::Over;
        let players = self.players();
        let score = if end == HandEnd::Voided {
            HandScore::default()
        } else {
            let sides = Side::BOTH.map(|side| {
                let in_hand: i32 = players
                    .members(side)
                    .iter()
                    .map(|s| self.hands[s.index()].points())
                    .sum();
                let melds = self
                    .melds
                    .iter()
                    .enumerate()
                    .filter(|(_, (s, _))| *s == side)
                    .map(|(id, (_, m))| (id as u8, m));
                let closed =
                    matches!(end, HandEnd::Closed { seat } if players.side_of(seat) == side);
                score_side(
                    &self.config,
                    melds,
                    in_hand,
                    self.pozzetto_of[side.index()].is_some(),
                    closed,
                )
            });
            HandScore { sides }
        };
        let hands = players
            .seats()
            .iter()
            .map(|&s| (s, self.hands[s.index()].to_vec()))
            .collect();
        self.hidden_pozzetti = [None, None];
        self.ended = Some((end, score.clone()));
        events.push(Event::HandEnded { end, score, hands });
    }

    /// The clock ran out: draw if the seat has not taken, then discard the highest legal card
    /// secondo norma (RULES.md section 9).
    fn expire_clock(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        events.push(Event::ClockExpired { seat });
        if self.turn.phase == Phase::Take {
            self.draw(events);
        }
        let card = self
            .legal_discards()
            .into_iter()
            .max_by_key(|c| c.norma_key())
            .expect("a turn in play always keeps a legal discard");
        self.discard(card, events);
    }

    /// The round clock ran out (RULES.md section 9): set the turns left in the last round.
    /// Announces the last round; [`Game::check`] has made sure none was announced before.
    fn time_out(&mut self, events: &mut Vec<Event>) {
        let players = self.players();
        let not_taken = self.turn.phase == Phase::Take;
        let preset = self.config.preset();
        if preset == Preset::Fedibur && not_taken && self.turn.index == 0 {
            events.push(Event::TimeOutAnnounced { turns_left: 0 });
            self.last_round = Some(0);
            self.end_hand(HandEnd::Voided, events);
            return;
        }
        let turns_left = match (players, preset) {
            (Players::Two, _) => 3,
            (Players::Four, Preset::Fitab) if not_taken => 4,
            (Players::Four, Preset::Fitab) => 7,
            (Players::Four, Preset::Feburit) if not_taken => 4,
            (Players::Four, Preset::Feburit) => 5,
            (Players::Four, Preset::Fedibur) => {
                // Finish the round up to the dealer, then one more round ending with the dealer.
                let mut to_dealer = 1;
                let mut seat = self.turn.seat;
                while seat != self.dealer {
                    seat = players.next(seat);
                    to_dealer += 1;
                }
                to_dealer + 4
            }
        };
        self.last_round = Some(turns_left);
        events.push(Event::TimeOutAnnounced { turns_left });
    }

    /// The cards the seat on turn may discard now (empty before taking).
    pub fn legal_discards(&self) -> Vec<Card> {
        if self.turn.phase != Phase::Play {
            return Vec::new();
        }
        let hand = &self.hands[self.turn.seat.index()];
        let restricted = self.restricted_card();
        let mut legal = Vec::with_capacity(hand.len());
        if hand.len() > 1 {
            // The fast path of `discard_error`: with two cards or more only art. 8 can refuse.
            let refused = restricted.filter(|&c| hand.count(c) < 2);
            legal.extend(hand.faces().filter(|&c| Some(c) != refused));
        } else {
            legal.extend(
                hand.faces()
                    .filter(|&c| self.discard_error(hand, c, restricted, None).is_none()),
            );
        }
        legal
    }
}

// ----- determinization hook (rules/src/determinize.rs) -------------------------------------------
// A seat never saw the deal, so it cannot replay its way to the state it knows; determinize.rs
// assembles a game consistent with that knowledge through this constructor, which checks that the
// parts make a game (all 108 cards somewhere, the turn at a seat in play). Nothing else may use it:
// every other game is dealt by `Game::new` and moved by `Game::apply`.
/// Everything a `Game` is made of, for [`Game::from_world`] to assemble: the only way to build a
/// game in a state that was not reached by dealing and playing in this process. Defined here, not
/// in determinize.rs, so that the game does not depend on its one user.
#[derive(Debug, Clone)]
pub(crate) struct WorldParts {
    pub(crate) config: Config,
    pub(crate) dealer: Seat,
    pub(crate) source: DealSource,
    pub(crate) hands: [Hand; 4],
    /// Top card last.
    pub(crate) tallone: Vec<Card>,
    pub(crate) pile: Vec<Card>,
    pub(crate) pozzetti: [Vec<Card>; 2],
    pub(crate) pozzetto_of: [Option<PozzettoId>; 2],
    pub(crate) melds: Vec<(Side, Meld)>,
    pub(crate) on_turn: Seat,
    pub(crate) phase: Phase,
    pub(crate) turn_index: u32,
    pub(crate) cards_held: u8,
    pub(crate) picked_up: u8,
    pub(crate) single_card: Option<Card>,
    /// A copy of `single_card` was melded this turn (art. 8 no longer applies).
    pub(crate) single_card_melded: bool,
    pub(crate) last_from_tallone: bool,
    /// Per side: a pozzetto taken con lo scarto not yet shown to its owner (owner, reveal after).
    pub(crate) hidden_pozzetti: [Option<(Seat, Seat, Vec<Card>)>; 2],
    pub(crate) stallo_exchanges: u8,
    pub(crate) stallo_first: Option<Seat>,
    pub(crate) stallo_must_draw: Option<Seat>,
    pub(crate) last_round: Option<u8>,
}

/// Why [`Game::from_world`] refused its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorldError {
    /// The hands, tallone, pile, pozzetti and melds do not hold the 108 cards exactly.
    CardsNotConserved,
    /// The seat on turn or the dealer is not at the table.
    SeatNotInPlay,
}

impl Game {
    pub(crate) fn from_world(w: WorldParts) -> Result<Game, WorldError> {
        let players = w.config.players();
        if !players.is_seated(w.on_turn) || !players.is_seated(w.dealer) {
            return Err(WorldError::SeatNotInPlay);
        }
        let mut all: Vec<Card> = w.hands.iter().flat_map(Hand::to_vec).collect();
        all.extend(&w.tallone);
        all.extend(&w.pile);
        all.extend(w.pozzetti.iter().flatten());
        all.extend(w.melds.iter().flat_map(|(_, m)| m.cards().iter().copied()));
        if !is_complete_deck(&all) {
            return Err(WorldError::CardsNotConserved);
        }
        Ok(Game {
            config: w.config,
            dealer: w.dealer,
            source: w.source,
            hands: w.hands,
            tallone: w.tallone,
            pile: w.pile,
            pozzetti: w.pozzetti,
            pozzetto_of: w.pozzetto_of,
            melds: w.melds,
            turn: Turn {
                seat: w.on_turn,
                phase: w.phase,
                index: w.turn_index,
                cards_held: w.cards_held,
                picked_up: w.picked_up,
                single_card: w.single_card,
                single_card_melded: w.single_card_melded,
                last_from_tallone: w.last_from_tallone,
            },
            hidden_pozzetti: w.hidden_pozzetti.map(|h| {
                h.map(|(owner, reveal_after, cards)| HiddenPozzetto {
                    owner,
                    reveal_after,
                    cards,
                })
            }),
            stallo: StalloState {
                exchanges: w.stallo_exchanges,
                first: w.stallo_first,
                must_draw: w.stallo_must_draw,
            },
            last_round: w.last_round,
            ended: None,
            inputs_played: 0,
        })
    }
}
