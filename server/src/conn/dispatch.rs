//! A connection's requests routed: to the lobby, to a tournament, or to a table as the client sent
//! them ([`TableRequest`]: the table reads them into its command, here or on the node serving it).
//! One exhaustive match: a client message added to the protocol does not compile until it has
//! its route here.

use burraco_protocol::log::SeatAccount;

use super::*;
use crate::accounts::identity::Identity;

impl Connection {
    /// Routes one request. The match names every client message, with no arm for the rest: a
    /// new message is a compile error here until it is routed (to its table, the lobby, a
    /// tournament, or refused as `hello` is).
    pub(super) async fn dispatch(&mut self, request: ClientMessage) {
        use ClientMessage as C;
        if self.newer_than_hello(&request) {
            return;
        }
        if crate::fairplay::starts_play(&request)
            && !self.holds_seat_at(&request)
            && let Some(id) = request.id()
            && self.playbanned(id).await
        {
            return;
        }
        match request {
            // A request for a table by id (a move, whatever its kind, included) goes to it as
            // the client sent it: the table reads it into its command (`TableRequest`), here or
            // on the node serving it.
            C::Leave { ref table, .. } => {
                let table = table.clone();
                self.spectating.remove(&table);
                self.table_call(&table, request).await;
            }
            C::Spectate { ref table, .. } => {
                let table = table.clone();
                if self.table_call(&table, request).await {
                    self.spectating.insert(table);
                }
            }
            C::Chat { id, ref table, .. } => {
                let account = self.identity.account().map(|a| a.id.as_str());
                let player = &self.session.player;
                if let Some(why) =
                    crate::moderation::chat_refusal(&*self.shared.moderation.store, account, player)
                        .await
                {
                    self.out
                        .send_message(error(Some(id), ErrorCode::Muted, why));
                    return;
                }
                let table = table.clone();
                self.table_call(&table, request).await;
            }
            C::Ready { ref table, .. }
            | C::Sync { ref table, .. }
            | C::AddBots { ref table, .. }
            | C::Draw { ref table, .. }
            | C::PickUp { ref table, .. }
            | C::Open { ref table, .. }
            | C::Attach { ref table, .. }
            | C::Discard { ref table, .. }
            | C::Report { ref table, .. } => {
                let table = table.clone();
                self.table_call(&table, request).await;
            }
            C::Hello { .. } | C::HelloToken { .. } => {
                self.out.send_message(error(
                    None,
                    ErrorCode::UnexpectedHello,
                    "hello is only the first message",
                ));
            }
            C::Ping { id } => {
                self.out.send_message(ServerMessage::Pong { id });
            }
            C::ListTables { id } => {
                self.out.send_message(ServerMessage::Tables {
                    id,
                    tables: lobby::list(&self.shared),
                });
            }
            C::CreateTable {
                id,
                ref settings,
                private,
                bots,
            } => {
                if self.repeated_create(&request) {
                    return;
                }
                let bots = bots.map(crate::bots::level_from_wire);
                self.create_table(id, settings, private, bots, false).await;
            }
            C::CreateRatedTable {
                id,
                settings,
                private,
            } => {
                if self.refused_rated(id) {
                    return;
                }
                self.create_table(id, &settings, private, None, true).await;
            }
            C::CreateRatedTournament { id, settings } => {
                if self.refused_rated(id) {
                    return;
                }
                let account = self.identity.account().map(|a| a.id.clone());
                let created = crate::tournament::create_rated(
                    &self.shared,
                    &settings,
                    true,
                    account.as_deref(),
                )
                .await;
                let reply = match created {
                    Ok((tournament, director_token)) => ServerMessage::TournamentCreated {
                        id,
                        tournament,
                        director_token,
                    },
                    Err((code, message)) => error(Some(id), code, message),
                };
                self.out.send_message(reply);
            }
            C::TableLevels { id, table } => {
                let Some(handle) = lobby::find(&self.shared, &table).await else {
                    let message = "no such table";
                    self.out
                        .send_message(error(Some(id), ErrorCode::UnknownTable, message));
                    return;
                };
                let (rated, levels) = lobby::table_levels(&self.shared, &handle.info()).await;
                self.out.send_message(ServerMessage::TableLevels {
                    id,
                    table,
                    rated,
                    levels,
                });
            }
            C::SeatIdentities { id, table } => {
                let Some(handle) = lobby::find(&self.shared, &table).await else {
                    let message = "no such table";
                    self.out
                        .send_message(error(Some(id), ErrorCode::UnknownTable, message));
                    return;
                };
                let seats = handle.info().identities;
                self.out
                    .send_message(ServerMessage::SeatIdentities { id, table, seats });
            }
            C::ListLobby { id } => {
                let tables = lobby::list_lobby(&self.shared).await;
                self.out.send_message(ServerMessage::Lobby { id, tables });
            }
            C::Join {
                id,
                ref table,
                ref invite,
                ..
            } => {
                let handle = match (table, invite) {
                    (_, Some(code)) => lobby::by_invite(&self.shared, code).await,
                    // A table just created through another node may not be in this node's
                    // listings yet: a join by id waits for it (as a tournament's player does)
                    // rather than refusing a table that exists.
                    (Some(table), None) => lobby::find_soon(&self.shared, table)
                        .await
                        .filter(|h| !h.info().private),
                    (None, None) => {
                        self.out.send_message(error(
                            Some(id),
                            ErrorCode::InvalidMessage,
                            "join needs a table or an invite",
                        ));
                        return;
                    }
                };
                let Some(handle) = handle else {
                    let (code, message) = if invite.is_some() {
                        (ErrorCode::BadInvite, "no table has that invite code")
                    } else {
                        (ErrorCode::UnknownTable, "no such public table")
                    };
                    self.out.send_message(error(Some(id), code, message));
                    return;
                };
                self.request(&handle, request).await;
            }
            C::QuickPlay {
                id,
                preset,
                players,
            } => {
                self.quick_play(id, preset, players, false).await;
            }
            C::QuickPlayRated {
                id,
                preset,
                players,
            } => {
                if self.refused_rated(id) {
                    return;
                }
                self.quick_play(id, preset, players, true).await;
            }
            // Protocol 1.1 to 1.3: the tournament's requests (refused there to a connection whose
            // hello said an older minor).
            C::CreateTournament { .. } => {
                if self.repeated_create(&request) {
                    return;
                }
                self.tournament_request(request).await;
            }
            C::RegisterTournament { .. }
            | C::RegisterInvited { .. }
            | C::UnregisterTournament { .. }
            | C::StartRound { .. }
            | C::AdjustScore { .. }
            | C::WithdrawEntrant { .. }
            | C::EndTournament { .. }
            | C::ConfigureRegistration { .. }
            | C::CheckInTournament { .. }
            | C::PauseTournament { .. }
            | C::ResumeTournament { .. }
            | C::WarnEntrant { .. }
            | C::DisqualifyEntrant { .. }
            | C::ForbidPairing { .. }
            | C::SeatEntrants { .. }
            | C::SetRoundTime { .. }
            | C::ExcuseEntrant { .. }
            | C::SetLineup { .. }
            | C::WatchTournament { .. }
            | C::TournamentChat { .. }
            | C::TournamentChatHistory { .. }
            | C::TournamentReport { .. } => self.tournament_request(request).await,
            // Protocol 1.7: the arena (bot accounts only).
            C::ArenaReady { id, ref level } => {
                let level = level.clone();
                self.arena(id, |shared, entrant| async move {
                    crate::arena::ready(&shared, entrant, level.as_deref(), id).await
                })
                .await;
            }
            C::ArenaChallenge { id, ref opponent } => {
                let opponent = opponent.clone();
                self.arena(id, |shared, entrant| async move {
                    crate::arena::challenge(&shared, entrant, &opponent, id).await
                })
                .await;
            }
        }
    }

