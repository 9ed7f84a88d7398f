//! Placeholder, being written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalAction {}
