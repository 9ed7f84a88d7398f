//! Seats, sides and the order of play (RULES.md section 3).

use std::fmt;

/// A seat at the table. Play is clockwise: North, East, South, West.
/// Head to head uses only South and North.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn side(self) -> Side {
        match self {
            Seat::North | Seat::South => Side::NorthSouth,
            Seat::East | Seat::West => Side::EastWest,
        }
    }

    pub fn partner(self) -> Seat {
        Seat::ALL[(self.index() + 2) % 4]
    }

    /// The seat to the left, who plays next with four players.
    pub fn left(self) -> Seat {
        Seat::ALL[(self.index() + 1) % 4]
    }

    /// The seat to the right, who played just before with four players.
    pub fn right(self) -> Seat {
        Seat::ALL[(self.index() + 3) % 4]
    }

    pub fn code(self) -> &'static str {
        match self {
            Seat::North => "N",
            Seat::East => "E",
            Seat::South => "S",
            Seat::West => "W",
        }
    }

    pub fn from_code(code: &str) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| s.code().eq_ignore_ascii_case(code))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A partnership. Head to head each player is a side of one: South holds `NorthSouth`'s place and
/// North `EastWest`'s (see [`Players::side_of`]); [`Players::side_label`] names them "S" and "N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    NorthSouth = 0,
    EastWest = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::NorthSouth, Side::EastWest];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Side {
        match self {
            Side::NorthSouth => Side::EastWest,
            Side::EastWest => Side::NorthSouth,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Side::NorthSouth => "NS",
            Side::EastWest => "EW",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Four players in two partnerships, or two head to head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Players {
    Four,
    Two,
}

impl Players {
    pub fn count(self) -> usize {
        match self {
            Players::Four => 4,
            Players::Two => 2,
        }
    }

    /// The seats in play, in clockwise order from North.
    pub fn seats(self) -> &'static [Seat] {
        match self {
            Players::Four => &Seat::ALL,
            Players::Two => &[Seat::North, Seat::South],
        }
    }

    pub fn is_seated(self, seat: Seat) -> bool {
        self.seats().contains(&seat)
    }

    /// The next seat to play after `seat`.
    pub fn next(self, seat: Seat) -> Seat {
        match self {
            Players::Four => seat.left(),
            Players::Two => seat.partner(),
        }
    }

    /// The side a seat plays for. Head to head, North is one side and South the other.
    pub fn side_of(self, seat: Seat) -> Side {
        match self {
            Players::Four => seat.side(),
            Players::Two if seat == Seat::North => Side::EastWest,
            Players::Two => Side::NorthSouth,
        }
    }

    /// How a side is written: "NS"/"EW", or head to head the seat "S"/"N".
    pub fn side_label(self, side: Side) -> &'static str {
        match self {
            Players::Four => side.code(),
            Players::Two => self.members(side)[0].code(),
        }
    }

    /// The seats playing for `side`.
    pub fn members(self, side: Side) -> &'static [Seat] {
        match (self, side) {
            (Players::Four, Side::NorthSouth) => &[Seat::North, Seat::South],
            (Players::Four, Side::EastWest) => &[Seat::East, Seat::West],
            (Players::Two, Side::NorthSouth) => &[Seat::South],
            (Players::Two, Side::EastWest) => &[Seat::North],
        }
    }
}