    /// A request of protocol 1.5 or later on a connection whose hello said an older minor is
    /// refused with `needs_minor` (true); the tournaments' older requests are checked where
    /// they are answered.
    fn newer_than_hello(&mut self, request: &ClientMessage) -> bool {
        if request.minor() < 5 || request.minor() <= self.minor {
            return false;
        }
        let message = format!(
            "{} is a 1.{} request; your hello said 1.{}",
            request.kind(),
            request.minor(),
            self.minor
        );
        self.out
            .send_message(error(request.id(), ErrorCode::NeedsMinor, message));
        true
    }

    /// The same create request (`create_table`, `create_tournament`) again at once is a double
    /// click, refused with `repeated_create` (true).
    fn repeated_create(&mut self, request: &ClientMessage) -> bool {
        let window = self.shared.config.repeat_create_window;
        let player = &self.session.player;
        if !self
            .shared
            .directory
            .repeated_create(player, request, window)
        {
            return false;
        }
        let message = "the same create again at once (a double click): the first one was done";
        self.out
            .send_message(error(request.id(), ErrorCode::RepeatedCreate, message));
        true
    }

    /// A tournament's request, answered by the tournament (on its node).
    async fn tournament_request(&mut self, request: ClientMessage) {
        let (shared, out) = (self.shared.clone(), self.out.clone());
        let request = self.bot_account_registers_as_bot(request);
        let account = self.identity.account().map(|a| a.id.clone());
        crate::tournament::requests::handle(
            &shared,
            &self.session,
            account.as_deref(),
            self.minor,
            &out,
            request,
        )
        .await;
    }

