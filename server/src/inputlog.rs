//! The hand in play's inputs, kept compactly until the hand ends and its record is written.
//!
//! A table keeps every input of its current hand to produce the hand record at the end. As
//! [`burraco_protocol::record::RecordedInput`]s that is 48 bytes each (more with a card list),
//! up to ~12 KB per table for a long hand; here an input is 4 to 8 bytes plus its cards: a tag,
//! the seat, the action's data as card indexes and the milliseconds since the deal as a varint.

use burraco_protocol::record::HandRecord;
use burraco_rules::{Action, Card, Input, Seat};

/// A hand's inputs in order, with when each was accepted.
#[derive(Debug, Default)]
pub struct InputLog {
    bytes: Vec<u8>,
    count: usize,
    /// Where the last input starts in `bytes`.
    last: usize,
}

const ACT: u8 = 0;
const CLOCK_EXPIRED: u8 = 1;
const TIME_OUT: u8 = 2;

const DRAW: u8 = 0;
const PICK_UP: u8 = 1;
const OPEN: u8 = 2;
const ATTACH: u8 = 3;
const DISCARD: u8 = 4;

/// No wild position / no time.
const NONE: u8 = 0xFF;

impl InputLog {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn push(&mut self, input: &Input, at_ms: Option<u64>) {
        self.last = self.bytes.len();
        self.count += 1;
        let b = &mut self.bytes;
        match input {
            Input::Act { seat, action } => {
                b.push(ACT);
                b.push(seat.index() as u8);
                match action {
                    Action::Draw => b.push(DRAW),
                    Action::PickUp => b.push(PICK_UP),
                    Action::Open { cards, wild_at } => {
                        b.push(OPEN);
                        b.push(wild_at.unwrap_or(NONE));
                        cards_into(b, cards);
                    }
                    Action::Attach {
                        meld,
                        cards,
                        wild_at,
                    } => {
                        b.push(ATTACH);
                        b.push(*meld);
                        b.push(wild_at.unwrap_or(NONE));
                        cards_into(b, cards);
                    }
                    Action::Discard { card } => {
                        b.push(DISCARD);
                        b.push(card.index() as u8);
                    }
                }
            }
            Input::ClockExpired => b.push(CLOCK_EXPIRED),
            Input::TimeOut => b.push(TIME_OUT),
        }
        match at_ms {
            Some(ms) => {
                b.push(1);
                varint_into(b, ms);
            }
            None => b.push(0),
        }
    }

    /// Drops the input just pushed (it could not be stored); once only.
    pub fn pop(&mut self) {
        if self.count > 0 && self.last < self.bytes.len() {
            self.bytes.truncate(self.last);
            self.count -= 1;
        }
    }

    /// Every input, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Input, Option<u64>)> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            if at >= self.bytes.len() {
                return None;
            }
            let (entry, next) = decode(&self.bytes, at)?;
            at = next;
            Some(entry)
        })
    }

    /// Appends every input to `record` (whose own input list the table leaves empty).
    pub fn fill(&self, record: &mut HandRecord) {
        record.inputs.reserve_exact(self.len());
        for (input, at_ms) in self.iter() {
            record.push(&input, at_ms);
        }
    }
}

fn cards_into(b: &mut Vec<u8>, cards: &[Card]) {
    b.push(cards.len() as u8);
    b.extend(cards.iter().map(|c| c.index() as u8));
}

fn varint_into(b: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            b.push(byte);
            return;
        }
        b.push(byte | 0x80);
    }
}

fn decode(b: &[u8], mut at: usize) -> Option<((Input, Option<u64>), usize)> {
    let mut next = || {
        let v = *b.get(at)?;
        at += 1;
        Some(v)
    };
    let input = match next()? {
        ACT => {
            let seat = *Seat::ALL.get(usize::from(next()?))?;
            let opt = |v: u8| (v != NONE).then_some(v);
            let action = match next()? {
                DRAW => Action::Draw,
                PICK_UP => Action::PickUp,
                OPEN => {
                    let wild_at = opt(next()?);
                    let n = next()?;
                    let cards = (0..n)
                        .map(|_| Card::from_index(usize::from(next()?)))
                        .collect::<Option<Vec<_>>>()?;
                    Action::Open { cards, wild_at }
                }
                ATTACH => {
                    let meld = next()?;
                    let wild_at = opt(next()?);
                    let n = next()?;
                    let cards = (0..n)
                        .map(|_| Card::from_index(usize::from(next()?)))
                        .collect::<Option<Vec<_>>>()?;
                    Action::Attach {
                        meld,
                        cards,
                        wild_at,
                    }
                }
                DISCARD => Action::Discard {
                    card: Card::from_index(usize::from(next()?))?,
                },
                _ => return None,
            };
            Input::Act { seat, action }
        }
        CLOCK_EXPIRED => Input::ClockExpired,
        TIME_OUT => Input::TimeOut,
        _ => return None,
    };
    let at_ms = match next()? {
        0 => None,
        _ => {
            let mut v = 0u64;
            let mut shift = 0;
            loop {
                let byte = next()?;
                v |= u64::from(byte & 0x7F) << shift;
                if byte & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 63 {
                    return None;
                }
            }
            Some(v)
        }
    };
    Some(((input, at_ms), at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_kind_of_input() {
        let card = |i| Card::from_index(i).unwrap();
        let inputs = vec![
            (
                Input::Act {
                    seat: Seat::North,
                    action: Action::Draw,
                },
                Some(0),
            ),
            (
                Input::Act {
                    seat: Seat::East,
                    action: Action::PickUp,
                },
                Some(127),
            ),
            (
                Input::Act {
                    seat: Seat::South,
                    action: Action::Open {
                        cards: vec![card(0), card(1), card(52)],
                        wild_at: Some(2),
                    },
                },
                Some(128),
            ),
            (
                Input::Act {
                    seat: Seat::West,
                    action: Action::Attach {
                        meld: 7,
                        cards: vec![card(12)],
                        wild_at: None,
                    },
                },
                None,
            ),
            (
                Input::Act {
                    seat: Seat::North,
                    action: Action::Discard { card: card(51) },
                },
                Some(u64::MAX),
            ),
            (Input::ClockExpired, Some(3_600_000)),
            (Input::TimeOut, None),
        ];
        let mut log = InputLog::default();
        for (input, at) in &inputs {
            log.push(input, *at);
        }
        assert_eq!(log.len(), inputs.len());
        assert_eq!(log.iter().collect::<Vec<_>>(), inputs);
        log.pop();
        assert_eq!(log.iter().collect::<Vec<_>>(), inputs[..inputs.len() - 1]);
        log.push(&Input::TimeOut, None);
        assert_eq!(log.iter().collect::<Vec<_>>(), inputs);
    }
}
