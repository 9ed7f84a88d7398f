//! The weekly board (issue 32): the rating each subject gained in a calendar week (Monday 00:00
//! UTC to the next), kept incrementally in `rating_weeks`, one row per week, category and
//! subject, which every rated match's own transaction adds its changes to (`Ratings::apply`). The
//! board reads the week's top rows along the index `rating_weeks_board (week_ms, category, bot,
//! gain DESC, subject)`, as the all-time board walks `ratings_board`: no scan of the week's
//! results, no sort, whatever their number (the history's sum over the last 7 days took 1.96 s at
//! 200,000 results in the week).
//!
//! Why a calendar week and not the last 7 days: a sum over a sliding window cannot be kept in a
//! row (every result leaves it at its own moment) nor read in order from an index; a week that
//! starts at a fixed instant can. The seasons are calendar quarters for the same reason.

/// A day in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// The first millisecond (Unix ms) of the calendar week (Monday 00:00 UTC) holding `unix_ms`.
/// 1970-01-01 was a Thursday, so day `d` (since the epoch) is `(d + 3) mod 7` days after a Monday.
pub fn week_of(unix_ms: i64) -> i64 {
    let day = unix_ms.div_euclid(DAY_MS);
    (day - (day + 3).rem_euclid(7)) * DAY_MS
}

/// The backfill of `rating_weeks` from the ratings' history: each history point added to its
/// week's row (the week computed as [`week_of`] does, in SQL both stores run). A macro so that
/// [`MIGRATION`] can hold it and the tests run it alone.
macro_rules! backfill {
    () => {
        "INSERT INTO rating_weeks (week_ms, category, subject, bot, gain, matches)
         SELECT week, category, subject, MAX(CASE WHEN bot THEN 1 ELSE 0 END) = 1,
            SUM(rating - rating_before), COUNT(*)
         FROM (SELECT at_ms - ((at_ms / 86400000 + 3) % 7) * 86400000 - at_ms % 86400000
                  AS week, category, subject, bot, rating, rating_before
               FROM rating_history) h
         GROUP BY week, category, subject;"
    };
}

/// [`MIGRATION`]'s filling of `rating_weeks` from `rating_history` alone (tests compare it with
/// the rows the matches' transactions kept).
pub const BACKFILL: &str = backfill!();

/// The accounts' migration 15: the table, its board's index, and the weeks of the history rated
/// before it (so the week in course is whole from the first start). Plain SQL both SQLite and
/// PostgreSQL accept.
pub const MIGRATION: &str = concat!(
    "CREATE TABLE rating_weeks (
        week_ms BIGINT NOT NULL,
        category TEXT NOT NULL,
        subject TEXT NOT NULL,
        bot BOOLEAN NOT NULL,
        gain DOUBLE PRECISION NOT NULL,
        matches BIGINT NOT NULL,
        PRIMARY KEY (week_ms, category, subject));
     CREATE INDEX rating_weeks_board ON rating_weeks (week_ms, category, bot, gain DESC, subject);
     ",
    backfill!()
);

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-11-24T00:00:00Z, a Monday.
    const MONDAY: i64 = 1_763_942_400_000;

    #[test]
    fn a_week_runs_from_monday_midnight_utc_to_the_next() {
        assert_eq!(week_of(MONDAY), MONDAY);
        assert_eq!(
            week_of(MONDAY + 7 * DAY_MS - 1),
            MONDAY,
            "Sunday's last millisecond"
        );
        assert_eq!(week_of(MONDAY + 7 * DAY_MS), MONDAY + 7 * DAY_MS);
        assert_eq!(week_of(MONDAY - 1), MONDAY - 7 * DAY_MS);
        // The epoch, a Thursday, is in the week of Monday 1969-12-29.
        assert_eq!(week_of(0), -3 * DAY_MS);
        assert_eq!(week_of(4 * DAY_MS + 5), 4 * DAY_MS, "Monday 1970-01-05");
        assert_eq!(week_of(4 * DAY_MS - 1), -3 * DAY_MS, "Sunday 1970-01-04");
    }

    /// The SQL's week is [`week_of`]'s for every instant after the epoch (integer division and
    /// remainder truncate, as `div_euclid` and `rem_euclid` do for non-negative numbers).
    #[test]
    fn the_backfills_week_is_week_of() {
        let sql = |at_ms: i64| at_ms - ((at_ms / DAY_MS + 3) % 7) * DAY_MS - at_ms % DAY_MS;
        for at_ms in [
            1,
            DAY_MS - 1,
            MONDAY,
            MONDAY + 1,
            MONDAY + 6 * DAY_MS + 12 * 3_600_000,
            MONDAY + 7 * DAY_MS - 1,
            1_764_000_000_000,
        ] {
            assert_eq!(sql(at_ms), week_of(at_ms), "{at_ms}");
        }
        assert!(BACKFILL.contains("86400000") && MIGRATION.ends_with(BACKFILL));
    }
}
