//! The protocol crate's one integration-test binary.

/// Hand records: fixtures replayed to their expected outcomes.
mod record;
/// Wire messages: golden files, both encodings.
mod wire;
