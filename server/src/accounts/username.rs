//! Usernames: what a name may be, its unique key (NFKC and case folding), its UTS #39
//! confusable skeleton (the quiet punctuation `_-.` left out), so that neither `ANNA`, `Аnna`
//! (a Cyrillic `А`) nor `Anna.` can be taken beside `anna`, and the names kept for the
//! server's own (`admin`, `Bot (expert)`).

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

/// Punctuation a name may hold that does not tell two names apart to a reader: `Anna.`,
/// `An.na` and `an_na` are `Anna` to the eye.
fn is_quiet(c: char) -> bool {
    matches!(c, '_' | '-' | '.')
}

/// The confusable skeleton (UTS #39 section 4) of the name without its quiet punctuation
/// (`_-.`), case folded after the mapping and mapped again: the mapping sees the case as typed
/// (`I` and `l` look alike, `i` and `l` do not), and folding after it makes `ANNA`, `anna`, the
/// Greek `ΑΝΝΑ` and `an.na` one skeleton. The punctuation goes before the mapping (`r.n` reads
/// as `rn`, which looks like `m`) and after it (whatever the mapping makes of a character).
/// Accounts made before the punctuation went keep theirs until migration 13 (`rekey.rs`).
pub fn skeleton(name: &str) -> String {
    let quiet: String = name.nfkc().filter(|c| !is_quiet(*c)).collect();
    let first: String = uts39_skeleton(&quiet).collect();
    uts39_skeleton(&key(&first))
        .filter(|c| !is_quiet(*c))
        .collect()
}

/// Words kept for the server's own people and voice: nobody may sign up as one, nor play as
/// one as a guest (an operator may still make such an account: `burraco-server admin`).
const STAFF: &[&str] = &[
    "admin",
    "administrator",
    "moderator",
    "mod",
    "system",
    "root",
    "burraco",
    "server",
    "staff",
    "support",
    "operator",
    "official",
    "bot",
];

/// A name as compared with the reserved ones: its skeleton's letters and digits alone, so
/// `Bot (expert)`, `bot_expert` and `BOT-EXPERT` are one.
fn bare(name: &str) -> String {
    skeleton(name)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Whether `name` (a username, or a guest's name) is kept for the server's own: a staff word
/// or a server bot's seat name (`Bot (expert)`, `Bot (L2)`: `crate::bots::name`), whatever its
/// case, punctuation, spaces or look-alike letters.
pub fn reserved(name: &str) -> bool {
    // As typed (`Adm1n` looks like `admin`) and folded first (`ADMIN` is `admin`, though a
    // capital `I` alone would look like an `l`).
    let forms = [bare(name), bare(&key(name))];
    if forms.iter().all(String::is_empty) {
        return false;
    }
    let bots = burraco_bot::Level::ALL
        .into_iter()
        .flat_map(|level| [level.code().to_owned(), level.short()])
        .map(|code| format!("Bot ({code})"));
    STAFF
        .iter()
        .map(|word| (*word).to_owned())
        .chain(bots)
        .map(|kept| bare(&kept))
        .any(|kept| forms.contains(&kept))
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

    #[test]
    fn quiet_punctuation_does_not_tell_names_apart() {
        for lookalike in ["Anna.", "An.na", "_anna_", "a-n-n-a", "ANNA__", "an.n_a-"] {
            assert_eq!(skeleton(lookalike), skeleton("Anna"), "{lookalike}");
        }
        assert_eq!(skeleton("r.n"), skeleton("m"), "read as rn");
        assert_ne!(skeleton("Anna"), skeleton("Annabel"));
        assert_ne!(
            skeleton("Anna Maria"),
            skeleton("AnnaMaria"),
            "a space is no dot"
        );
    }

    #[test]
    fn staff_words_and_server_bot_names_are_reserved() {
        for name in [
            "admin",
            "ADMIN",
            "Admin.",
            "Moderator",
            "system",
            "Bot (expert)",
            "bot (greedy)",
            "Bot (L2)",
            "bot_expert",
            "BOT-DEEP",
            "Bot",
        ] {
            assert!(reserved(name), "{name}");
        }
        for name in ["Anna", "administrators", "Bottom", "Bot (Anna)", "", "..."] {
            assert!(!reserved(name), "{name}");
        }
    }
}
