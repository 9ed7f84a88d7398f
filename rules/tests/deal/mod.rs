//! RULES.md section 3: seats, the seeded shuffle, the order of the deal, the commitment.

use burraco_rules::{
    Card, Config, DECK_SIZE, DealSource, Event, Game, Phase, Players, PozzettoId, Preset, Seat,
    Seed, canonical_deck, game::DealError, shuffled_deck,
};

use crate::support::{DeckBuilder, Table, c, cs, sorted};

/// ChaCha20 as RFC 8439 defines it, written out here so the test does not trust the crate that
/// the rules use: key = seed, nonce 0, block counter `counter`, sixteen little-endian words.
fn chacha20_block(key: &[u8; 32], counter: u32) -> [u32; 16] {
    fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(16);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(12);
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(8);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(7);
    }
    let mut state = [0u32; 16];
    state[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for (i, word) in key.chunks_exact(4).enumerate() {
        state[4 + i] = u32::from_le_bytes(word.try_into().expect("4 bytes"));
    }
    state[12] = counter;
    let mut work = state;
    for _ in 0..10 {
        quarter(&mut work, 0, 4, 8, 12);
        quarter(&mut work, 1, 5, 9, 13);
        quarter(&mut work, 2, 6, 10, 14);
        quarter(&mut work, 3, 7, 11, 15);
        quarter(&mut work, 0, 5, 10, 15);
        quarter(&mut work, 1, 6, 11, 12);
        quarter(&mut work, 2, 7, 8, 13);
        quarter(&mut work, 3, 4, 9, 14);
    }
    std::array::from_fn(|i| work[i].wrapping_add(state[i]))
}

/// The shuffle of RULES.md 3.2, step by step from the text.
fn shuffle_by_the_text(seed: &[u8; 32]) -> [Card; DECK_SIZE] {
    let mut words = (0u32..).flat_map(|block| chacha20_block(seed, block));
    let mut deck = canonical_deck();
    for i in (1..DECK_SIZE).rev() {
        let n = i as u64 + 1;
        let limit = (1u64 << 32) - (1u64 << 32) % n;
        let j = loop {
            let x = u64::from(words.next().expect("endless keystream"));
            if x < limit {
                break (x % n) as usize;
            }
        };
        deck.swap(i, j);
    }
    deck
}

#[test]
fn chacha20_reference_matches_rfc_8439_vector() {
    // RFC 8439 A.1, test vector #1: all-zero key and nonce, block counter 0.
    let expected = "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
                    da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586";
    let bytes: String = chacha20_block(&[0; 32], 0)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(bytes, expected);
}

/// RULES.md 3.1: the canonical order, twice H D C S each A..K, then the jokers.
#[test]
fn canonical_deck_order_is_section_3_1() {
    let deck = canonical_deck();
    assert_eq!(deck[0], c("AH"));
    assert_eq!(deck[1], c("2H"));
    assert_eq!(deck[12], c("KH"));
    assert_eq!(deck[13], c("AD"));
    assert_eq!(deck[51], c("KS"));
    assert_eq!(deck[52], c("AH"));
    assert!(deck[104..].iter().all(|&card| card == Card::JOKER));
}

/// RULES.md 3.2: the shuffle is ChaCha20 (key = seed, nonce 0, counter 0) and Fisher-Yates with
/// rejection, exactly as written, so any party can recompute a deal from the revealed seed.
#[test]
fn seeded_shuffle_is_the_published_algorithm() {
    for k in 0u8..24 {
        let seed: [u8; 32] =
            std::array::from_fn(|i| (i as u8).wrapping_mul(31).wrapping_add(k * 7));
        assert_eq!(
            shuffled_deck(&Seed(seed)),
            shuffle_by_the_text(&seed),
            "seed #{k}"
        );
    }
    assert_eq!(shuffled_deck(&Seed([0; 32])), shuffle_by_the_text(&[0; 32]));
    assert_eq!(
        shuffled_deck(&Seed([0xff; 32])),
        shuffle_by_the_text(&[0xff; 32])
    );
}

