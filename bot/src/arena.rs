//! The in-process arena: duplicate matches between two strategies.
//!
//! A *board* is a match's worth of seeded deals. Each board is played twice with the same seeds
//! and dealers: first A holds North-South and B East-West, then the partnerships swap seats. The
//! luck of the cards cancels in the pair, so the per-board margin (A's score minus B's, per hand,
//! averaged over both plays) measures skill with far fewer hands. The report gives the mean
//! margin per hand with a 95% confidence interval over boards, the match win rate with a Wilson
//! interval, and the time each strategy spent per decision.

use std::time::{Duration, Instant};

use burraco_rules::{
    Action, Config, DealSource, Game, HandScore, Match, Seat, SeatKnowledge, Seed, Side,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::stats::{MeanCi, wilson};
use std::sync::{Arc, Mutex};

use crate::strategy::{Decision, DeepBudget, Level, SearchBudget, Strategy};

/// Why a hand could not be played in the arena.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    #[error("the hand could not be dealt: {0}")]
    Deal(String),
    #[error("a seat's knowledge could not be determinized: {0}")]
    Determinize(#[from] burraco_rules::DeterminizeError),
    #[error("the hand did not end within {0} actions")]
    Runaway(usize),
}

/// Time and counts of one strategy's decisions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecisionStats {
    pub decisions: u64,
    pub time: Duration,
    /// Actions returned that were not legal (replaced by the first legal action).
    pub illegal: u64,
}

impl DecisionStats {
    pub fn add(&mut self, other: &DecisionStats) {
        self.decisions += other.decisions;
        self.time += other.time;
        self.illegal += other.illegal;
    }

    /// Mean time per decision, in microseconds.
    pub fn micros_per_decision(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.time.as_secs_f64() * 1e6 / self.decisions as f64
        }
    }
}

/// Plays one hand with a strategy per seat (indexed by [`Seat::index`]); returns its score.
/// `stats[i]` collects the decisions of the strategy at seat index `i`.
pub fn play_hand(
    config: Config,
    dealer: Seat,
    seed: Seed,
    strategies: &mut [Box<dyn Strategy>; 4],
    stats: &mut [DecisionStats; 4],
    rng_seed: u64,
) -> Result<HandScore, ArenaError> {
    let (mut game, events) = Game::new(config, dealer, DealSource::Seed(seed))
        .map_err(|e| ArenaError::Deal(e.to_string()))?;
    let mut know: Vec<SeatKnowledge> = Seat::ALL
        .iter()
        .map(|&s| SeatKnowledge::new(config, s))
        .collect();
    for k in &mut know {
        events.iter().for_each(|e| k.observe(e));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    const MAX_ACTIONS: usize = 5000;
    for _ in 0..MAX_ACTIONS {
        if let Some((_, score)) = game.result() {
            return Ok(score.clone());
        }
        let seat = game.on_turn();
        let legal = game.legal_actions();
        let k = &know[seat.index()];
        let world = k.determinize(&mut rng)?;
        let started = Instant::now();
        let chosen = strategies[seat.index()].choose(&Decision {
            knowledge: k,
            legal: &legal,
            world: &world,
        });
        let st = &mut stats[seat.index()];
        st.time += started.elapsed();
        st.decisions += 1;
        let action: Action = if legal.contains(&chosen) {
            chosen
        } else {
            st.illegal += 1;
            legal[0].clone()
        };
        let events = game.act(seat, &action).expect("a legal action is accepted");
        for k in &mut know {
            events.iter().for_each(|e| k.observe(e));
        }
    }
    Err(ArenaError::Runaway(MAX_ACTIONS))
}

/// The seed of hand `hand` of board `board` in an arena run seeded `seed`.
pub fn board_seed(seed: u64, board: u64, hand: u32) -> Seed {
    let mut rng = ChaCha8Rng::seed_from_u64(
        seed ^ board.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(hand) << 48),
    );
    let mut bytes = [0u8; 32];
    rand_core::Rng::fill_bytes(&mut rng, &mut bytes);
    Seed(bytes)
}

/// The result of one play of a board: per hand, the margin of the side A played.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayOutcome {
    pub margins: Vec<i32>,
    /// A's total minus B's over the match.
    pub match_margin: i32,
}

