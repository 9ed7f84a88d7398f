//! The load generator: many concurrent Burraco tables of bot clients against a running server.
//!
//! - [`target`]: the loopback-only target and the spread of source addresses over 127.0.0.x.
//! - [`table`]: one task per table drives its four bot connections (the bot crate's sans-IO
//!   [`burraco_bot::Session`]) and measures action -> reply and action -> last seat's event.
//! - [`metrics`]: counters, HDR histograms, the process's own CPU and memory from /proc.
//! - [`baseline`]: a bare tokio-tungstenite fan-out server and its driver, for the
//!   "actions per second per server core vs bare fan-out" ratio.
//! - [`run`]: the run itself: ramp-up, pacing, the reconnect storm, the live line, the summary.
//! - [`tournament`]: a tournament of bot pairs, measured round by round (start to every table
//!   dealt, last match to standings), errors and the server's memory.
//! - [`quick_play`]: bursts of simultaneous quick plays: seated per second, reply latency, and
//!   tables per burst.

pub mod baseline;
pub mod metrics;
pub mod quick_play;
pub mod run;
pub mod table;
pub mod target;
pub mod tournament;
