//! Each cheater is L2 but where its cheat says: replaying its hands, every move it made that L2
//! would not have is of the cheat's kind, and there are some.

use burraco_protocol::record::{HandRecord, RecordInput};
use burraco_rules::{Action, Config, Game, Input, Phase, Preset, Seat, SeatKnowledge, Seed, Suit};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::*;
use crate::Expert;

/// Where a cheater left L2's choice.
#[derive(Debug, Default, PartialEq, Eq)]
struct Deviations {
    takes: usize,
    melds: usize,
    discards: usize,
}

fn hands(cheat: Cheat, count: u8) -> Vec<HandRecord> {
    let names: [String; 4] = std::array::from_fn(|i| Seat::ALL[i].code().to_owned());
    (0..count)
        .map(|h| {
            let mut players: [Player; 4] = std::array::from_fn(|i| {
                let cheats = i == 0 || (i == 2 && cheat.is_pair());
                if cheats {
                    Player::Cheater(Cheater::new(cheat))
                } else {
                    Player::Honest(Box::new(Expert::new(i as u64)))
                }
            });
            play_recorded_hand(
                Config::of(Preset::Fitab),
                Seat::ALL[usize::from(h % 4)],
                Seed([h.wrapping_mul(37).wrapping_add(5); 32]),
                &mut players,
                &names,
                u64::from(h),
            )
            .expect("a hand plays")
        })
        .collect()
}

/// Replays hand `h`'s record and calls `visit` before each seat's move with its knowledge, the
/// world it was shown (drawn as [`play_recorded_hand`] drew it), the game, the move and its index.
fn replay(
    record: &HandRecord,
    h: u8,
    mut visit: impl FnMut(&SeatKnowledge, &Game, &Game, &Action, usize),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(h));
    let config = record.config().unwrap();
    let (mut game, events) =
        Game::new(config, record.dealer, record.deal_source().unwrap()).unwrap();
    let mut know: Vec<SeatKnowledge> = Seat::ALL
        .iter()
        .map(|&s| SeatKnowledge::new(config, s))
        .collect();
    for k in &mut know {
        events.iter().for_each(|e| k.observe(e));
    }
    for (i, recorded) in record.inputs.iter().enumerate() {
        let input = recorded.input.to_rules();
        if let Input::Act { seat, action } = &input {
            let k = &know[seat.index()];
            let world = k.determinize(&mut rng).unwrap();
            visit(k, &world, &game, action, i);
        }
        let events = game.apply(&input).unwrap();
        for k in &mut know {
            events.iter().for_each(|e| k.observe(e));
        }
    }
}

fn deviations(cheat: Cheat) -> Deviations {
    let mut d = Deviations::default();
    for (h, record) in (0..).zip(hands(cheat, 12)) {
        replay(&record, h, |know, world, game, action, _| {
            let seat = know.seat();
            if !(seat == Seat::North || (seat == Seat::South && cheat.is_pair())) {
                return;
            }
            let l2 = expert_choice(world, &game.legal_actions(), Some(know));
            if &l2 == action {
                return;
            }
            match (game.phase(), action) {
                (Phase::Take, _) => d.takes += 1,
                (_, Action::Discard { .. }) => d.discards += 1,
                _ => d.melds += 1,
            }
        });
    }
    d
}

#[test]
fn each_cheater_leaves_l2_only_where_its_cheat_says() {
    for cheat in Cheat::ALL {
        let d = deviations(cheat);
        eprintln!("{}: {d:?}", cheat.code());
        match cheat {
            Cheat::DeniesPile => assert!(d.takes > 0 && d.melds == 0 && d.discards == 0, "{d:?}"),
            Cheat::MeldsForPartner => {
                assert!(d.melds > 0 && d.takes == 0 && d.discards == 0, "{d:?}")
            }
            _ => assert!(d.discards > 0 && d.takes == 0 && d.melds == 0, "{d:?}"),
        }
    }
}

#[test]
fn a_timing_senders_discards_take_the_time_of_its_longest_suit() {
    let band = THINK_SPAN_MS / 4;
    let mut discards = 0;
    for (h, record) in (0..).zip(hands(Cheat::TimingTell, 4)) {
        replay(&record, h, |know, _, _, action, i| {
            let took = record.inputs[i].at_ms.unwrap()
                - i.checked_sub(1)
                    .map_or(0, |j| record.inputs[j].at_ms.unwrap());
            assert!((THINK_MIN_MS..THINK_MIN_MS + THINK_SPAN_MS).contains(&took));
            let sender = matches!(know.seat(), Seat::North | Seat::South);
            if sender && matches!(action, Action::Discard { .. }) {
                let suit = Suit::ALL[((took - THINK_MIN_MS) / band) as usize];
                assert_eq!(suit, longest_suit(know.hand().unwrap()));
                discards += 1;
            }
        });
        assert!(matches!(
            record.inputs[0].input,
            RecordInput::Draw { .. } | RecordInput::PickUp { .. }
        ));
    }
    assert!(discards > 20, "{discards}");
}
