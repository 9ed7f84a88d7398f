//! Placeholder, being written.
#[derive(Debug)]
pub struct Match;
#[derive(Debug)]
pub struct MatchResult;
