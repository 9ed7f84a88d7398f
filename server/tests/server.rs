//! The server crate's one integration-test binary: every test starts a real server on
//! 127.0.0.1:0 (a temporary data directory) and drives it over real WebSockets.

/// Test server, WebSocket client, the rules mirror that picks legal moves, frame checks.
mod common;

/// Accounts: the port's conformance suite on SQLite and on a PostgreSQL server the test starts;
/// the HTTP API on the raw socket (sessions, typed refusals, 429s, no secret in the database,
/// the logs or /metrics).
mod accounts;
/// The bot arena (protocol 1.7): two bot accounts ready, matched on duplicate boards, both
/// tables played, rated once, on the arena's leaderboard and their player pages; the daily cap,
/// a guest, a player account and a token without `play` refused; a challenge of a level. A
/// match survives its bot's restart and the server's kill -9 (its seats the accounts', its
/// deadlines logged); a bot that never comes back loses as a leaver, a table nobody came to
/// voids the match; the arena's store on SQLite and PostgreSQL.
mod arena;
/// The browser client embedded in the binary, served at `/`; no traversal.
mod assets;
/// Server bots: a human against three bots of each level, bots added to a waiting table
/// (`add_bots`), a stand-in bot for a player gone past the grace period until the player
/// resumes, bot seats after kill -9 and a restart.
mod bots;
/// Chaos on a real cluster (3 NATS servers, 3 nodes): a dozen 4-player tables of raw-socket
/// players spread over the nodes while a random node is killed (-9) and restarted at random
/// moments for a minute; moves whose reply was lost reconciled from the resumed seat's
/// snapshot; every record complete and replayable, no seq reused, no `ok` without its events,
/// no server bot for a connected player (issue 19). And a partition: a node cut off from NATS
/// and its peers (a blackholing proxy) steps down within its lease and never forks a table.
mod chaos;
/// Move clock expiry and the TIME OUT last round of each preset, with tokio's clock paused.
mod clocks;
/// Cluster mode on real NATS servers (the pinned PyPI wheel) and nodes: the JetStream log's
/// conformance, a hand across three nodes with every party's frames checked, kill -9 of a table's
/// owner, SIGSTOP of an owner past its lease, kill -9 of the NATS server leading the log, a rolling
/// restart, invites, quick play and sessions across nodes, readiness while draining, a duplicate
/// tournament played through another node than its own and finished after kill -9 of its node.
mod cluster;
/// kill -9 of the real binary mid-hand, restart on the same data, resume: nothing accepted lost.
mod crash;
/// One truth across every path: every sanction and identity change (playban, mute, time-out,
/// disable, a token revoked or expired, a session expired, every sign-out, a password change, an
/// operator's reset) crossed with every way in (the connections open before it, a cookie, a
/// bearer token, `hello_token`, a resume, quick play, rated quick play, creating and joining
/// tables, tournaments, the arena, chat, HTTP), on one node and through another node of a
/// cluster on PostgreSQL.
mod crossings;
/// The `/api` routes' edge: a malformed query or path answered with the route's typed JSON error
/// (never plain text); an account's ratings found by its id or its username.
mod edge;
/// Fair play: outcomes and playbans on SQLite and PostgreSQL (one conformance suite); over a
/// real server, a leaver playbanned and refused at quick play with the typed code, a drop back
/// within the grace and a leaver's partner not blamed.
mod fairplay;
/// Malformed, oversized and flooding input; the version rule; the HTTP endpoints; a client that
/// stops reading is dropped by its bounded outbound queue (socket level) and the server serves on.
mod hygiene;
/// Who holds a seat (1.6 `seat_identities`): a guest, a player account, a bot account and a
/// server bot told apart at a table, in a hand record, and in a tournament's standings.
mod identities;
/// Illegal actions are refused with the rule, and nothing changes.
mod illegal;
/// The server crate's layers read from its sources: the foundation imports nothing above it, and
/// no module joins the knot issue 33 is untying.
mod import_layers;
/// The durable table log's conformance suite, run on every implementation.
mod log;
/// Reports and moderation: the store's conformance on SQLite and PostgreSQL; a report, the
/// queue, a mute refusing chat, the flood limit, typed refusals, disables closing connections.
mod moderation;
/// What a client author meets first, on the raw socket: the hard frame limit (1009), the first
/// frame, flooding (its replies, then 1008), a resume taking a session over (4001), the id of
/// `frame_too_large`, names, `/metrics` from the start.
mod newcomer;
/// One outcome for a match (issue 32): a rated match ending -5 to -55, 10-10 VP, is a draw in
/// `match_ended` (the browser's fixture), on the player page, in the season and in the ratings.
mod outcome;
/// A full 4-player hand and a 2-player match, driven by the rules enumerators, with every
/// receiver's frames numbered without gaps and no hidden card in any party's raw frames.
mod play;
/// The players' index: its conformance suite on SQLite and PostgreSQL, the page's reads with
/// 10,000 matches on an account (timed), a finished match indexed for its guests' sessions.
mod players;
/// The backplane's ports (leases, sessions, the lobby's listings, tournament listings, duplicate
/// boards' embargo): one conformance suite each, run on the in-process implementation and on
/// NATS.
mod ports;
/// Quick play brings people together (issue 32): simultaneous askers of one kind fill one table
/// before another is made (casual and rated, 2 and 4 players).
mod quick_play;
/// Rated play (1.5): guests refused, a rated match moving both ratings once, kill -9 between a
/// match's end and its ratings applied once after the restart.
mod ratings;
/// Reconnection mid-hand: by replay from the buffer and by snapshot.
mod reconnect;
/// A log holding every kind of input rebuilds the table (every view as uninterrupted), and play
/// goes on.
mod restore;
/// Seasons (issue 21): the store's conformance on SQLite and PostgreSQL; a rated match's points
/// once through kill -9 and restarts; a tournament's places; past seasons.
mod seasons;
/// Stallo: `fitab` ends the hand, `fedibur` makes the first exchanger draw.
mod stallo;
/// The store's checkpoints keep the WAL small under appends that never pause.
mod store;
/// Tournaments played by bots over the protocol: standings recomputed from the hand records
/// (a pairs event, Mitchell then Danish; a singles round robin with byes; an individual event, no
/// partner twice), a Sit&Go knock-out with byes to the top seeds, duplicate boards (the same
/// deals at every table, no seed or record of a board before every table played it, nobody
/// watching, matchpoints recomputed), a director's adjustment, kill -9 mid-round and the tournament finishing after the restart,
/// and a 1.0 client never hearing a 1.1 message.
mod tournament;
/// The annotated transcript in docs/PROTOCOL.md comes from this run.
mod transcript;
