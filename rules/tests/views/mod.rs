//! RULES.md section 12: what each party may see. [`check_view`] and [`check_events`] compare a view
//! and the events of an input against the game's hidden state; the property tests run them on
//! every state of many random hands.

use burraco_rules::{
    Card, Config, DealSource, Event, Game, Players, PozzettoId, Preset, Seat, Seed, Side,
    TableView, Viewer,
};

use crate::support::{DeckBuilder, Table};

/// Every field of `game.view(viewer)` is either public or the viewer's own, as section 12 lists.
/// The destructuring names every field, so a new one cannot slip past this check.
pub fn check_view(game: &Game, viewer: Viewer) {
    let view = game.view(viewer);
    let players = game.players();
    let TableView {
        viewer: v,
        players: p,
        dealer,
        on_turn,
        phase,
        hand,
        hand_sizes,
        melds,
        pile,
        tallone,
        pozzetti,
        picked_single_card,
        commitment,
        move_clock,
        last_round,
        stallo_exchanges,
        stallo_must_draw,
        result,
        final_hands,
    } = &view;
    assert_eq!(
        (*v, *p, *dealer, *on_turn, *phase),
        (viewer, players, game.dealer(), game.on_turn(), game.phase())
    );
    // A player: the own hand, from the moment it may see it. Nobody else's, ever.
    let own = match viewer {
        Viewer::Seat(seat) if players.is_seated(seat) && game.hand_visible_to_owner(seat) => {
            Some(game.hand(seat).to_vec())
        }
        _ => None,
    };
    assert_eq!(hand, &own, "{viewer:?} sees a hand it may not");
    // Public: counts, melds, the whole pile, the tallone's size, who took which pozzetto.
    let sizes: Vec<(Seat, usize)> = players
        .seats()
        .iter()
        .map(|&s| (s, game.hand(s).len()))
        .collect();
    assert_eq!(hand_sizes, &sizes);
    assert_eq!(melds.len(), game.melds().len());
    for (m, (id, (side, meld))) in melds.iter().zip(game.melds().iter().enumerate()) {
        assert_eq!((usize::from(m.id), m.side, m.meld), (id, *side, *meld));
    }
    assert_eq!(pile.as_slice(), game.pile());
    assert_eq!(
        *tallone,
        game.tallone_len(),
        "the tallone is a count, never its order"
    );
    let mut taken = [None, None];
    for side in Side::BOTH {
        if let Some(pozzetto) = game.pozzetto_of(side) {
            taken[pozzetto.index()] = Some(side);
        }
    }
    assert_eq!(
        *pozzetti, taken,
        "only who took a pozzetto, never its cards"
    );
    // The single card picked up was on the pile for all to see.
    assert_eq!(*picked_single_card, game.picked_single_card());
    // The commitment, never the seed.
    assert_eq!(*commitment, game.source().commitment());
    if let DealSource::Seed(seed) = game.source() {
        let text = format!("{view:?}");
        assert!(!text.contains(&seed.to_hex()));
        assert!(!text.contains(&format!("{:?}", seed.0)));
    }
    assert_eq!(*move_clock, game.move_clock());
    assert_eq!(*last_round, game.last_round());
    assert_eq!((*stallo_exchanges, *stallo_must_draw), game.stallo());
    assert_eq!(result.as_ref().map(|(e, s)| (*e, s)), game.result());
    // After the hand the full record is public.
    let all: Option<Vec<(Seat, Vec<Card>)>> = game.is_over().then(|| {
        players
            .seats()
            .iter()
            .map(|&s| (s, game.hand(s).to_vec()))
            .collect()
    });
    assert_eq!(final_hands, &all);
}

