//! The writer task of a connection: drains the bounded outbound queue, feeding every queued
//! frame and flushing once; closes with the code the reader chose, or the kick's own.

use super::*;

/// Feeds every queued frame, flushes once; stops when kicked (slow client) or closing (after
/// draining what is queued, e.g. a goodbye).
pub(super) async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: Inbox,
    kick: CancellationToken,
    closing: CancellationToken,
    close_code: Arc<AtomicU16>,
    kick_reason: KickReason,
    binary: bool,
) -> Option<SplitSink<WebSocket, Message>> {
    let mut close = true;
    // Made once (see the reader loop): polled by reference in every round.
    let kicked = kick.cancelled();
    let closed = closing.cancelled();
    tokio::pin!(kicked, closed);
    loop {
        tokio::select! {
            biased;
            _ = &mut kicked => {
                let frame = match kick_reason.get() {
                    Some(Kicked::TakenOver) => CloseFrame {
                        code: CLOSE_TAKEN_OVER.into(),
                        reason: "session taken over".into(),
                    },
                    Some(Kicked::Moved) => CloseFrame {
                        code: CLOSE_MOVED.into(),
                        reason: "table moved: resume".into(),
                    },
                    Some(Kicked::TokenRevoked) => CloseFrame {
                        code: CLOSE_TOKEN_REVOKED.into(),
                        reason: "token revoked".into(),
                    },
                    Some(Kicked::AccountBarred) => CloseFrame {
                        code: CLOSE_ACCOUNT_BARRED.into(),
                        reason: "account suspended".into(),
                    },
                    Some(Kicked::SignedOut) => CloseFrame {
                        code: CLOSE_SIGNED_OUT.into(),
                        reason: "signed out".into(),
                    },
                    Some(Kicked::TooSlow) | None => CloseFrame {
                        code: CLOSE_POLICY.into(),
                        reason: "too slow".into(),
                    },
                };
                return Box::pin(send_close(sink, frame, Duration::from_millis(100))).await;
            }
            frame = rx.recv() => {
                let Some(frame) = frame else { break };
                let write = async {
                    for m in frame.to_ws_frames(binary) {
                        sink.feed(m).await?;
                    }
                    for _ in 0..256 {
                        let Some(frame) = rx.try_recv() else { break };
                        for m in frame.to_ws_frames(binary) {
                            sink.feed(m).await?;
                        }
                    }
                    sink.flush().await
                };
                let result = tokio::select! {
                    biased;
                    _ = &mut kicked => continue,
                    result = write => result,
                };
                if result.is_err() {
                    close = false;
                    break;
                }
            }
            _ = &mut closed => {
                'drain: while let Some(frame) = rx.try_recv() {
                    for m in frame.to_ws_frames(binary) {
                        if sink.feed(m).await.is_err() {
                            break 'drain;
                        }
                    }
                }
                break;
            }
        }
    }
    if !close {
        return None;
    }
    let code = close_code.load(Ordering::Relaxed);
    let frame = CloseFrame {
        code: code.into(),
        reason: "".into(),
    };
    Box::pin(send_close(sink, frame, Duration::from_secs(1))).await
}

/// Sends the close frame within `limit`; the sink back if it went. Boxed by its callers: a
/// connection closes once, and its timer and send need not take room in the writer's task for
/// the connection's whole life.
async fn send_close(
    mut sink: SplitSink<WebSocket, Message>,
    frame: CloseFrame,
    limit: Duration,
) -> Option<SplitSink<WebSocket, Message>> {
    let sent = tokio::time::timeout(limit, sink.send(Message::Close(Some(frame)))).await;
    matches!(sent, Ok(Ok(()))).then_some(sink)
}
