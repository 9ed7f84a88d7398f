//! Placeholder, being written.
#[derive(Debug)]
pub struct Game;
#[derive(Debug)]
pub enum Action {}
#[derive(Debug)]
pub enum Input {}
#[derive(Debug)]
pub enum Event {}
#[derive(Debug)]
pub enum HandEnd {}
#[derive(Debug)]
pub enum Phase {}
#[derive(Debug)]
pub enum DealSource {}
pub type MeldId = u8;
pub type PozzettoId = u8;
