//! The Burraco wire: what crosses the network and what is kept as evidence.
//!
//! This is the only crate that knows serde. The rules crate's types are converted by hand into the
//! types here, so the wire can stay stable while the engine changes.
//!
//! - [`cards`]: card, seat and seed codes as text (`"7H"`, `"10S"`, `"JK"`; `"N"`; 64 hex digits).
//! - [`record`]: the JSON hand record, published at the end of every hand and replayable.
//! - [`log`]: a table's durable log, one postcard-encoded entry per change.
//! - [`tournament_log`]: a tournament's durable log; [`tournament_record`]: the JSON tournament
//!   record folded from it.
//! - [`wire`]: every message of protocol 1.x; [`codec`]: JSON text and postcard binary frames.
//! - [`error`]: the stable error codes, [`ErrorCode`].
//! - [`text`]: the rule names and chat lines follow (no bidi, invisible or control characters).
//! - [`convert`]: every conversion between rules types and wire types, both ways (the server
//!   writes with it, clients read back with it).

pub mod cards;
pub mod codec;
pub mod convert;
pub mod error;
pub mod log;
pub mod record;
pub mod text;
pub mod tournament_log;
pub mod tournament_record;
pub mod wire;

pub use error::ErrorCode;
