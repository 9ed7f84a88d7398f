//! Burraco bots: the [`Strategy`] trait a bot author implements, the reference strategies of the
//! strength ladder (L0 random, L1 greedy, L2 expert, L3 search, L4 deep search), the in-process duplicate
//! [`arena`], and the network [`client`] runtime that plays a strategy at a real server over the
//! WebSocket protocol.
//!
//! A strategy sees only its seat's knowledge ([`burraco_rules::SeatKnowledge`]) and a world
//! sampled consistently with it; the runtimes keep that knowledge up to date from the events the
//! seat receives, so the same strategy plays in the arena, at a server, and as the server's own
//! bot in an empty seat ([`SeatBot`]).
//!
//! - [`strategy`]: the trait and the reference strategies.
//! - [`seat`]: one seat's knowledge plus a strategy, and that knowledge rebuilt from a snapshot.
//!
//! Reading and writing the wire (events, snapshots, actions) is [`burraco_protocol::convert`]'s,
//! shared with the server.
//! - [`session`]: the client protocol as a state machine without IO.
//! - [`client`]: that state machine over a WebSocket, with reconnection and backoff, at the
//!   [`pace`] of the server's request limits.
//! - [`arena`], [`stats`]: duplicate matches and their confidence intervals.
//! - [`cheat`]: L2 with one cheat each (for proving the fair-play detectors), played in process
//!   into hand records.
//! - [`tempered`]: L2 with a discard temperature, an honest style of the detectors' population.

pub mod arena;
pub mod cheat;
pub mod client;
pub mod pace;
pub mod seat;
pub mod session;
pub mod stats;
pub mod strategy;
pub mod tempered;
pub mod tournament;

pub use seat::{SeatBot, knowledge_from_snapshot};
pub use session::{SeatRequest, Session, SessionStats, Thinking, Thought};
pub use strategy::{
    Decision, Deep, DeepBudget, Expert, Greedy, Level, RandomLegal, Search, SearchBudget, Strategy,
};
pub use tempered::Tempered;