/// RULES.md 3.3-3.5 with four players: card k to hand k % 4 from the dealer's left, pozzetti
/// from the bottom A, B, A, ..., then the up card, the rest the tallone top first.
#[test]
fn deal_order_four_players() {
    let deck = canonical_deck();
    for dealer in Seat::ALL {
        let (game, events) = Game::new(
            Config::of(Preset::Fitab),
            dealer,
            DealSource::Deck(Box::new(deck)),
        )
        .expect("deal");
        let mut seat = dealer.left();
        for i in 0..4 {
            let expected: Vec<Card> = (0..11).map(|j| deck[j * 4 + i]).collect();
            assert_eq!(
                game.hand(seat).to_vec(),
                sorted(expected),
                "hand {i} goes to {seat}"
            );
            seat = seat.left();
        }
        let a: Vec<Card> = (0..11).map(|j| deck[107 - 2 * j]).collect();
        let b: Vec<Card> = (0..11).map(|j| deck[106 - 2 * j]).collect();
        assert_eq!(game.pozzetto_cards(PozzettoId::A), a);
        assert_eq!(game.pozzetto_cards(PozzettoId::B), b);
        assert_eq!(game.pile(), &[deck[44]]);
        assert_eq!(game.tallone_top_first(), deck[45..86].to_vec());
        assert_eq!(game.tallone_len(), 41);
        assert_eq!(
            game.on_turn(),
            dealer.left(),
            "the dealer's left plays first"
        );
        assert_eq!(game.phase(), Phase::Take);
        assert_eq!(
            events[0],
            Event::HandStarted {
                dealer,
                first: dealer.left(),
                up_card: deck[44],
                commitment: None
            }
        );
    }
}

/// RULES.md 3: head to head, two seats (South and North), 22 cards dealt, 63 in the tallone.
#[test]
fn deal_order_head_to_head() {
    let deck = canonical_deck();
    let config = Config::head_to_head(Preset::Feburit);
    for dealer in [Seat::South, Seat::North] {
        let (game, _) = Game::new(config, dealer, DealSource::Deck(Box::new(deck))).expect("deal");
        let first = dealer.partner();
        assert_eq!(game.on_turn(), first);
        let first_hand: Vec<Card> = (0..11).map(|j| deck[2 * j]).collect();
        let dealer_hand: Vec<Card> = (0..11).map(|j| deck[2 * j + 1]).collect();
        assert_eq!(game.hand(first).to_vec(), sorted(first_hand));
        assert_eq!(game.hand(dealer).to_vec(), sorted(dealer_hand));
        assert_eq!(game.pile(), &[deck[22]]);
        assert_eq!(game.tallone_len(), 63);
        assert_eq!(game.tallone_top_first(), deck[23..86].to_vec());
        assert!(game.hand(Seat::East).is_empty() && game.hand(Seat::West).is_empty());
    }
}

/// RULES.md 3: the test helper lays chosen cards where the deal puts them.
#[test]
fn deck_builder_places_cards_as_dealt() {
    let deck = DeckBuilder::four()
        .hand(Seat::North, "AH 2H 3H")
        .hand(Seat::West, "JK JK")
        .up("KS")
        .tallone("QD JD")
        .pozzetto(PozzettoId::A, "9C 9C")
        .pozzetto(PozzettoId::B, "8S");
    let table = Table::new(Config::of(Preset::Fitab), &deck);
    let g = &table.game;
    assert!(g.hand(Seat::North).contains_all(&cs("AH 2H 3H")));
    assert_eq!(g.hand(Seat::West).count(Card::JOKER), 2);
    assert_eq!(g.pile(), &[c("KS")]);
    assert_eq!(&g.tallone_top_first()[..2], &cs("QD JD")[..]);
    assert_eq!(&g.pozzetto_cards(PozzettoId::A)[..2], &cs("9C 9C")[..]);
    assert_eq!(g.pozzetto_cards(PozzettoId::B)[0], c("8S"));
}

/// RULES.md 3: the commitment is SHA-256(seed), published in `HandStarted`; the seed is not.
#[test]
fn hand_started_publishes_the_commitment_not_the_seed() {
    let seed = Seed([0; 32]);
    let (game, events) = Game::new(
        Config::of(Preset::Fitab),
        Seat::North,
        DealSource::Seed(seed),
    )
    .expect("deal");
    let Event::HandStarted {
        commitment,
        up_card,
        ..
    } = &events[0]
    else {
        panic!("first event is HandStarted: {:?}", events[0]);
    };
    assert_eq!(*commitment, Some(seed.commitment()));
    assert_eq!(
        seed.commitment_hex(),
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    );
    assert_eq!(*up_card, shuffled_deck(&seed)[44]);
    assert!(
        !format!("{game:?}").contains(&seed.to_hex()),
        "Debug of a game shows the seed"
    );
}

