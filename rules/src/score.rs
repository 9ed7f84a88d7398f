//! Scoring a hand (RULES.md section 10, art. 18).

use crate::config::Config;
use crate::meld::{BurracoKind, Meld};

/// The bonus one burraco earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BurracoScore {
    /// Which meld (its id in the game).
    pub meld: u8,
    pub kind: BurracoKind,
    pub bonus: i32,
}

/// One side's score for a hand, item by item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SideScore {
    /// The value of every card in the side's melds.
    pub melded: i32,
    pub burracos: Vec<BurracoScore>,
    /// 100 for the side that closed.
    pub closing: i32,
    /// The value of the cards left in the side's hands (including a pozzetto taken and not played),
    /// as a negative number.
    pub in_hand: i32,
    /// -100 when the side never took its pozzetto.
    pub pozzetto: i32,
}

impl SideScore {
    pub fn burraco_bonus(&self) -> i32 {
        self.burracos.iter().map(|b| b.bonus).sum()
    }

    pub fn total(&self) -> i32 {
        self.melded + self.burraco_bonus() + self.closing + self.in_hand + self.pozzetto
    }
}

/// Both sides' scores, indexed by [`crate::Side::index`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandScore {
    pub sides: [SideScore; 2],
}

/// Scores one side: `melds` with their ids, the points of the cards still held, whether it took a
/// pozzetto and whether it closed.
pub fn score_side<'a>(
    config: &Config,
    melds: impl Iterator<Item = (u8, &'a Meld)>,
    cards_in_hand_points: i32,
    took_pozzetto: bool,
    closed: bool,
) -> SideScore {
    let values = config.burraco_values();
    let mut score = SideScore {
        closing: if closed { 100 } else { 0 },
        in_hand: -cards_in_hand_points,
        pozzetto: if took_pozzetto { 0 } else { -100 },
        ..SideScore::default()
    };
    for (id, meld) in melds {
        score.melded += meld.points();
        if let Some(kind) = meld.burraco_kind(config.semipulito()) {
            // A kind the preset does not know scores as the next one down (FEDIBUR: reale and super
            // are burracos puliti).
            let (kind, bonus) = match kind {
                BurracoKind::Reale if values.reale.is_some() => {
                    (kind, values.reale.unwrap_or_default())
                }
                BurracoKind::Super if values.super_.is_some() => {
                    (kind, values.super_.unwrap_or_default())
                }
                BurracoKind::Reale | BurracoKind::Super | BurracoKind::Pulito => {
                    (BurracoKind::Pulito, values.pulito)
                }
                BurracoKind::Semipulito => match values.semipulito {
                    Some(v) => (kind, v),
                    None => (BurracoKind::Sporco, values.sporco),
                },
                BurracoKind::Sporco => (kind, values.sporco),
            };
            score.burracos.push(BurracoScore {
                meld: id,
                kind,
                bonus,
            });
        }
    }
    score
}