/// Plays board `board` of `arena` once as a match, A at `a_side`. Strategies are fresh for each
/// play.
pub fn play_board(
    arena: &ArenaConfig,
    board: u64,
    a: Level,
    b: Level,
    a_side: Side,
    stats: &mut [DecisionStats; 2],
) -> Result<PlayOutcome, ArenaError> {
    let (config, run_seed, budget) = (arena.config, arena.seed, arena.budget);
    let players = config.players();
    let first_dealer = players.seats()[(board % players.count() as u64) as usize];
    let mut m =
        Match::new(config, first_dealer, false).map_err(|e| ArenaError::Deal(e.to_string()))?;
    let mut margins = Vec::new();
    let mut hand = 0u32;
    while let Some(dealer) = m.dealer_of_next_hand() {
        let mut strategies: [Box<dyn Strategy>; 4] = std::array::from_fn(|i| {
            let seat = Seat::ALL[i];
            let level = if players.side_of(seat) == a_side {
                a
            } else {
                b
            };
            level.strategy_with(
                run_seed ^ (board << 8) ^ (u64::from(hand) << 4) ^ i as u64,
                budget,
                arena.deep,
            )
        });
        let mut seat_stats = [DecisionStats::default(); 4];
        let score = play_hand(
            config,
            dealer,
            board_seed(run_seed, board, hand),
            &mut strategies,
            &mut seat_stats,
            run_seed ^ board ^ u64::from(hand),
        )?;
        for seat in players.seats() {
            let who = usize::from(players.side_of(*seat) != a_side);
            stats[who].add(&seat_stats[seat.index()]);
        }
        let sa = score.sides[a_side.index()].total();
        let sb = score.sides[a_side.other().index()].total();
        margins.push(sa - sb);
        m.record_hand(&score)
            .map_err(|e| ArenaError::Deal(e.to_string()))?;
        hand += 1;
        if hand > 50 {
            break;
        }
    }
    let totals = m.totals();
    Ok(PlayOutcome {
        margins,
        match_margin: totals[a_side.index()] - totals[a_side.other().index()],
    })
}

/// What to play in a duplicate comparison.
#[derive(Debug, Clone, Copy)]
pub struct ArenaConfig {
    pub config: Config,
    /// Boards; each is played twice (2 matches).
    pub boards: u64,
    pub seed: u64,
    pub budget: SearchBudget,
    /// L4's budget.
    pub deep: DeepBudget,
    /// Worker threads.
    pub threads: usize,
}

/// A duplicate comparison of A against B.
#[derive(Debug, Clone)]
pub struct ArenaReport {
    pub a: Level,
    pub b: Level,
    pub boards: u64,
    pub matches: u64,
    pub hands: u64,
    /// A's mean margin per hand over B, 95% CI over boards.
    pub margin: MeanCi,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// A's match win rate (draws count half) and its Wilson 95% interval.
    pub win_rate: f64,
    pub win_rate_ci: (f64, f64),
    pub a_stats: DecisionStats,
    pub b_stats: DecisionStats,
    pub elapsed: Duration,
}

impl ArenaReport {
    /// A beats B with 95% confidence: the margin's interval lies above zero.
    pub fn a_wins_significantly(&self) -> bool {
        self.margin.low() > 0.0
    }

    /// One Markdown table row.
    pub fn markdown_row(&self) -> String {
        format!(
            "| {} vs {} | {} | {} | {} | {:+.1} | [{:+.1}, {:+.1}] | {:.1}% | [{:.1}%, {:.1}%] | {} | {} | {:.0} s |",
            self.a.short(),
            self.b.short(),
            self.boards,
            self.matches,
            self.hands,
            self.margin.mean,
            self.margin.low(),
            self.margin.high(),
            100.0 * self.win_rate,
            100.0 * self.win_rate_ci.0,
            100.0 * self.win_rate_ci.1,
            format_micros(self.a_stats.micros_per_decision()),
            format_micros(self.b_stats.micros_per_decision()),
            self.elapsed.as_secs_f64(),
        )
    }

    pub const MARKDOWN_HEADER: &str = "| match-up | boards | matches | hands | margin/hand | 95% CI | match wins | Wilson 95% | time/decision A | time/decision B | wall |\n|---|---|---|---|---|---|---|---|---|---|---|";
}

