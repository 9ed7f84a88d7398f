//! Wire golden tests (being written).
