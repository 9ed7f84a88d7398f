//! A connection's requests routed: to the lobby, or to a table as its command (a move, whatever its
//! kind, as `Command::Act` through the protocol's reading of it as a rules action).

use super::*;

impl Connection {
    pub(super) async fn dispatch(&mut self, request: ClientMessage) {
        use ClientMessage as C;
        // Every move goes to its table the same way: the protocol reads it as a rules action.
        let request = match request.into_table_action() {
            Ok(TableAction { id, table, action }) => return self.act(&table, id, action).await,
            Err(request) => request,
        };
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
                        self.call(&handle, id, |req| Command::Join {
                            player,
                            name,
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
                table,
                invite,
                seat,
            } => {
                let handle = match (&table, &invite) {
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
                    let message = if invite.is_some() {
                        "no table has that invite code"
                    } else {
                        "no such public table"
                    };
                    let code = if invite.is_some() {
                        ErrorCode::BadInvite
                    } else {
                        ErrorCode::UnknownTable
                    };
                    self.out.send_message(error(Some(id), code, message));
                    return;
                };
                let name = self.session.name.clone();
                let seat = seat.map(|s| s.0);
                self.call(&handle, id, |req| Command::Join {
                    player,
                    name,
                    seat,
                    created: None,
                    req,
                })
                .await;
            }
            C::QuickPlay {
                id,
                preset,
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
                let name = self.session.name.clone();
                self.call(&handle, id, |req| Command::Join {
                    player,
                    name,
                    seat: None,
                    created: None,
                    req,
                })
                .await;
            }
            C::Leave { id, table } => {
                self.spectating.remove(&table);
                self.table_call(&table, id, |req| Command::Leave { player, req })
                    .await;
            }
            C::Ready { id, table } => {
                self.table_call(&table, id, |req| Command::Ready { player, req })
                    .await;
            }
            C::AddBots { id, table, level } => {
                let level = level.map(crate::bots::level_from_wire);
                self.table_call(&table, id, |req| Command::AddBots { player, level, req })
                    .await;
            }
            C::Spectate { id, table } => {
                if self
                    .table_call(&table, id, |req| Command::Spectate { req })
                    .await
                {
                    self.spectating.insert(table);
                }
            }
            C::Sync {
                id,
                table,
                last_seq,
            } => {
                self.table_call(&table, id, |req| Command::Sync {
                    player,
                    last_seq,
                    req,
                })
                .await;
            }
            C::Chat {
                id,
                table,
                text,
                phrase,
            } => {
                let name = self.session.name.clone();
                self.table_call(&table, id, |req| Command::Chat {
                    player,
                    name,
                    text,
                    phrase,
                    req,
                })
                .await;
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
            // Taken above, as actions.
            C::Draw { .. }
            | C::PickUp { .. }
            | C::Open { .. }
            | C::Attach { .. }
            | C::Discard { .. } => {}
        }
    }

    async fn act(&mut self, table: &str, id: u64, action: Action) {
        let player = self.session.player.clone();
        self.table_call(table, id, |req| Command::Act {
            player,
            action,
            req,
        })
        .await;
    }

    /// Sends a command to a table by id; false when the table is unknown.
    async fn table_call(
        &mut self,
        table: &str,
        id: u64,
        make: impl FnOnce(Request) -> Command,
    ) -> bool {
        match lobby::find_soon(&self.shared, table).await {
            Some(handle) => self.call(&handle, id, make).await,
            None => {
                self.out.send_message(error(
                    Some(id),
                    ErrorCode::UnknownTable,
                    format!("no table {table:?}"),
                ));
                false
            }
        }
    }

    /// Sends a command and waits until the table has queued its reply; true if it did.
    async fn call(
        &mut self,
        handle: &crate::table::TableHandle,
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
