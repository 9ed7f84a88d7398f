//! A tournament's settings, checked: what an entrant is (`Kind`, and where its players sit),
//! how each round is paired (`Movement`), and the tables' rules (`Settings`).

use burraco_protocol::convert::config_from_wire;
use burraco_protocol::tournament_log::RoundTable;
use burraco_protocol::wire::{WireSettings, WireTournamentSettings};
use burraco_rules::tournament::MatchFormat;
use burraco_rules::{Config, Players, Preset, Seat};

/// What an entrant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Fixed partners: two players an entrant, four a table.
    Pairs,
    /// Head to head: one player an entrant, two a table.
    Singles,
    /// One player an entrant, four a table: partners change every round (the Berger rotation
    /// of the first-round order, so nobody partners anyone twice while the field allows it),
    /// each player's VP and MP their own.
    Individual,
    /// Four players an entrant, two pairs (players 1-2 and 3-4): a match is two tables
    /// playing the same boards, the first pair of each team North-South at one and East-West
    /// at the other (FITAB art. 2); the team's match total is its two tables' together, its VP
    /// from the teams column.
    Teams,
}

impl Kind {
    pub fn players(self) -> usize {
        match self {
            Kind::Teams => 4,
            Kind::Pairs => 2,
            Kind::Singles | Kind::Individual => 1,
        }
    }

    /// Who sits where at a round's table: (entrant, index of its player, seat, side).
    pub fn places(self, table: &RoundTable) -> Vec<(u32, usize, Seat, usize)> {
        match self {
            Kind::Pairs => vec![
                (table.ns, 0, Seat::North, 0),
                (table.ns, 1, Seat::South, 0),
                (table.ew, 0, Seat::East, 1),
                (table.ew, 1, Seat::West, 1),
            ],
            // A match's first table (odd number) seats each team's first pair, its second
            // (the next number, the teams' sides swapped) each team's second pair.
            Kind::Teams => {
                let pair = if table.number % 2 == 1 { 0 } else { 2 };
                vec![
                    (table.ns, pair, Seat::North, 0),
                    (table.ns, pair + 1, Seat::South, 0),
                    (table.ew, pair, Seat::East, 1),
                    (table.ew, pair + 1, Seat::West, 1),
                ]
            }
            // Head to head the sides are South (side 0) and North.
            Kind::Singles => vec![(table.ns, 0, Seat::South, 0), (table.ew, 0, Seat::North, 1)],
            Kind::Individual => [
                (Some(table.ns), Seat::North, 0),
                (table.ns_partner, Seat::South, 0),
                (Some(table.ew), Seat::East, 1),
                (table.ew_partner, Seat::West, 1),
            ]
            .into_iter()
            .filter_map(|(e, seat, side)| e.map(|e| (e, 0, seat, side)))
            .collect(),
        }
    }

    /// The entrants of each side of a round's table.
    pub fn sides(self, table: &RoundTable) -> [Vec<u32>; 2] {
        let mut sides = [Vec::new(), Vec::new()];
        for (entrant, _, _, side) in self.places(table) {
            if !sides[side].contains(&entrant) {
                sides[side].push(entrant);
            }
        }
        sides
    }
}

/// How a round is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    Mitchell,
    Danish,
    ModifiedDanish,
    RoundRobin,
    /// A knock-out bracket to the next power of two (RULES.md section 11); last in the
    /// settings, it repeats until one entrant is left. Its first bracket is seeded by the
    /// standings, byes to the top seeds (`knockout`), or drawn, the byes falling by draw
    /// (`knockout_drawn`).
    Knockout {
        drawn: bool,
    },
}

impl Movement {
    pub fn from_code(code: &str) -> Option<Movement> {
        Some(match code {
            "mitchell" => Movement::Mitchell,
            "danish" => Movement::Danish,
            "modified_danish" => Movement::ModifiedDanish,
            "round_robin" => Movement::RoundRobin,
            "knockout" => Movement::Knockout { drawn: false },
            "knockout_drawn" => Movement::Knockout { drawn: true },
            _ => return None,
        })
    }

    pub fn is_knockout(self) -> bool {
        matches!(self, Movement::Knockout { .. })
    }

    /// Whether a round logged with movement `code` was a knock-out round.
    pub fn is_knockout_code(code: &str) -> bool {
        Movement::from_code(code).is_some_and(Movement::is_knockout)
    }

    pub fn code(self) -> &'static str {
        match self {
            Movement::Mitchell => "mitchell",
            Movement::Danish => "danish",
            Movement::ModifiedDanish => "modified_danish",
            Movement::RoundRobin => "round_robin",
            Movement::Knockout { drawn: false } => "knockout",
            Movement::Knockout { drawn: true } => "knockout_drawn",
        }
    }
}

/// Validated settings (the wire form is kept for the record and the log).
#[derive(Debug, Clone)]
pub struct Settings {
    pub wire: WireTournamentSettings,
    pub kind: Kind,
    pub movements: Vec<Movement>,
    pub preset: Preset,
    pub hands: u8,
    pub max_entrants: Option<u32>,
    pub draw: bool,
    pub start_when_full: bool,
    pub duplicate: bool,
    /// Every table's settings.
    pub table: Config,
}