    /// Sends a request to a table by id; false when the table is unknown.
    async fn table_call(&mut self, table: &str, request: ClientMessage) -> bool {
        match lobby::find_soon(&self.shared, table).await {
            Some(handle) => self.request(&handle, request).await,
            None => {
                self.out.send_message(error(
                    request.id(),
                    ErrorCode::UnknownTable,
                    format!("no table {table:?}"),
                ));
                false
            }
        }
    }

    /// An arena request (1.7) of a bot account, run with its queue entry (`run` sends its
    /// reply); anyone else is refused `bot_account_required`, and `run`'s refusal is sent.
    async fn arena<F, Fut>(&mut self, id: u64, run: F)
    where
        F: FnOnce(Arc<Shared>, crate::arena::Entrant) -> Fut,
        Fut: Future<Output = Result<(), crate::arena::Refusal>>,
    {
        let Identity::Account {
            account, bot: true, ..
        } = &self.identity
        else {
            let message = "arena play is for bot accounts (docs/BOTS.md, \"The arena\")";
            self.out
                .send_message(error(Some(id), ErrorCode::BotAccountRequired, message));
            return;
        };
        let entrant = crate::arena::Entrant {
            account: account.id.clone(),
            name: self.session.name.clone(),
            player: self.session.player.clone(),
            out: self.out.clone(),
        };
        if let Err((code, message)) = run(self.shared.clone(), entrant).await {
            self.out.send_message(error(Some(id), code, message));
        }
    }

    /// Rated play needs a server that keeps ratings (else, on a 1.7 connection,
    /// `rated_unavailable`, asked first: signing in would not help) and a signed-in account: a
    /// guest's request is refused (true).
    fn refused_rated(&mut self, id: u64) -> bool {
        if self.minor >= 7 && !self.shared.ratings.available() {
            self.out.send_message(error(
                Some(id),
                ErrorCode::RatedUnavailable,
                "this server keeps no ratings (a cluster without a database): no rated play here",
            ));
            return true;
        }
        if self.seat_account().is_some() {
            return false;
        }
        self.out.send_message(error(
            Some(id),
            ErrorCode::AccountRequired,
            "rated play needs a signed-in account",
        ));
        true
    }