/// The events an input caused, `before` and `after` it: every event carrying hidden cards is
/// private to the one seat that may see them (RULES.md 12), and public events carry only cards
/// that are public. The match names every variant so a new one must be classified here.
pub fn check_events(before: &Game, after: &Game, events: &[Event]) {
    for event in events {
        match event {
            Event::Dealt { seat, .. } | Event::DrewCard { seat, .. } => {
                assert_eq!(event.private_to(), Some(*seat), "{event:?}");
            }
            Event::PozzettoCards { seat, cards } => {
                assert_eq!(event.private_to(), Some(*seat), "{event:?}");
                assert_eq!(cards.len(), 11);
                // Sent only once the owner may see them (RULES.md 6).
                assert!(
                    after.is_over() || after.hand_visible_to_owner(*seat),
                    "{event:?} too early"
                );
            }
            Event::PickedUp { cards, .. } => {
                assert_eq!(event.private_to(), None);
                assert_eq!(cards.as_slice(), before.pile(), "only the public pile");
            }
            Event::Opened {
                meld,
                cards,
                result,
                ..
            }
            | Event::Attached {
                meld,
                cards,
                result,
                ..
            } => {
                assert_eq!(event.private_to(), None);
                assert!(cards.iter().all(|c| result.cards().contains(c)));
                assert!(after.melds().get(usize::from(*meld)).is_some());
            }
            Event::Discarded { card, .. } => {
                assert_eq!(event.private_to(), None);
                assert_eq!(after.pile().last(), Some(card));
            }
            Event::HandStarted { commitment, .. } => {
                assert_eq!(event.private_to(), None);
                assert_eq!(*commitment, after.source().commitment());
            }
            Event::HandEnded { hands, .. } => {
                assert_eq!(event.private_to(), None);
                assert!(
                    after.is_over(),
                    "hands are public only once the hand is over"
                );
                assert_eq!(hands.len(), after.players().count());
            }
            Event::TurnStarted { .. }
            | Event::Drew { .. }
            | Event::PozzettoTaken { .. }
            | Event::ClockExpired { .. }
            | Event::TimeOutAnnounced { .. }
            | Event::StalloWarning { .. }
            | Event::Stallo { .. } => {
                assert_eq!(event.private_to(), None, "{event:?} carries no card");
            }
        }
    }
}

/// Checks every view of the game: each seat of the table, an unseated seat, a spectator.
pub fn check_all_views(game: &Game) {
    for seat in Seat::ALL {
        check_view(game, Viewer::Seat(seat));
    }
    check_view(game, Viewer::Spectator);
}

/// RULES.md 12: a spectator sees the table but no hand; a player sees its own hand only; the seed
/// stays hidden behind its commitment.
#[test]
fn spectators_and_players_see_what_section_12_allows() {
    let seed = Seed([42; 32]);
    let (game, events) = Game::new(
        Config::of(Preset::Fitab),
        Seat::East,
        DealSource::Seed(seed),
    )
    .expect("deal");
    check_events(&game, &game, &events);
    check_all_views(&game);
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(spectator.hand, None);
    assert_eq!(spectator.commitment, Some(seed.commitment()));
    assert_eq!(spectator.tallone, 41);
    assert_eq!(spectator.final_hands, None);
    for seat in Seat::ALL {
        assert_eq!(
            game.view(Viewer::Seat(seat)).hand,
            Some(game.hand(seat).to_vec())
        );
    }
}

/// RULES.md 12: head to head, a seat not at the table sees what a spectator sees.
#[test]
fn an_unseated_seat_sees_no_hand() {
    let t = Table::new(Config::head_to_head(Preset::Fedibur), &DeckBuilder::two());
    assert_eq!(t.game.players(), Players::Two);
    for seat in [Seat::East, Seat::West] {
        let view = t.game.view(Viewer::Seat(seat));
        assert_eq!(view.hand, None);
        assert_eq!(view.hand_sizes.len(), 2);
    }
    check_all_views(&t.game);
}

/// RULES.md 6 and 12: a pozzetto taken con lo scarto is hidden from everyone, its owner included,
/// until the partner's discard; the public sees that it was taken.
#[test]
fn hidden_pozzetto_in_every_view() {
    let deck = DeckBuilder::four()
        .hand(Seat::North, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        .tallone("5S");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(Seat::North);
    t.open(Seat::North, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH");
    let before = t.game.clone();
    let events = t.discard(Seat::North, "5S");
    check_events(&before, &t.game, &events);
    check_all_views(&t.game);
    assert_eq!(t.game.view(Viewer::Seat(Seat::North)).hand, None);
    assert_eq!(
        t.game.view(Viewer::Spectator).pozzetti,
        [Some(Side::NorthSouth), None]
    );
    for _ in 0..2 {
        let before = t.game.clone();
        let events = t.pass_events();
        check_events(&before, &t.game, &events);
        check_all_views(&t.game);
    }
    assert!(t.game.view(Viewer::Seat(Seat::North)).hand.is_some());
    assert!(t.game.pozzetto_cards(PozzettoId::A).is_empty());
}

/// RULES.md 12: after the hand the full record is public: every final hand, to every party.
#[test]
fn after_the_hand_every_hand_is_public() {
    let mut t = Table::new(Config::of(Preset::Feburit), &DeckBuilder::four());
    t.time_out();
    let mut last = Vec::new();
    while !t.game.is_over() {
        let before = t.game.clone();
        last = t.pass_events();
        check_events(&before, &t.game, &last);
    }
    let Some(Event::HandEnded { hands, .. }) = last.last() else {
        panic!("{last:?}")
    };
    for viewer in [Viewer::Spectator, Viewer::Seat(Seat::West)] {
        assert_eq!(t.game.view(viewer).final_hands.as_ref(), Some(hands));
    }
    check_all_views(&t.game);
}