/// RULES.md 3 and 12: each seat is told its own cards privately, then the first turn starts.
#[test]
fn opening_events_are_one_private_deal_per_seat() {
    for (config, seats) in [
        (Config::of(Preset::Fitab), 4),
        (Config::head_to_head(Preset::Fitab), 2),
    ] {
        let (game, events) =
            Game::new(config, Seat::North, DealSource::Seed(Seed([9; 32]))).expect("deal");
        assert_eq!(events.len(), 1 + seats + 1);
        for (event, &seat) in events[1..=seats].iter().zip(config.players().seats()) {
            assert_eq!(
                event,
                &Event::Dealt {
                    seat,
                    cards: game.hand(seat).to_vec()
                },
                "one Dealt per seat"
            );
            assert_eq!(event.private_to(), Some(seat));
        }
        assert!(matches!(
            events[seats + 1],
            Event::TurnStarted { cards_held: 11, .. }
        ));
    }
}

/// RULES.md 3: a test deck must be the 108 cards; the dealer must be seated.
#[test]
fn deal_refuses_an_incomplete_deck_or_an_unseated_dealer() {
    let mut deck = canonical_deck();
    deck[0] = Card::JOKER;
    assert_eq!(
        Game::new(
            Config::of(Preset::Fitab),
            Seat::North,
            DealSource::Deck(Box::new(deck))
        )
        .map(|_| ()),
        Err(DealError::IncompleteDeck)
    );
    let config = Config::head_to_head(Preset::Fitab);
    assert_eq!(config.players(), Players::Two);
    assert_eq!(
        Game::new(config, Seat::East, DealSource::Seed(Seed([1; 32]))).map(|_| ()),
        Err(DealError::DealerNotSeated(Seat::East))
    );
}

/// RULES.md 2: 108 cards, two French decks of 52 plus 4 jokers; the wilds are the 4 jokers and the
/// eight 2s.
#[test]
fn the_deck_is_two_french_decks_of_52_and_4_jokers_12_of_them_wild() {
    let deck = canonical_deck();
    assert_eq!(deck.len(), 108);
    for face in (0..Card::FACES).map(|i| Card::from_index(i).expect("face")) {
        let n = deck.iter().filter(|&&card| card == face).count();
        assert_eq!(n, if face.is_joker() { 4 } else { 2 }, "{face}");
    }
    let wilds: Vec<Card> = deck.iter().copied().filter(|card| card.is_wild()).collect();
    assert_eq!(wilds.len(), 12);
    assert_eq!(wilds.iter().filter(|card| card.is_joker()).count(), 4);
    assert!(
        wilds
            .iter()
            .all(|card| card.is_joker() || card.rank() == Some(burraco_rules::Rank::Two))
    );
}

/// RULES.md 2 "secondo norma": highest value first; equal values by suit order (hearts, diamonds,
/// clubs, spades); within one suit by rank order (joker, 2, A, K, Q, J, 10, ..., 3).
#[test]
fn secondo_norma_orders_every_face_by_value_then_suit_then_rank() {
    let mut faces: Vec<Card> = (0..Card::FACES)
        .map(|i| Card::from_index(i).expect("face"))
        .collect();
    faces.sort_by_key(|card| std::cmp::Reverse(card.norma_key()));
    let expected = cs("JK 2H 2D 2C 2S AH AD AC AS \
         KH QH JH 10H 9H 8H KD QD JD 10D 9D 8D KC QC JC 10C 9C 8C KS QS JS 10S 9S 8S \
         7H 6H 5H 4H 3H 7D 6D 5D 4D 3D 7C 6C 5C 4C 3C 7S 6S 5S 4S 3S");
    assert_eq!(faces, expected);
    // The example of RULES.md 2: of K♠ and Q♥, both 10 points, Q♥ goes first.
    assert!(c("QH").norma_key() > c("KS").norma_key());
}
