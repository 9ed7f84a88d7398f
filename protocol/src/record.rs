//! Placeholder: the hand record is being written.
