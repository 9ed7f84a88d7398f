//! The request id of a frame too large to decode, read cheaply from its beginning, so that even
//! its refusal can name the request.

use tokio_tungstenite::tungstenite::Message;

use super::ID_PEEK;

/// The request id of a frame too large to decode, read cheaply from its first [`ID_PEEK`] bytes:
/// in JSON a top-level `"id"` key with an integer value (a key inside a string or a nested
/// object is not taken); in postcard the varint after a request's variant index (every request
/// but `hello` has its id first). `None` when it is not there.
pub(super) fn peek_id(message: &Message) -> Option<u64> {
    match message {
        Message::Text(text) => peek_json_id(&text.as_bytes()[..text.len().min(ID_PEEK)]),
        Message::Binary(bytes) => {
            let head = &bytes[..bytes.len().min(ID_PEEK)];
            let (variant, used) = varint(head)?;
            // 1..=15: the requests (0 is hello, which has no id).
            if !(1..=15).contains(&variant) {
                return None;
            }
            varint(&head[used..]).map(|(id, _)| id)
        }
        _ => None,
    }
}

/// `"id"` as a key of the outermost object: at depth 1, outside strings, followed by `:` and an
/// unsigned integer that ends within the bytes given.
fn peek_json_id(head: &[u8]) -> Option<u64> {
    let mut depth = 0u32;
    let mut i = 0;
    while i < head.len() {
        match head[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                let mut end = start;
                while end < head.len() && head[end] != b'"' {
                    end += if head[end] == b'\\' { 2 } else { 1 };
                }
                if end >= head.len() {
                    return None;
                }
                let key = &head[start..end];
                i = end + 1;
                let mut j = i;
                while j < head.len() && head[j].is_ascii_whitespace() {
                    j += 1;
                }
                if depth == 1 && key == b"id" && head.get(j) == Some(&b':') {
                    j += 1;
                    while j < head.len() && head[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let digits = head[j..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let after = head.get(j + digits)?;
                    if digits == 0 || !matches!(after, b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n') {
                        return None;
                    }
                    return std::str::from_utf8(&head[j..j + digits]).ok()?.parse().ok();
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A postcard (LEB128) varint of at most ten bytes, and how many bytes it took.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, byte) in bytes.iter().take(10).enumerate() {
        value |= u64::from(byte & 0x7f).checked_shl(7 * i as u32)?;
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}