/// Why settings do not make a tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("kind {0:?}: pairs, individual, singles or teams")]
    Kind(String),
    #[error(
        "movement {0:?}: mitchell, danish, modified_danish, round_robin, knockout or knockout_drawn"
    )]
    Movement(String),
    #[error("a tournament has 1 to 20 rounds")]
    Rounds,
    #[error("a knock-out comes last: no other movement after it, not even the other knock-out")]
    KnockoutLast,
    #[error("an individual event has no knock-out (partners change every round)")]
    IndividualKnockout,
    #[error("seating {0:?}: registration, draw or director")]
    Seating(String),
    #[error("at least 2 entrants")]
    MaxEntrants,
    #[error("a Sit&Go starts when its list is full: max_entrants 2, 4, 8, 16 ...")]
    SitAndGoSize,
    #[error("the tables' settings: {0}")]
    Table(String),
    #[error(
        "a tournament's name is 1 to 80 characters, without control, format (zero-width, bidi) \
         or invisible characters, not starting with a combining mark"
    )]
    Name,
}

impl Settings {
    pub fn from_wire(wire: &WireTournamentSettings) -> Result<Settings, SettingsError> {
        let kind = match wire.kind.as_str() {
            "pairs" => Kind::Pairs,
            "singles" => Kind::Singles,
            "individual" => Kind::Individual,
            "teams" => Kind::Teams,
            other => return Err(SettingsError::Kind(other.to_owned())),
        };
        let movements = wire
            .rounds
            .iter()
            .map(|m| Movement::from_code(m).ok_or_else(|| SettingsError::Movement(m.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        if movements.is_empty() || movements.len() > 20 {
            return Err(SettingsError::Rounds);
        }
        // A knock-out ends the event: nothing else may follow its bracket.
        if let Some(first) = movements.iter().position(|m| m.is_knockout())
            && movements[first..].iter().any(|&m| m != movements[first])
        {
            return Err(SettingsError::KnockoutLast);
        }
        let knockout = movements.iter().any(|m| m.is_knockout());
        if kind == Kind::Individual && knockout {
            return Err(SettingsError::IndividualKnockout);
        }
        let draw = match wire.seating.as_deref() {
            None | Some("registration") | Some("director") => false,
            Some("draw") => true,
            Some(other) => return Err(SettingsError::Seating(other.to_owned())),
        };
        if wire.max_entrants.is_some_and(|m| m < 2) {
            return Err(SettingsError::MaxEntrants);
        }
        let players = match kind {
            Kind::Pairs | Kind::Individual | Kind::Teams => 4,
            Kind::Singles => 2,
        };
        let table = config_from_wire(&WireSettings {
            preset: wire.preset.clone(),
            players: Some(players),
            hands: Some(wire.hands),
            target: None,
            clocks: wire.clocks.clone(),
            semipulito: None,
            close_requires_pulito: None,
        })
        .map_err(|e| SettingsError::Table(e.to_string()))?;
        Ok(Settings {
            wire: wire.clone(),
            kind,
            movements,
            preset: table.preset(),
            hands: wire.hands,
            max_entrants: wire.max_entrants,
            draw,
            start_when_full: wire.start_when_full.unwrap_or(false) && wire.max_entrants.is_some(),
            // A team match compares its two tables on the same deals: always duplicate.
            duplicate: wire.duplicate.unwrap_or(false) || kind == Kind::Teams,
            table,
        })
    }

    /// The settings of a tournament being created: [`Settings::from_wire`] plus the checks
    /// added since logs were first written (a log keeps loading with the settings it was
    /// created with).
    pub fn for_new(wire: &WireTournamentSettings) -> Result<Settings, SettingsError> {
        let settings = Settings::from_wire(wire)?;
        // The name is shown to everyone: the rule of players' names, longer (PROTOCOL.md 2).
        if burraco_protocol::text::normalise_line(
            &wire.name,
            burraco_protocol::text::MAX_TOURNAMENT_NAME,
        )
        .is_none()
        {
            return Err(SettingsError::Name);
        }
        // RULES.md section 11: a Sit&Go starts when its list is full, of 2, 4, 8, 16 ...
        // entrants.
        if wire.start_when_full == Some(true)
            && !wire.max_entrants.is_some_and(u32::is_power_of_two)
        {
            return Err(SettingsError::SitAndGoSize);
        }
        Ok(settings)
    }

    pub fn format(&self) -> MatchFormat {
        MatchFormat {
            preset: self.preset,
            hands: self.hands,
            teams: self.kind == Kind::Teams,
        }
    }

    pub fn players(&self) -> Players {
        self.table.players()
    }

    /// The movement of round `index` (from 0): a knock-out last in the list goes on.
    pub fn movement_at(&self, index: usize) -> Option<Movement> {
        self.movements
            .get(index)
            .copied()
            .or_else(|| self.movements.last().copied().filter(|m| m.is_knockout()))
    }

    /// Whether the settings end with a knock-out.
    pub fn ends_in_knockout(&self) -> bool {
        self.movements.last().is_some_and(|m| m.is_knockout())
    }
}
