//! The rules crate's one integration-test binary.
//!
//! Each module tests one part of RULES.md through `Game::apply`, with explicit decks laid out by
//! `support::DeckBuilder`; every refusal goes through `support::Table::refused`, which checks that
//! the refused input left the game exactly as it was. `properties` plays thousands of random
//! hands against the invariants.

/// Card codes, explicit decks, a game driver that checks the `apply` contract.
mod support;

/// Section 9: the per-move clock and its expiry.
mod clocks;
/// Section 7 and the presets of section 1: closing and its refusals.
mod closing;
/// Section 3: the seeded shuffle, the order of the deal, the commitment.
mod deal;
/// Section 8: tallone exhausted, stallo.
mod ends;
/// Sections 4.2 and 5 through the game: opening, attaching, art. 31, wild positions.
mod melds;
/// Section 6: pozzetto in diretta and con lo scarto, A and B, a hand that may not empty.
mod pozzetto;
/// Invariants over many random hands.
mod properties;
/// `error.rs` as a whole: codes, and the refusals no input can reach.
mod refusals;
/// Section 10: scoring a hand.
mod scoring;
/// Section 9: the TIME OUT and the last round of each preset.
mod time_out;
/// Section 4: take, play, discard; art. 8's single-card pile.
mod turn;
/// Section 12: what each party may see, in views and events.
mod views;