fn format_micros(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

/// Plays `arena.boards` duplicate boards of A against B.
pub fn duplicate(a: Level, b: Level, arena: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    let started = Instant::now();
    let threads = arena.threads.max(1) as u64;
    type Board = (Vec<i32>, Vec<i32>, [DecisionStats; 2]);
    let results: Vec<Result<Vec<Board>, ArenaError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut board = t;
                    while board < arena.boards {
                        let mut stats = [DecisionStats::default(); 2];
                        let first = play_board(arena, board, a, b, Side::NorthSouth, &mut stats)?;
                        let second = play_board(arena, board, a, b, Side::EastWest, &mut stats)?;
                        out.push((
                            [first.margins, second.margins].concat(),
                            vec![first.match_margin, second.match_margin],
                            stats,
                        ));
                        board += threads;
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("arena worker panicked"))
            .collect()
    });
    let mut per_board = Vec::new();
    let (mut wins, mut draws, mut losses, mut hands) = (0u64, 0u64, 0u64, 0u64);
    let mut a_stats = DecisionStats::default();
    let mut b_stats = DecisionStats::default();
    for r in results {
        for (margins, matches, stats) in r? {
            hands += margins.len() as u64;
            per_board.push(
                margins.iter().map(|&m| f64::from(m)).sum::<f64>() / margins.len().max(1) as f64,
            );
            for mm in matches {
                match mm.cmp(&0) {
                    std::cmp::Ordering::Greater => wins += 1,
                    std::cmp::Ordering::Equal => draws += 1,
                    std::cmp::Ordering::Less => losses += 1,
                }
            }
            a_stats.add(&stats[0]);
            b_stats.add(&stats[1]);
        }
    }
    let matches = wins + draws + losses;
    let score = wins as f64 + draws as f64 / 2.0;
    Ok(ArenaReport {
        a,
        b,
        boards: arena.boards,
        matches,
        hands,
        margin: MeanCi::of(&per_board),
        wins,
        draws,
        losses,
        win_rate: if matches == 0 {
            0.0
        } else {
            score / matches as f64
        },
        win_rate_ci: wilson(score, matches as f64),
        a_stats,
        b_stats,
        elapsed: started.elapsed(),
    })
}

/// A strategy whose decisions with a choice (more than one legal action) are timed into a
/// shared list.
struct Timed {
    inner: Box<dyn Strategy>,
    times: Arc<Mutex<Vec<Duration>>>,
}

impl Strategy for Timed {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let started = Instant::now();
        let action = self.inner.choose(decision);
        if decision.legal.len() > 1 {
            let elapsed = started.elapsed();
            self.times
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(elapsed);
        }
        action
    }
}

/// The time of each decision with a choice that `level` makes in `hands` hands against
/// `against` (`level` North-South, one thread: a timing wants the machine to itself).
pub fn decision_times(
    level: Level,
    against: Level,
    arena: &ArenaConfig,
    hands: u32,
) -> Result<Vec<Duration>, ArenaError> {
    let times = Arc::new(Mutex::new(Vec::new()));
    let players = arena.config.players();
    for hand in 0..hands {
        let mut strategies: [Box<dyn Strategy>; 4] = std::array::from_fn(|i| {
            let seat = Seat::ALL[i];
            let seed = arena.seed ^ (u64::from(hand) << 4) ^ i as u64;
            if players.side_of(seat) == Side::NorthSouth {
                Box::new(Timed {
                    inner: level.strategy_with(seed, arena.budget, arena.deep),
                    times: times.clone(),
                }) as Box<dyn Strategy>
            } else {
                against.strategy_with(seed, arena.budget, arena.deep)
            }
        });
        let dealer = players.seats()[hand as usize % players.count()];
        let mut stats = [DecisionStats::default(); 4];
        play_hand(
            arena.config,
            dealer,
            board_seed(arena.seed, u64::from(hand), 0),
            &mut strategies,
            &mut stats,
            arena.seed ^ u64::from(hand),
        )?;
    }
    let mut times = std::mem::take(
        &mut *times
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    times.sort();
    Ok(times)
}

/// The `q`-quantile (0..=1) of sorted `times` (nearest rank); zero when empty.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
