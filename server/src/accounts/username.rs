//! Usernames: what a name may be, its unique key (NFKC and case folding) and its UTS #39
//! confusable skeleton, so that neither `ANNA` nor `Аnna` (a Cyrillic `А`) can be taken
//! beside `anna`.

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton as uts39_skeleton;

/// Shortest and longest usernames, in characters after NFKC.
pub const MIN_CHARS: usize = 3;
pub const MAX_CHARS: usize = 24;

/// Why a username is not acceptable (before looking at who holds which name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    Length,
    /// Only letters, digits, `_`, `-` and `.` (no space, no control or invisible character),
    /// and at least one letter or digit.
    Character,
}

/// The name as it will be shown: NFKC, so that compatibility forms (full-width letters,
/// ligatures) are stored as their plain equivalents.
pub fn normalize(name: &str) -> Result<String, Invalid> {
    let name: String = name.nfkc().collect();
    let count = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&count) {
        return Err(Invalid::Length);
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(Invalid::Character);
    }
    // A name is read by people: punctuation alone ("...", "_-_") names nobody.
    if !name.chars().any(char::is_alphanumeric) {
        return Err(Invalid::Character);
    }
    Ok(name)
}

/// The unique key: NFKC, case folded, NFKC again (Unicode's NFKC_Casefold in spirit). Folding
/// is upper- then lowercasing, which (unlike lowercasing alone) also folds `ß` to `ss`, `ſ` to
/// `s` and the final sigma `ς` to `σ`.
pub fn key(name: &str) -> String {
    let nfkc: String = name.nfkc().collect();
    let folded = nfkc.to_uppercase().to_lowercase();
    folded.nfkc().collect()
}

/// The confusable skeleton (UTS #39 section 4) of the name, case folded after the mapping and
/// mapped again: the mapping sees the case as typed (`I` and `l` look alike, `i` and `l` do not),
/// and folding after it makes `ANNA`, `anna` and the Greek `ΑΝΝΑ` one skeleton.
pub fn skeleton(name: &str) -> String {
    let first: String = uts39_skeleton(&name.nfkc().collect::<String>()).collect();
    uts39_skeleton(&key(&first)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_after_nfkc() {
        assert_eq!(
            normalize("ａｎｎａ"),
            Ok("anna".to_owned()),
            "full-width letters"
        );
        assert_eq!(normalize("Anna_M.-1"), Ok("Anna_M.-1".to_owned()));
        assert_eq!(normalize("an"), Err(Invalid::Length));
        assert_eq!(normalize(&"a".repeat(25)), Err(Invalid::Length));
        assert_eq!(normalize("Anna Maria"), Err(Invalid::Character));
        assert_eq!(
            normalize("anna\u{200B}x"),
            Err(Invalid::Character),
            "zero width"
        );
        assert_eq!(normalize("an\u{0}na"), Err(Invalid::Character));
        assert_eq!(
            normalize("_._"),
            Err(Invalid::Character),
            "no letter or digit"
        );
        assert_eq!(
            normalize("Ὀδυσσεύς"),
            Ok("Ὀδυσσεύς".to_owned()),
            "Greek letters"
        );
    }

    #[test]
    fn keys_fold_case_and_compatibility_forms() {
        assert_eq!(key("ANNA"), key("anna"));
        assert_eq!(key("ａｎｎａ"), key("Anna"));
        assert_eq!(key("Straße"), key("STRASSE"));
        assert_eq!(key("ΟΔΥΣΣΕΥΣ"), key("οδυσσευς"));
        assert_ne!(key("anna"), key("anne"));
    }

    #[test]
    fn skeletons_catch_look_alikes() {
        assert_eq!(
            skeleton("anna"),
            skeleton("\u{0430}nn\u{0430}"),
            "Cyrillic a"
        );
        assert_eq!(
            skeleton("ANNA"),
            skeleton("\u{0391}\u{039D}\u{039D}\u{0391}"),
            "Greek"
        );
        assert_eq!(skeleton("Ian"), skeleton("lan"), "capital I and small l");
        assert_eq!(
            skeleton("paypal"),
            skeleton("paypa1"),
            "digit one and small l"
        );
        assert_eq!(skeleton("rn_rn"), skeleton("m_m"), "r n and m");
        assert_ne!(skeleton("anna"), skeleton("anne"));
    }
}
