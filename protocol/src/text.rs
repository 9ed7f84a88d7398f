//! The text rule of names and of what players write for others to read (a player's name, a
//! tournament's name, a chat line): nothing that could make one pass for another or hide what
//! it says (controls, format characters such as the bidi overrides, invisible characters).
//! The server applies it; the browser applies the same rule (web/js/text.js) before it sends.

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;
/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 80;
/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 200;

/// The name a player is shown under: trimmed, every run of whitespace inside made one space;
/// `None` when it is empty, longer than 32 characters, or holds a character that could make it
/// pass for another name (see [`is_deceptive`]), or starts with a combining mark (which would
/// combine with whatever a client shows before it). Look-alike letters of other scripts
/// (a Cyrillic "а" for a Latin "a") are not caught: a player is told apart by the player id.
pub fn normalise_name(raw: &str) -> Option<String> {
    normalise_line(raw, MAX_NAME)
}

/// A line of text for others to read (a tournament's name, a chat line): the name rule with
/// another length. Trimmed and its runs of whitespace made one space; `None` when it is empty,
/// longer than `max` characters, holds a control, format or invisible character, or starts
/// with a combining mark.
pub fn normalise_line(raw: &str, max: usize) -> Option<String> {
    let mut line = String::with_capacity(raw.len());
    for word in raw.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let count = line.chars().count();
    let first_ok = line.chars().next().is_some_and(|c| !is_combining_mark(c));
    // Controls first: a tab or a newline inside is refused, not made a space.
    let clean = !raw.trim().chars().any(char::is_control) && !line.chars().any(is_deceptive);
    (first_ok && count <= max && clean).then_some(line)
}

/// Characters a name may not hold: controls (Cc), every format character (Cf: zero-width
/// spaces and joiners, bidi marks, embeddings, overrides and isolates, the soft hyphen, tags...),
/// the other default-ignorable characters that draw nothing (variation selectors, Hangul fillers,
/// the combining grapheme joiner, Mongolian free variation selectors, Khmer inherent vowels), the
/// Braille blank, private use characters (they draw whatever a font wants) and noncharacters.
/// An explicit list (Unicode 15.1's Cf and Default_Ignorable_Code_Point), not a crate's tables.
pub fn is_deceptive(c: char) -> bool {
    const RANGES: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),    // soft hyphen
        (0x034F, 0x034F),    // combining grapheme joiner
        (0x0600, 0x0605),    // Arabic number signs
        (0x061C, 0x061C),    // Arabic letter mark
        (0x06DD, 0x06DD),    // Arabic end of ayah
        (0x070F, 0x070F),    // Syriac abbreviation mark
        (0x0890, 0x0891),    // Arabic pound and piastre marks above
        (0x08E2, 0x08E2),    // Arabic disputed end of ayah
        (0x115F, 0x1160),    // Hangul choseong and jungseong fillers
        (0x17B4, 0x17B5),    // Khmer inherent vowels
        (0x180B, 0x180F),    // Mongolian free variation selectors, vowel separator
        (0x200B, 0x200F),    // zero-width space, non-joiner, joiner; LRM, RLM
        (0x202A, 0x202E),    // bidi embeddings and overrides
        (0x2060, 0x206F),    // word joiner, invisible operators, isolates, deprecated formats
        (0x2800, 0x2800),    // Braille pattern blank
        (0x3164, 0x3164),    // Hangul filler
        (0xE000, 0xF8FF),    // private use
        (0xFDD0, 0xFDEF),    // noncharacters
        (0xFE00, 0xFE0F),    // variation selectors
        (0xFEFF, 0xFEFF),    // zero-width no-break space (BOM)
        (0xFFA0, 0xFFA0),    // halfwidth Hangul filler
        (0xFFF0, 0xFFFB),    // unassigned specials, interlinear annotation
        (0x110BD, 0x110BD),  // Kaithi number sign
        (0x110CD, 0x110CD),  // Kaithi number sign above
        (0x13430, 0x1345F),  // Egyptian hieroglyph format controls
        (0x1BCA0, 0x1BCA3),  // shorthand format controls
        (0x1D173, 0x1D17A),  // musical symbol format controls
        (0xE0000, 0xE0FFF),  // tags, variation selectors supplement
        (0xF0000, 0x10FFFF), // supplementary private use
    ];
    let c = u32::from(c);
    c < 0x20
        || (0x7F..=0x9F).contains(&c)
        || (c & 0xFFFE) == 0xFFFE
        || RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// The combining diacritical marks (the blocks of them; marks of other scripts follow letters).
pub fn is_combining_mark(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_collapsed_and_refused_when_deceptive() {
        assert_eq!(
            normalise_name(" Anna \u{2003} Maria ").as_deref(),
            Some("Anna Maria")
        );
        assert_eq!(normalise_name("Zoë").as_deref(), Some("Zoë"));
        assert_eq!(normalise_name(&"é".repeat(32)).map(|n| n.len()), Some(64));
        for bad in [
            "",
            " ",
            "A\u{200D}B",
            "\u{202E}x",
            "x\u{2069}",
            "\u{FEFF}",
            "a\tb",
            "\u{0301}a",
            "\u{E0020}",
            "\u{10FFFD}",
            "\u{FFFF}",
        ] {
            assert_eq!(normalise_name(bad), None, "{bad:?}");
        }
        assert_eq!(normalise_name(&"x".repeat(33)), None);
    }

    #[test]
    fn a_line_has_the_name_rule_with_its_own_length() {
        assert_eq!(
            normalise_line("  Coppa  di\u{2003}Natale ", MAX_TOURNAMENT_NAME).as_deref(),
            Some("Coppa di Natale")
        );
        assert_eq!(
            normalise_line(&"x".repeat(MAX_CHAT), MAX_CHAT).map(|l| l.len()),
            Some(MAX_CHAT)
        );
        assert_eq!(normalise_line(&"x".repeat(MAX_CHAT + 1), MAX_CHAT), None);
        for bad in ["Bidi \u{202E}evil\u{202C} name", "a\u{200B}b", "a\nb", ""] {
            assert_eq!(normalise_line(bad, MAX_CHAT), None, "{bad:?}");
        }
    }
}
