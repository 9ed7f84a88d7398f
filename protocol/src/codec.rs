//! Frames to messages and back: JSON text frames tagged by `type`, and postcard binary frames.
//!
//! The message enums are serde's default (externally tagged) so postcard can encode them; the JSON
//! form moves the variant name into a `type` field: `{"discard":{"id":7,...}}` on the serde side is
//! `{"type":"discard","id":7,...}` on the wire.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::ErrorCode;

/// The largest frame a client may send. Every client message fits in far less; anything bigger is
/// refused before it is parsed.
pub const MAX_CLIENT_FRAME: usize = 16 * 1024;

/// Why a frame is not a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("frame of {len} bytes exceeds the limit of {max}")]
    TooLarge { len: usize, max: usize },
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("a message is a JSON object with a string field \"type\"")]
    NotTagged,
    #[error("invalid {kind:?} message: {detail}")]
    Invalid { kind: String, detail: String },
    #[error("invalid binary frame: {0}")]
    Binary(String),
}

impl DecodeError {
    /// The stable error code sent back to the client.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            DecodeError::TooLarge { .. } => ErrorCode::FrameTooLarge,
            DecodeError::Json(_) | DecodeError::NotTagged | DecodeError::Binary(_) => {
                ErrorCode::MalformedFrame
            }
            DecodeError::Invalid { .. } => ErrorCode::InvalidMessage,
        }
    }

    /// [`DecodeError::error_code`] as written on the wire.
    pub fn code(&self) -> &'static str {
        self.error_code().as_str()
    }
}

/// A decoded frame, or the error with whatever request id could still be read from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<T> {
    pub result: Result<T, DecodeError>,
    /// The `id` field of a frame that did not decode, when it had one, so even a refused request
    /// gets its reply. `None` once decoded: a message carries its own (`ClientMessage::id`).
    pub id: Option<u64>,
}

/// Encodes a message as a JSON text frame.
pub fn to_json<T: Serialize>(message: &T) -> String {
    let external = serde_json::to_string(message).expect("wire types always serialize");
    flatten_tag(&external).unwrap_or(external)
}

/// `{"name":{...}}` to `{"type":"name",...}` by string surgery: serde_json writes the externally
/// tagged variant as exactly that prefix, so no second parse is needed.
fn flatten_tag(external: &str) -> Option<String> {
    let rest = external.strip_prefix("{\"")?;
    let name_end = rest.find('"')?;
    let (name, after) = rest.split_at(name_end);
    let fields = after.strip_prefix("\":{")?.strip_suffix("}}")?;
    let mut out = String::with_capacity(external.len() + 8);
    out.push_str("{\"type\":\"");
    out.push_str(name);
    out.push('"');
    if !fields.is_empty() {
        out.push(',');
        out.push_str(fields);
    }
    out.push('}');
    Some(out)
}

/// `{"type":"name",...}` to `{"name":{...}}` by string surgery, the inverse of [`flatten_tag`],
/// when the frame starts exactly so (as every encoder here writes it and most clients do) and
/// names its type once: serde then reads the message in one pass, where the general path builds a
/// `Value` tree first and converts it (measured: most of a JSON client's decoding cost).
fn nest_tag(text: &str) -> Option<String> {
    let rest = text.strip_prefix("{\"type\":\"")?;
    let name_end = rest.find('"')?;
    let (name, after) = rest.split_at(name_end);
    if !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') || after.contains("\"type\"") {
        return None;
    }
    let after = &after[1..];
    let fields = match after.strip_prefix(',') {
        Some(fields) => fields,
        None if after == "}" => "}",
        None => return None,
    };
    let mut out = String::with_capacity(text.len() + 4);
    out.push_str("{\"");
    out.push_str(name);
    out.push_str("\":{");
    out.push_str(fields);
    out.push('}');
    Some(out)
}

/// Decodes a JSON text frame, at most `max` bytes.
pub fn from_json<T: DeserializeOwned>(text: &str, max: usize) -> Decoded<T> {
    if text.len() > max {
        return Decoded {
            result: Err(DecodeError::TooLarge {
                len: text.len(),
                max,
            }),
            id: None,
        };
    }
    // The one-pass path; anything it does not take (other key orders, errors) goes the general
    // way, which also words the errors.
    if let Some(Ok(message)) = nest_tag(text).map(|nested| serde_json::from_str::<T>(&nested)) {
        return Decoded {
            result: Ok(message),
            id: None,
        };
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Decoded {
                result: Err(DecodeError::Json(e.to_string())),
                id: None,
            };
        }
    };
    let Value::Object(mut fields) = value else {
        return Decoded {
            result: Err(DecodeError::NotTagged),
            id: None,
        };
    };
    let id = fields.get("id").and_then(Value::as_u64);
    let Some(Value::String(kind)) = fields.remove("type") else {
        return Decoded {
            result: Err(DecodeError::NotTagged),
            id,
        };
    };
    let mut external = Map::with_capacity(1);
    external.insert(kind.clone(), Value::Object(fields));
    let result =
        serde_json::from_value(Value::Object(external)).map_err(|e| DecodeError::Invalid {
            kind,
            detail: e.to_string(),
        });
    let id = if result.is_ok() { None } else { id };
    Decoded { result, id }
}

