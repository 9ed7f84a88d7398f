//! L2: expert rules on top of L1: take the pile by weighing material against the risk of being
//! caught with points in hand, close as soon as a plan reaches it, go to the pozzetto fast, spend
//! wilds only where they pay (a burraco, the pozzetto, the end of the hand), and discard safely:
//! never a card that attaches to the opponents' melds or matches what the next opponent picked up.

use burraco_rules::{Action, Card, Game, Meld, Phase, Rank, SeatKnowledge, Suit};

use super::eval::{
    action_key, attaches, best_meld, meld_points, own_melds, take_value, usefulness,
};
use super::{Decision, Strategy};

/// The rule-based expert.
#[derive(Debug)]
pub struct Expert {
    _seed: u64,
}

impl Expert {
    pub fn new(seed: u64) -> Expert {
        Expert { _seed: seed }
    }
}

impl Strategy for Expert {
    fn name(&self) -> &str {
        "expert"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        expert_choice(decision.world, decision.legal, Some(decision.knowledge))
    }
}

/// L2's decision on a world for the seat on turn; `know` adds what the seat remembers (cards the
/// opponents picked up and discarded), absent in rollouts.
pub(crate) fn expert_choice(
    world: &Game,
    legal: &[Action],
    know: Option<&SeatKnowledge>,
) -> Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    match world.phase() {
        Phase::Take => expert_take(world, legal),
        _ => {
            if let Some(a) = closing_plan(world).filter(|a| legal.contains(a)) {
                return a;
            }
            if let Some(a) = expert_meld(world, legal) {
                return a;
            }
            expert_discards(world, legal, know)
                .into_iter()
                .next()
                .map(|(_, a)| a)
                .unwrap_or_else(|| legal[0].clone())
        }
    }
}

fn expert_take(world: &Game, legal: &[Action]) -> Action {
    if !legal.contains(&Action::PickUp) {
        return legal[0].clone();
    }
    if !legal.contains(&Action::Draw) {
        return Action::PickUp;
    }
    // Measured in the arena: material wins hands, so a pile of four or more is always worth it;
    // a smaller one when it lets the seat lay more than a draw would, weighing the points it
    // leaves in hand only near the end of the hand.
    if world.pile().len() >= 4 {
        return Action::PickUp;
    }
    let risk = if world.tallone_len() < 13 { 20 } else { 0 };
    let pick = take_value(world, &Action::PickUp, risk);
    let draw = take_value(world, &Action::Draw, risk);
    if pick > draw {
        Action::PickUp
    } else {
        Action::Draw
    }
}

/// When the side has its pozzetto: melds that leave one card the seat may close with, and the
/// first step of that plan.
fn closing_plan(world: &Game) -> Option<Action> {
    let seat = world.on_turn();
    world.pozzetto_of(world.side_of(seat))?;
    let mut g = world.clone();
    let mut first = None;
    for _ in 0..20 {
        if g.hand(seat).len() == 1 {
            let discards = g.legal_discard_actions();
            // One card left and a legal discard: that discard closes.
            return if discards.is_empty() {
                None
            } else {
                first.or_else(|| discards.into_iter().next())
            };
        }
        let a = best_meld(&g)?;
        g.act(seat, &a).ok()?;
        first.get_or_insert(a);
    }
    None
}

fn opponents_threaten(world: &Game) -> bool {
    let seat = world.on_turn();
    let them = world.side_of(seat).other();
    world.pozzetto_of(them).is_some()
        && world
            .melds()
            .iter()
            .any(|(s, m)| *s == them && m.is_burraco())
        && world
            .players()
            .members(them)
            .iter()
            .any(|m| world.hand(*m).len() <= 4)
}