    /// `create_table` (and 1.5's `create_rated_table`): the table made, then the creator seated.
    async fn create_table(
        &mut self,
        id: u64,
        settings: &burraco_protocol::wire::WireSettings,
        private: bool,
        bots: Option<burraco_bot::Level>,
        rated: bool,
    ) {
        let player = self.session.player.clone();
        match lobby::create(&self.shared, settings, private, bots, rated).await {
            Ok((handle, invite)) => {
                let name = self.session.name.clone();
                let account = self.seat_account();
                self.call(&handle, id, |req| Command::Join {
                    player,
                    name,
                    account,
                    seat: None,
                    created: Some(invite),
                    req,
                })
                .await;
            }
            Err((code, message)) => {
                self.shared.directory.forget_create(&player);
                self.out.send_message(error(Some(id), code, message));
            }
        }
    }

    /// Sends a client's request to its table, as it sent it; true if the table replied.
    async fn request(&mut self, handle: &TableHandle, message: ClientMessage) -> bool {
        let (player, name) = (self.session.player.clone(), self.session.name.clone());
        let account = self.seat_account();
        let address = self.address;
        let id = message.id().unwrap_or_default();
        self.call(handle, id, |req| {
            Command::Request(TableRequest {
                message,
                player,
                name,
                account,
                address,
                req,
            })
        })
        .await
    }

    /// Whether `request` is a `join` of a table where this player holds its seat already (a
    /// tournament's round, an arena match's, a seat taken before a playban): not starting play.
    fn holds_seat_at(&self, request: &ClientMessage) -> bool {
        let ClientMessage::Join {
            table: Some(table), ..
        } = request
        else {
            return false;
        };
        lobby::seats_of(&self.shared, &self.session.player)
            .iter()
            .any(|(held, _)| held == table)
    }

    /// A request that starts play (`fairplay::starts_play`: quick play and rated quick play,
    /// creating or joining a table, rated or not, registering for a tournament, the arena's
    /// requests) from a playbanned account is refused with `playbanned`; true when it was.
    async fn playbanned(&mut self, id: u64) -> bool {
        let account = self.identity.account().map(|a| a.id.clone());
        let Some(replies) = crate::fairplay::gate(
            &*self.shared.backplane.fairplay,
            account.as_deref(),
            Some(id),
            self.minor,
            crate::ids::unix_ms(),
        )
        .await
        else {
            return false;
        };
        for reply in replies {
            self.out.send_message(reply);
        }
        true
    }

    /// A bot account's tournament registration is a bot's whatever its `bot` says, so the
    /// standings mark it as a bot everywhere (a server bot's entrant is marked by the
    /// tournament itself). Rewritten here, before any node reads it, because the tournament
    /// knows its entrants by session, not by account.
    fn bot_account_registers_as_bot(&self, mut request: ClientMessage) -> ClientMessage {
        let bot_account = matches!(self.identity, Identity::Account { bot: true, .. });
        if let ClientMessage::RegisterTournament { bot, .. }
        | ClientMessage::RegisterInvited { bot, .. } = &mut request
            && bot_account
        {
            *bot = Some(true);
        }
        request
    }

    /// The connection's account as a seat shows it (`None` for a guest).
    fn seat_account(&self) -> Option<SeatAccount> {
        match &self.identity {
            Identity::Guest => None,
            Identity::Account { account, bot, .. } => Some(SeatAccount {
                id: account.id.clone(),
                bot: *bot,
            }),
        }
    }

    /// Sends a command and waits until the table has queued its reply; true if it did.
    async fn call(
        &mut self,
        handle: &TableHandle,
        id: u64,
        make: impl FnOnce(Request) -> Command,
    ) -> bool {
        let (done, replied) = oneshot::channel();
        let req = Request {
            id,
            out: self.out.clone(),
            done,
            received: std::time::Instant::now(),
        };
        if let Err(e) = handle.try_send(make(req)) {
            let (code, message) = match e {
                crate::table::Unavailable::Busy => {
                    (ErrorCode::TableBusy, "the table is busy: retry")
                }
                crate::table::Unavailable::Closed => {
                    (ErrorCode::UnknownTable, "the table is closed")
                }
            };
            self.out.send_message(error(Some(id), code, message));
            return false;
        }
        if replied.await.is_ok() {
            return true;
        }
        self.out.send_message(error(
            Some(id),
            ErrorCode::ShuttingDown,
            "the table stopped before answering",
        ));
        false
    }
}