/// Encodes a message as a postcard binary frame.
pub fn to_binary<T: Serialize>(message: &T) -> Vec<u8> {
    postcard::to_stdvec(message).expect("wire types always serialize")
}

/// Decodes a postcard binary frame, at most `max` bytes.
pub fn from_binary<T: DeserializeOwned>(bytes: &[u8], max: usize) -> Decoded<T> {
    if bytes.len() > max {
        return Decoded {
            result: Err(DecodeError::TooLarge {
                len: bytes.len(),
                max,
            }),
            id: None,
        };
    }
    Decoded {
        result: postcard::from_bytes(bytes).map_err(|e| DecodeError::Binary(e.to_string())),
        id: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{ClientMessage, ServerMessage};

    #[test]
    fn json_is_flat_and_tagged() {
        let m = ClientMessage::Ping { id: 3 };
        assert_eq!(to_json(&m), r#"{"type":"ping","id":3}"#);
        assert_eq!(
            from_json::<ClientMessage>(&to_json(&m), MAX_CLIENT_FRAME).result,
            Ok(m)
        );
        let g = ServerMessage::Goodbye {
            reason: "shutdown".into(),
        };
        assert_eq!(to_json(&g), r#"{"type":"goodbye","reason":"shutdown"}"#);
    }

    #[test]
    fn both_decoding_paths_agree() {
        let discard = r#"{"type":"discard","id":9,"table":"t1","card":"7H"}"#;
        let fast = from_json::<ClientMessage>(discard, MAX_CLIENT_FRAME);
        assert!(
            nest_tag(discard).is_some(),
            "the usual shape takes the one-pass path"
        );
        assert_eq!(fast.result.as_ref().map(ClientMessage::id), Ok(Some(9)));
        // The same message with its keys in another order, or spaced, takes the general path.
        let reordered = r#"{"table":"t1","id":9,"type":"discard","card":"7H"}"#;
        let spaced = r#"{ "type": "discard", "id": 9, "table": "t1", "card": "7H" }"#;
        for other in [reordered, spaced] {
            assert!(nest_tag(other).is_none());
            assert_eq!(from_json::<ClientMessage>(other, MAX_CLIENT_FRAME), fast);
        }
        // A message without fields nests to an empty object.
        assert_eq!(nest_tag(r#"{"type":"x"}"#).as_deref(), Some(r#"{"x":{}}"#));
        let ping = from_json::<ClientMessage>(r#"{"type":"ping","id":3}"#, 1024);
        assert_eq!(ping.result, Ok(ClientMessage::Ping { id: 3 }));
        // A second "type" never reaches the one-pass path: the general path decides, as before.
        let twice = r#"{"type":"ping","id":3,"type":"nope"}"#;
        assert!(nest_tag(twice).is_none());
        assert_eq!(
            from_json::<ClientMessage>(twice, 1024)
                .result
                .unwrap_err()
                .error_code(),
            ErrorCode::InvalidMessage
        );
    }

    #[test]
    fn bad_frames_are_typed_errors_with_the_id_when_readable() {
        let d = from_json::<ClientMessage>(
            r#"{"type":"discard","id":9,"table":"t","card":"1X"}"#,
            1024,
        );
        assert_eq!(d.id, Some(9));
        assert_eq!(
            d.result.unwrap_err().error_code(),
            ErrorCode::InvalidMessage
        );
        let d = from_json::<ClientMessage>(r#"{"type":"nope","id":4}"#, 1024);
        assert_eq!(
            (d.id, d.result.unwrap_err().error_code()),
            (Some(4), ErrorCode::InvalidMessage)
        );
        assert_eq!(
            from_json::<ClientMessage>("[1,2]", 1024)
                .result
                .unwrap_err(),
            DecodeError::NotTagged
        );
        assert_eq!(
            from_json::<ClientMessage>("{", 1024)
                .result
                .unwrap_err()
                .error_code(),
            ErrorCode::MalformedFrame
        );
        let big = "x".repeat(2000);
        assert_eq!(
            from_json::<ClientMessage>(&big, 1024)
                .result
                .unwrap_err()
                .error_code(),
            ErrorCode::FrameTooLarge
        );
        assert_eq!(
            from_binary::<ClientMessage>(&[200, 1, 2], 1024)
                .result
                .unwrap_err()
                .error_code(),
            ErrorCode::MalformedFrame
        );
    }
}