fn expert_meld(world: &Game, legal: &[Action]) -> Option<Action> {
    let seat = world.on_turn();
    let side = world.side_of(seat);
    let hand_len = world.hand(seat).len();
    let late = world.tallone_len() < 10 || opponents_threaten(world);
    let no_pozzetto = world.pozzetto_of(side).is_none();
    let semipulito = world.config().semipulito();
    let mut best: Option<(i32, &Action)> = None;
    for a in legal {
        let (before, result) = match a {
            Action::Open { cards, wild_at } => match Meld::open(cards, *wild_at) {
                Ok(m) => (None, m),
                Err(_) => continue,
            },
            Action::Attach {
                meld,
                cards,
                wild_at,
            } => {
                let Some((_, m)) = world.melds().get(usize::from(*meld)) else {
                    continue;
                };
                match m.attach(cards, *wild_at) {
                    Ok(r) => (Some(*m), r),
                    Err(_) => continue,
                }
            }
            _ => continue,
        };
        let n = a_len(a);
        let hand_after = hand_len - n;
        let before_len = before.map_or(0, |m| m.len());
        let uses_wild =
            result.wild_card().is_some() && before.is_none_or(|m| m.wild_card().is_none());
        let completes = result.len() >= 7 && before_len < 7;
        if uses_wild && !(completes || hand_after <= 3 || late || (no_pozzetto && hand_after <= 5))
        {
            continue;
        }
        let mut value = meld_points(a) + 4 * n as i32;
        if completes {
            value += 150;
            if result
                .burraco_kind(semipulito)
                .is_some_and(|k| k.is_clean())
            {
                value += 100;
            }
        }
        if (5..7).contains(&result.len()) {
            value += 15;
        }
        if uses_wild {
            value -= 20;
        }
        if best.is_none_or(|(v, b)| value > v || (value == v && action_key(a) < action_key(b))) {
            best = Some((value, a));
        }
    }
    best.map(|(_, a)| a.clone())
}

fn a_len(a: &Action) -> usize {
    match a {
        Action::Open { cards, .. } | Action::Attach { cards, .. } => cards.len(),
        _ => 0,
    }
}

/// The legal discards, safest and least useful first, with their scores (lower = discard).
pub(crate) fn expert_discards(
    world: &Game,
    legal: &[Action],
    know: Option<&SeatKnowledge>,
) -> Vec<(i32, Action)> {
    let seat = world.on_turn();
    let players = world.players();
    let next = players.next(seat);
    let them = world.side_of(seat).other();
    let hand = world.hand(seat);
    let pile = world.pile().len() as i32;
    let threat = opponents_threaten(world);
    let mut out: Vec<(i32, Action)> = legal
        .iter()
        .filter_map(|a| {
            let Action::Discard { card } = a else {
                return None;
            };
            let card = *card;
            let keep = usefulness(hand, card, own_melds(world));
            let mut danger = 0;
            if card.is_wild() {
                danger += 200;
            }
            if world
                .melds()
                .iter()
                .any(|(s, m)| *s == them && attaches(m, card))
            {
                danger += 60 + 5 * pile;
            }
            if let Some(k) = know {
                danger += feeds_known(k.known_cards(next), card);
                let thrown = k
                    .discards()
                    .iter()
                    .filter(|(s, c)| *s == next && c.rank() == card.rank())
                    .count();
                danger -= 15 * thrown.min(2) as i32;
            }
            let weight = if threat { 3 } else { 1 };
            Some((keep + danger - weight * card.points(), a.clone()))
        })
        .collect();
    out.sort_by(|(x, a), (y, b)| x.cmp(y).then_with(|| action_key(a).cmp(&action_key(b))));
    out
}

/// How much discarding `card` helps a player known to hold `known`.
pub(crate) fn feeds_known(known: &burraco_rules::Hand, card: Card) -> i32 {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return 0;
    };
    let mut d = 0;
    if Suit::ALL
        .iter()
        .any(|&s| known.contains(Card::new(rank, s)))
    {
        d += 35;
    }
    for delta in [-2i32, -1, 1, 2] {
        let n = i32::from(rank.number()) + delta;
        if let Some(r) = u8::try_from(n).ok().and_then(Rank::from_number)
            && known.contains(Card::new(r, suit))
        {
            d += if delta.abs() == 1 { 20 } else { 8 };
        }
    }
    d
}
