//! Burraco as a pure, deterministic state machine.
//!
//! This crate is the game exactly as `RULES.md` specifies it, and nothing else: no IO, no async, no
//! clock, no serde. Time and randomness come in as arguments (a [`Seed`], an expired clock or a
//! TIME OUT as an [`Input`]). [`Game::apply`] returns the events an input caused, or an
//! [`IllegalAction`] naming the rule that refused it, and then leaves the game exactly as it was.

pub mod card;
pub mod config;
pub mod deal;
pub mod determinize;
pub mod enumerate;
pub mod error;
pub mod game;
pub mod matches;
pub mod meld;
pub mod score;
pub mod seat;
pub mod tournament;
pub mod view;
pub mod vp;

pub use card::{Card, Hand, ParseCardError, Rank, Suit, parse_cards};
pub use config::{
    BurracoValues, ClockMode, Config, ConfigError, MatchLength, MoveClock, PileClosing, Preset,
    StalloRule, TableSettings,
};
pub use deal::{DECK_SIZE, Deal, HAND_SIZE, Seed, canonical_deck, fisher_yates, shuffled_deck};
pub use determinize::{DeterminizeError, SeatKnowledge};
pub use error::IllegalAction;
pub use game::{
    Action, CheckedInput, DealSource, Event, Game, HandEnd, Input, MeldId, Phase, PozzettoId,
};
pub use matches::{Match, MatchEnd, MatchError, MatchResult};
pub use meld::{BurracoKind, Meld, MeldError, MeldShape};
pub use score::{BurracoScore, HandScore, SideScore};
pub use seat::{Players, Seat, Side};
pub use view::{TableView, Viewer};
pub use vp::VpTable;
