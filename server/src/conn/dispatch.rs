//! A connection's requests routed: to the lobby, to a tournament, or to a table as the client sent
//! them ([`TableRequest`]: the table reads them into its command, here or on the node serving it).

use burraco_protocol::log::SeatAccount;

use super::*;
use crate::accounts::identity::Identity;

impl Connection {
    pub(super) async fn dispatch(&mut self, request: ClientMessage) {
        use ClientMessage as C;
        // Every request for a table by id (a move, whatever its kind, included) goes to it as sent.
        if let Some(table) = TableRequest::table_of(&request) {
            let table = table.to_owned();
            if let C::Chat { id, .. } = &request {
                let account = self.identity.account().map(|a| a.id.as_str());
                if let Some(why) = crate::moderation::chat_refusal(&self.shared, account).await {
                    self.out
                        .send_message(error(Some(*id), ErrorCode::Muted, why));
                    return;
                }
            }
            match &request {
                C::Leave { .. } => {
                    self.spectating.remove(&table);
                }
                C::Spectate { .. } => {
                    if self.table_call(&table, request).await {
                        self.spectating.insert(table);
                    }
                    return;
                }
                _ => {}
            }
            self.table_call(&table, request).await;
            return;
        }
        let player = self.session.player.clone();
        let window = self.shared.config.repeat_create_window;
        if self
            .shared
            .directory
            .repeated_create(&player, &request, window)
        {
            let message = "the same create again at once (a double click): the first one was done";
            let id = request.id();
            self.out
                .send_message(error(id, ErrorCode::RepeatedCreate, message));
            return;
        }
        match request {
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
                settings,
                private,
                bots,
            } => {
                let bots = bots.map(crate::bots::level_from_wire);
                match lobby::create(&self.shared, &settings, private, bots).await {
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
            C::Join {
                id,
                ref table,
                ref invite,
                ..
            } => {
                let handle = match (table, invite) {
                    (_, Some(code)) => lobby::by_invite(&self.shared, code).await,
                    (Some(table), None) => lobby::find(&self.shared, table)
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
                ref preset,
                players,
            } => {
                let preset = match preset.as_deref().map(Preset::from_code) {
                    None => Preset::Fitab,
                    Some(Some(p)) => p,
                    Some(None) => {
                        self.out.send_message(error(
                            Some(id),
                            ErrorCode::InvalidSettings,
                            "unknown preset",
                        ));
                        return;
                    }
                };
                let players = match players {
                    None | Some(4) => Players::Four,
                    Some(2) => Players::Two,
                    Some(_) => {
                        self.out.send_message(error(
                            Some(id),
                            ErrorCode::InvalidSettings,
                            "players must be 4 or 2",
                        ));
                        return;
                    }
                };
                let shared = self.shared.clone();
                let _guard = shared.quick_play.lock().await;
                let handle = match lobby::quick_match(&shared, preset, players).await {
                    Some(handle) => handle,
                    None => {
                        let settings = burraco_protocol::wire::WireSettings {
                            preset: preset.code().into(),
                            players: Some(players.count() as u8),
                            ..Default::default()
                        };
                        match lobby::create(&shared, &settings, false, None).await {
                            Ok((handle, _)) => handle,
                            Err((code, message)) => {
                                self.out.send_message(error(Some(id), code, message));
                                return;
                            }
                        }
                    }
                };
                // The table found (or made) is joined at its first free seat.
                self.request(&handle, request).await;
            }
            // Protocol 1.1 to 1.3: the tournament's requests (refused there to a connection whose
            // hello said an older minor).
            request @ (C::CreateTournament { .. }
            | C::RegisterTournament { .. }
            | C::UnregisterTournament { .. }
            | C::StartRound { .. }
            | C::AdjustScore { .. }
            | C::WithdrawEntrant { .. }
            | C::EndTournament { .. }
            | C::ConfigureRegistration { .. }
            | C::RegisterInvited { .. }
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
            | C::WatchTournament { .. }) => {
                let (shared, out) = (self.shared.clone(), self.out.clone());
                crate::tournament::requests::handle(
                    &shared,
                    &self.session,
                    self.minor,
                    &out,
                    request,
                )
                .await;
            }
            // The requests for a table by id went to it above (`TableRequest::table_of` names
            // them, so a new one is routed there by its conversion alone): nothing else is left.
            other => {
                self.out.send_message(error(
                    other.id(),
                    ErrorCode::InvalidMessage,
                    "not a request this server takes",
                ));
            }
        }
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

    /// Sends a client's request to its table, as it sent it; true if the table replied.
    async fn request(&mut self, handle: &TableHandle, message: ClientMessage) -> bool {
        let (player, name) = (self.session.player.clone(), self.session.name.clone());
        let account = self.seat_account();
        let id = message.id().unwrap_or_default();
        self.call(handle, id, |req| {
            Command::Request(TableRequest {
                message,
                player,
                name,
                account,
                req,
            })
        })
        .await
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
