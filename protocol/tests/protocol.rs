//! The protocol crate's one integration-test binary.

/// Rules types to wire types and back, over whole hands.
mod convert;
/// Error codes: docs/PROTOCOL.md section 8 and `ErrorCode` name the same set.
mod errors;
/// Hand records: fixtures replayed to their expected outcomes.
mod record;
/// Wire messages: golden files, both encodings.
mod wire;
