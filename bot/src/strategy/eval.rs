//! Heuristics the reference strategies share: how useful a card is to keep, how many points a
//! meld lays, what melding greedily earns, and a hand's score margin as it stands.
//!
//! Everything here reads a [`Game`] only through what the seat on turn may see (its own hand and
//! the public table), so it is safe on a determinized world.

use burraco_rules::score::score_side;
use burraco_rules::{Action, Card, Game, Hand, Meld, MeldError, Phase, Rank, Seat, Side, Suit};

/// Card points an action lays on the table (0 for a take or a discard).
pub fn meld_points(action: &Action) -> i32 {
    match action {
        Action::Open { cards, .. } | Action::Attach { cards, .. } => {
            cards.iter().map(|c| c.points()).sum()
        }
        _ => 0,
    }
}

/// Whether `card` alone can be attached to `meld` (whatever the wild's position).
pub fn attaches(meld: &Meld, card: Card) -> bool {
    matches!(
        meld.attach(&[card], None),
        Ok(_) | Err(MeldError::WildPositionAmbiguous { .. })
    )
}

/// How much the seat wants to keep `card` of `hand` (higher = keep): wilds most, then cards that
/// attach to the side's melds, pairs toward a combination and neighbours toward a sequence.
pub fn usefulness<'a>(hand: &Hand, card: Card, own_melds: impl Iterator<Item = &'a Meld>) -> i32 {
    if card.is_wild() {
        return 1000;
    }
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return 1000;
    };
    let mut u = 0;
    let same_rank: u8 = Suit::ALL
        .iter()
        .map(|&s| hand.count(Card::new(rank, s)))
        .sum::<u8>()
        .saturating_sub(1);
    u += 30 * i32::from(same_rank.min(2));
    let pos = i32::from(rank.number());
    let positions: &[i32] = if rank == Rank::Ace {
        &[1, 14]
    } else {
        std::slice::from_ref(&pos)
    };
    for &p in positions {
        for d in [-2i32, -1, 1, 2] {
            let q = p + d;
            let n = if q == 14 { 1 } else { q };
            if !(3..=13).contains(&n) && n != 1 {
                continue;
            }
            let Some(r) = Rank::from_number(n as u8) else {
                continue;
            };
            if hand.contains(Card::new(r, suit)) {
                u += if d.abs() == 1 { 25 } else { 12 };
            }
        }
    }
    for m in own_melds {
        if attaches(m, card) {
            u += 60;
            break;
        }
    }
    u
}

/// The seat on turn's own melds in `world`.
pub fn own_melds(world: &Game) -> impl Iterator<Item = &Meld> {
    let side = world.side_of(world.on_turn());
    world
        .melds()
        .iter()
        .filter(move |(s, _)| *s == side)
        .map(|(_, m)| m)
}

/// The discard that keeps the most useful hand: the lowest usefulness, higher points first.
pub fn least_useful_discard(world: &Game, legal: &[Action]) -> Option<Action> {
    let hand = world.hand(world.on_turn());
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard { card } => Some((
                usefulness(hand, *card, own_melds(world)) * 4 - card.points(),
                a,
            )),
            _ => None,
        })
        .min_by_key(|(score, a)| (*score, action_key(a)))
        .map(|(_, a)| a.clone())
}

/// A total order on actions, so ties break the same way everywhere.
pub fn action_key(action: &Action) -> (u8, Vec<usize>, u8) {
    match action {
        Action::Draw => (0, Vec::new(), 0),
        Action::PickUp => (1, Vec::new(), 0),
        Action::Open { cards, wild_at } => (
            2,
            cards.iter().map(|c| c.index()).collect(),
            wild_at.unwrap_or(0),
        ),
        Action::Attach {
            meld,
            cards,
            wild_at,
        } => {
            let mut key: Vec<usize> = vec![usize::from(*meld)];
            key.extend(cards.iter().map(|c| c.index()));
            (3, key, wild_at.unwrap_or(0))
        }
        Action::Discard { card } => (4, vec![card.index()], 0),
    }
}

/// The meld or attachment laying the most points (then the most cards), if any.
pub fn best_meld(world: &Game) -> Option<Action> {
    world
        .legal_openings()
        .into_iter()
        .chain(world.legal_attachments())
        .max_by(|a, b| {
            let ka = (meld_points(a), meld_len(a));
            let kb = (meld_points(b), meld_len(b));
            ka.cmp(&kb).then_with(|| action_key(b).cmp(&action_key(a)))
        })
}

pub fn meld_len(action: &Action) -> usize {
    match action {
        Action::Open { cards, .. } | Action::Attach { cards, .. } => cards.len(),
        _ => 0,
    }
}

/// Melds greedily (most points first) for the seat on turn until nothing more can be laid;
/// returns the points laid.
pub fn meld_greedily(game: &mut Game) -> i32 {
    let seat = game.on_turn();
    let mut laid = 0;
    for _ in 0..40 {
        if game.phase() != Phase::Play {
            break;
        }
        let Some(action) = best_meld(game) else { break };
        if game.act(seat, &action).is_err() {
            break;
        }
        laid += meld_points(&action);
    }
    laid
}

/// What the seat on turn gains by melding greedily after `take`: the points laid, minus
/// `risk_pct` percent of the points it would then hold (they count against it if the hand ends
/// soon).
pub fn take_value(world: &Game, take: &Action, risk_pct: i32) -> i32 {
    let seat = world.on_turn();
    let mut g = world.clone();
    if g.act(seat, take).is_err() {
        return i32::MIN / 2;
    }
    let laid = meld_greedily(&mut g);
    let held = g.hand(seat).points();
    laid - held * risk_pct / 100
}

/// Each side's score if the hand ended now without a closing, as `side`'s margin over the other.
/// A finished hand gives its real margin.
pub fn estimate_margin(game: &Game, side: Side) -> i32 {
    if let Some((_, score)) = game.result() {
        return score.sides[side.index()].total() - score.sides[side.other().index()].total();
    }
    let players = game.players();
    let totals = Side::BOTH.map(|s| {
        let in_hand: i32 = players
            .members(s)
            .iter()
            .map(|m: &Seat| game.hand(*m).points())
            .sum();
        let melds = game
            .melds()
            .iter()
            .enumerate()
            .filter(|(_, (ms, _))| *ms == s)
            .map(|(i, (_, m))| (i as u8, m));
        // Partial credit for melds on their way to a burraco.
        let progress: i32 = game
            .melds()
            .iter()
            .filter(|(ms, m)| *ms == s && m.len() >= 5 && m.len() < 7)
            .map(|(_, m)| if m.len() == 6 { 50 } else { 20 })
            .sum();
        score_side(
            game.config(),
            melds,
            in_hand,
            game.pozzetto_of(s).is_some(),
            false,
        )
        .total()
            + progress
    });
    totals[side.index()] - totals[side.other().index()]
}
