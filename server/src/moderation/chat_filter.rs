//! The chat filter: a small list of words that are abuse in English or Italian. A line with one
//! is **delivered** as it was written and reported to the moderators (an automatic report with
//! the line and its context): the filter never mutes or hides by itself, because a word list
//! cannot tell abuse from a quotation, a name or a joke, and a silent filter teaches players to
//! misspell. A moderator decides.
//!
//! Words are matched whole, on the line folded to lower case: this catches the plain word, not
//! every disguise (a player's own report remains for those).

/// The words (lower case). Kept short on purpose: the strongest insults and slurs only.
const WORDS: &[&str] = &[
    // English
    "idiot",
    "moron",
    "retard",
    "retarded",
    "cunt",
    "fuck",
    "fucking",
    "motherfucker",
    "bitch",
    "whore",
    "slut",
    "faggot",
    "nigger",
    "kys",
    // Italian
    "stronzo",
    "stronza",
    "coglione",
    "cogliona",
    "vaffanculo",
    "puttana",
    "troia",
    "frocio",
    "ricchione",
    "cretino",
    "cretina",
    "bastardo",
    "bastarda",
    "mongoloide",
];

/// The first listed word the line holds, whole; `None` for a clean line.
pub fn flagged(line: &str) -> Option<&'static str> {
    let folded = line.to_lowercase();
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .find_map(|w| WORDS.iter().copied().find(|listed| *listed == w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_in_either_language_are_flagged() {
        assert_eq!(flagged("you IDIOT!"), Some("idiot"));
        assert_eq!(flagged("ma sei uno stronzo"), Some("stronzo"));
        assert_eq!(flagged("well played, thanks"), None);
        // Inside another word it is not the word.
        assert_eq!(flagged("idiotic rules"), None);
        assert_eq!(flagged("Scunthorpe"), None);
    }
}
