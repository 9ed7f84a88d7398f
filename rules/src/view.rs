//! Placeholder, being written.
#[derive(Debug)]
pub struct TableView;
#[derive(Debug)]
pub enum Viewer {}
