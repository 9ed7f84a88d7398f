//! Serde helpers for the text codes the rules crate defines: cards (`"7H"`, `"10S"`, `"JK"`), seats
//! (`"N" "E" "S" "W"`), seeds and digests (64 hex digits). Use them with `#[serde(with = "...")]`.

use burraco_rules::{Card, Seat};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One card as its code.
pub mod card {
    use super::*;

    pub fn serialize<S: Serializer>(card: &Card, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(card)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// A list of cards as a list of codes.
pub mod card_list {
    use super::*;

    pub fn serialize<S: Serializer>(cards: &[Card], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(cards.iter().map(|c| c.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Card>, D::Error> {
        let codes = Vec::<std::borrow::Cow<'de, str>>::deserialize(d)?;
        codes
            .iter()
            .map(|c| c.parse().map_err(D::Error::custom))
            .collect()
    }
}

/// An optional card as a code or null.
pub mod opt_card {
    use super::*;

    pub fn serialize<S: Serializer>(card: &Option<Card>, s: S) -> Result<S::Ok, S::Error> {
        card.map(|c| c.to_string()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Card>, D::Error> {
        let code = Option::<std::borrow::Cow<'de, str>>::deserialize(d)?;
        code.map(|c| c.parse().map_err(D::Error::custom))
            .transpose()
    }
}

/// A seat as `"N"`, `"E"`, `"S"` or `"W"`.
pub mod seat {
    use super::*;

    pub fn serialize<S: Serializer>(seat: &Seat, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(seat.code())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Seat::from_code(&text).ok_or_else(|| {
            D::Error::custom(format!("invalid seat {text:?}: expected N, E, S or W"))
        })
    }
}

/// 32 bytes as 64 lowercase hex digits (seeds, SHA-256 digests).
pub mod hex32 {
    use super::*;

    pub fn serialize<S: Serializer>(bytes: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_hex(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        burraco_rules::Seed::from_hex(&text)
            .map(|s| s.0)
            .ok_or_else(|| D::Error::custom("expected 64 hex digits"))
    }
}

/// Lowercase hex of any bytes.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(with = "card")]
        one: Card,
        #[serde(with = "card_list")]
        many: Vec<Card>,
        #[serde(with = "opt_card")]
        maybe: Option<Card>,
        #[serde(with = "seat")]
        seat: Seat,
    }

    #[test]
    fn codes_round_trip_in_json_and_postcard() {
        let sample = Sample {
            one: "10S".parse().unwrap(),
            many: burraco_rules::parse_cards("JK 2H AH").unwrap(),
            maybe: None,
            seat: Seat::West,
        };
        let json = serde_json::to_string(&sample).unwrap();
        assert_eq!(
            json,
            r#"{"one":"10S","many":["JK","2H","AH"],"maybe":null,"seat":"W"}"#
        );
        assert_eq!(serde_json::from_str::<Sample>(&json).unwrap(), sample);
        let bytes = postcard::to_stdvec(&sample).unwrap();
        assert_eq!(postcard::from_bytes::<Sample>(&bytes).unwrap(), sample);
        assert!(
            serde_json::from_str::<Sample>(r#"{"one":"1H","many":[],"maybe":null,"seat":"W"}"#)
                .is_err()
        );
        assert!(
            serde_json::from_str::<Sample>(r#"{"one":"AH","many":[],"maybe":null,"seat":"X"}"#)
                .is_err()
        );
    }
}
