//! Placeholder, being written.
#[derive(Debug)]
pub enum VpTable {}
