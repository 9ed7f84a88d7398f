//! Victory points: the federations' tables turning a match's point difference into VP (RULES.md
//! section 11; FITAB art. 18, FE.BUR.IT art. 27, FEDIBUR art. 9).
//!
//! Every table has eleven rows, from 10-10 to 20-0. A row is kept as the least difference (match
//! points, MP) that reaches it, so a table is ten numbers: the lower bounds of the rows 11-9 to
//! 20-0 (the 10-10 row starts at 0). A difference between two printed rows (the printed ranges
//! skip the four values between multiples of 5, e.g. 51-54) stays in the lower row: a row must
//! be reached.

use crate::config::Preset;

/// A column of the VP table of RULES.md section 11.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VpTable {
    /// FITAB art. 18, "partita su 2 smazzate".
    FitabTwoHands,
    /// FITAB art. 18, "partita su 3 smazzate". The code prints the last row as "1500 +", which
    /// overlaps the row before it (1265-1510); the row is read as 1515+, like every other table.
    FitabThreeHands,
    /// FITAB art. 18, "partita su 4 smazzate".
    FitabFourHands,
    /// FITAB art. 18, "punteggi per incontri a squadre".
    FitabTeams,
    /// FE.BUR.IT art. 27, matches of 3 hands.
    FeburitThreeHands,
    /// FE.BUR.IT art. 27, matches of 4 hands.
    FeburitFourHands,
    /// FE.BUR.IT art. 27, team matches of 3 hands.
    FeburitTeamsThree,
    /// FE.BUR.IT art. 27, team matches of 4 hands.
    FeburitTeamsFour,
    /// FEDIBUR art. 9.
    Fedibur,
}

impl VpTable {
    pub const ALL: [VpTable; 9] = [
        VpTable::FitabTwoHands,
        VpTable::FitabThreeHands,
        VpTable::FitabFourHands,
        VpTable::FitabTeams,
        VpTable::FeburitThreeHands,
        VpTable::FeburitFourHands,
        VpTable::FeburitTeamsThree,
        VpTable::FeburitTeamsFour,
        VpTable::Fedibur,
    ];

    /// The VP a side earns for a draw, and the most a side can earn.
    pub const DRAW_VP: u8 = 10;
    pub const MAX_VP: u8 = 20;

    /// The column a match plays on.
    ///
    /// The codes give tables for some hand counts only; the others take the nearest column:
    /// - `fitab`: teams use the teams column whatever the hands (art. 18 gives one); otherwise 1
    ///   or 2 hands the 2-hands column, 3 the 3-hands one, 4 to 8 the 4-hands one.
    /// - `feburit`: up to 3 hands the 3-hands column, 4 or more the 4-hands one (teams likewise).
    /// - `fedibur`: its one column (art. 9: a tournament turn has at least three hands).
    pub fn for_match(preset: Preset, hands: u8, teams: bool) -> VpTable {
        match preset {
            Preset::Fitab if teams => VpTable::FitabTeams,
            Preset::Fitab => match hands {
                0..=2 => VpTable::FitabTwoHands,
                3 => VpTable::FitabThreeHands,
                _ => VpTable::FitabFourHands,
            },
            Preset::Feburit => match (teams, hands) {
                (false, 0..=3) => VpTable::FeburitThreeHands,
                (false, _) => VpTable::FeburitFourHands,
                (true, 0..=3) => VpTable::FeburitTeamsThree,
                (true, _) => VpTable::FeburitTeamsFour,
            },
            Preset::Fedibur => VpTable::Fedibur,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            VpTable::FitabTwoHands => "fitab-2",
            VpTable::FitabThreeHands => "fitab-3",
            VpTable::FitabFourHands => "fitab-4",
            VpTable::FitabTeams => "fitab-teams",
            VpTable::FeburitThreeHands => "feburit-3",
            VpTable::FeburitFourHands => "feburit-4",
            VpTable::FeburitTeamsThree => "feburit-teams-3",
            VpTable::FeburitTeamsFour => "feburit-teams-4",
            VpTable::Fedibur => "fedibur",
        }
    }

    pub fn from_code(code: &str) -> Option<VpTable> {
        VpTable::ALL
            .into_iter()
            .find(|t| t.code().eq_ignore_ascii_case(code))
    }

    /// The federation whose code prints this column.
    pub fn preset(self) -> Preset {
        match self {
            VpTable::FitabTwoHands
            | VpTable::FitabThreeHands
            | VpTable::FitabFourHands
            | VpTable::FitabTeams => Preset::Fitab,
            VpTable::FeburitThreeHands
            | VpTable::FeburitFourHands
            | VpTable::FeburitTeamsThree
            | VpTable::FeburitTeamsFour => Preset::Feburit,
            VpTable::Fedibur => Preset::Fedibur,
        }
    }

    /// The least difference reaching each row from 11-9 (index 0) to 20-0 (index 9).
    pub fn lower_bounds(self) -> [i32; 10] {
        match self {
            VpTable::FitabTwoHands => [55, 135, 215, 315, 415, 515, 635, 755, 885, 1015],
            VpTable::FitabThreeHands => [65, 165, 265, 365, 515, 665, 815, 1015, 1265, 1515],
            VpTable::FitabFourHands => [115, 315, 515, 715, 915, 1115, 1315, 1515, 1715, 2015],
            VpTable::FitabTeams => [165, 365, 565, 815, 1065, 1315, 1615, 1915, 2215, 2515],
            VpTable::FeburitThreeHands => [105, 205, 305, 455, 605, 805, 1005, 1255, 1505, 1805],
            VpTable::FeburitFourHands => [155, 355, 555, 755, 955, 1205, 1455, 1705, 2005, 2305],
            VpTable::FeburitTeamsThree => [155, 355, 555, 805, 1055, 1305, 1605, 1905, 2205, 2505],
            VpTable::FeburitTeamsFour => [205, 405, 605, 855, 1105, 1405, 1705, 2005, 2405, 2805],
            VpTable::Fedibur => [55, 155, 255, 355, 505, 655, 805, 1005, 1255, 1505],
        }
    }

    /// (winner's VP, loser's VP) for a difference of `margin` points, whichever its sign.
    pub fn victory_points(self, margin: i32) -> (u8, u8) {
        let margin = i64::from(margin).abs();
        let rows = self
            .lower_bounds()
            .iter()
            .take_while(|&&bound| margin >= i64::from(bound))
            .count() as u8;
        (Self::DRAW_VP + rows, Self::DRAW_VP - rows)
    }

    /// The MP "equivalent" to a side's VP (FITAB art. 37: "V.P. ... ed equivalenti M.P."): the
    /// least difference earning `vp` to the winner, negated for the loser's share (`vp` below 10).
    /// `None` above 20 VP.
    ///
    /// This reproduces art. 37's own pairs: 14 VP = 315 MP in 2 hands, 14 = 365 in 3, 12 = 315
    /// in 4 and 12 = 365 for teams are exactly the lower bounds of those rows.
    pub fn equivalent_mp(self, vp: u8) -> Option<i32> {
        match vp {
            0..Self::DRAW_VP => self.equivalent_mp(Self::MAX_VP - vp).map(|margin| -margin),
            Self::DRAW_VP => Some(0),
            11..=Self::MAX_VP => Some(self.lower_bounds()[usize::from(vp - Self::DRAW_VP - 1)]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md section 11, copied as printed.
    const RULES_TABLE: &str = "
| VP | FITAB 2 hands | FITAB 3 | FITAB 4 | FITAB teams | FE.BUR.IT 3 | FE.BUR.IT 4 | FE.BUR.IT teams 3 | FE.BUR.IT teams 4 | FEDIBUR |
|---|---|---|---|---|---|---|---|---|---|
| 10-10 | 0-50 | 0-60 | 0-110 | 0-160 | 0-100 | 0-150 | 0-150 | 0-200 | 0-50 |
| 11-9 | 55-130 | 65-160 | 115-310 | 165-360 | 105-200 | 155-350 | 155-350 | 205-400 | 55-150 |
| 12-8 | 135-210 | 165-260 | 315-510 | 365-560 | 205-300 | 355-550 | 355-550 | 405-600 | 155-250 |
| 13-7 | 215-310 | 265-360 | 515-710 | 565-810 | 305-450 | 555-750 | 555-800 | 605-850 | 255-350 |
| 14-6 | 315-410 | 365-510 | 715-910 | 815-1060 | 455-600 | 755-950 | 805-1050 | 855-1100 | 355-500 |
| 15-5 | 415-510 | 515-660 | 915-1110 | 1065-1310 | 605-800 | 955-1200 | 1055-1300 | 1105-1400 | 505-650 |
| 16-4 | 515-630 | 665-810 | 1115-1310 | 1315-1610 | 805-1000 | 1205-1450 | 1305-1600 | 1405-1700 | 655-800 |
| 17-3 | 635-750 | 815-1010 | 1315-1510 | 1615-1910 | 1005-1250 | 1455-1700 | 1605-1900 | 1705-2000 | 805-1000 |
| 18-2 | 755-880 | 1015-1260 | 1515-1710 | 1915-2210 | 1255-1500 | 1705-2000 | 1905-2200 | 2005-2400 | 1005-1250 |
| 19-1 | 885-1010 | 1265-1510 | 1715-2010 | 2215-2510 | 1505-1800 | 2005-2300 | 2205-2500 | 2405-2800 | 1255-1500 |
| 20-0 | 1015+ | 1515+ (the seed misprints 1500+) | 2015+ | 2515+ | 1805+ | 2305+ | 2505+ | 2805+ | 1505+ |
";

    /// The table's columns in the order of [`VpTable::ALL`].
    const COLUMNS: [&str; 9] = [
        "FITAB 2 hands",
        "FITAB 3",
        "FITAB 4",
        "FITAB teams",
        "FE.BUR.IT 3",
        "FE.BUR.IT 4",
        "FE.BUR.IT teams 3",
        "FE.BUR.IT teams 4",
        "FEDIBUR",
    ];

    struct Row {
        vp: (u8, u8),
        low: i32,
        /// `None` for the open-ended last row.
        high: Option<i32>,
    }

    fn number(text: &str) -> i32 {
        let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {text:?}"))
    }

    /// Parses the markdown table into one list of rows per column.
    fn parse() -> Vec<(String, Vec<Row>)> {
        let mut lines = RULES_TABLE.trim().lines().map(|line| {
            line.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect::<Vec<_>>()
        });
        let header = lines.next().expect("header");
        let mut columns: Vec<(String, Vec<Row>)> = header[1..]
            .iter()
            .map(|name| (name.to_string(), Vec::new()))
            .collect();
        for cells in lines.skip(1) {
            let (w, l) = cells[0].split_once('-').expect("VP cell");
            let vp = (number(w) as u8, number(l) as u8);
            for (column, cell) in columns.iter_mut().zip(&cells[1..]) {
                let row = match cell.split_once('-') {
                    Some((low, high)) => Row {
                        vp,
                        low: number(low),
                        high: Some(number(high)),
                    },
                    None => {
                        assert!(cell.contains('+'), "open row {cell:?}");
                        Row {
                            vp,
                            low: number(cell),
                            high: None,
                        }
                    }
                };
                column.1.push(row);
            }
        }
        columns
    }

    #[test]
    fn every_row_boundary_of_every_column_matches_rules_md() {
        let columns = parse();
        assert_eq!(columns.len(), VpTable::ALL.len());
        let mut checked = 0;
        for ((name, rows), table) in columns.iter().zip(VpTable::ALL) {
            assert_eq!(
                name,
                COLUMNS[VpTable::ALL.iter().position(|&t| t == table).unwrap()]
            );
            assert_eq!(rows.len(), 11, "{name}");
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(row.vp, (10 + i as u8, 10 - i as u8), "{name} row {i}");
                for margin in [row.low, row.high.unwrap_or(row.low + 10_000)] {
                    assert_eq!(table.victory_points(margin), row.vp, "{name} at {margin}");
                    assert_eq!(table.victory_points(-margin), row.vp, "{name} at -{margin}");
                    checked += 1;
                }
                if i > 0 {
                    // The row below ends 5 points before this one starts.
                    assert_eq!(rows[i - 1].high, Some(row.low - 5), "{name} row {i}");
                    assert_eq!(table.victory_points(row.low - 5), rows[i - 1].vp);
                    assert_eq!(table.victory_points(row.low - 1), rows[i - 1].vp);
                } else {
                    assert_eq!(row.low, 0, "{name}");
                }
                assert_eq!(row.high.is_none(), i == 10, "{name} row {i}");
            }
        }
        assert_eq!(checked, 9 * 11 * 2);
    }

    #[test]
    fn fitab_three_hands_top_row_is_1515() {
        let t = VpTable::FitabThreeHands;
        assert_eq!(t.victory_points(1500), (19, 1));
        assert_eq!(t.victory_points(1510), (19, 1));
        assert_eq!(t.victory_points(1515), (20, 0));
    }

    #[test]
    fn ties_and_extremes() {
        for t in VpTable::ALL {
            assert_eq!(t.victory_points(0), (10, 10));
            assert_eq!(t.victory_points(i32::MAX), (20, 0));
            assert_eq!(t.victory_points(i32::MIN), (20, 0));
            // Between printed rows (not a multiple of 5): still the lower row.
            let first = t.lower_bounds()[0];
            assert_eq!(t.victory_points(first - 2), (10, 10));
            assert_eq!(t.victory_points(first + 2), (11, 9));
        }
    }

    #[test]
    fn choosing_a_column() {
        use VpTable::*;
        let fitab = |h, teams| VpTable::for_match(Preset::Fitab, h, teams);
        let feburit = |h, teams| VpTable::for_match(Preset::Feburit, h, teams);
        assert_eq!(
            [1, 2, 3, 4, 5, 8].map(|h| fitab(h, false)),
            [
                FitabTwoHands,
                FitabTwoHands,
                FitabThreeHands,
                FitabFourHands,
                FitabFourHands,
                FitabFourHands
            ]
        );
        assert_eq!([1, 3, 4, 8].map(|h| fitab(h, true)), [FitabTeams; 4]);
        assert_eq!(
            [1, 2, 3, 4, 6].map(|h| feburit(h, false)),
            [
                FeburitThreeHands,
                FeburitThreeHands,
                FeburitThreeHands,
                FeburitFourHands,
                FeburitFourHands
            ]
        );
        assert_eq!(
            [2, 3, 4, 8].map(|h| feburit(h, true)),
            [
                FeburitTeamsThree,
                FeburitTeamsThree,
                FeburitTeamsFour,
                FeburitTeamsFour
            ]
        );
        for h in [1, 3, 4, 8] {
            for teams in [false, true] {
                assert_eq!(VpTable::for_match(Preset::Fedibur, h, teams), Fedibur);
            }
        }
        for t in VpTable::ALL {
            assert_eq!(VpTable::from_code(t.code()), Some(t));
        }
        assert_eq!(VpTable::from_code("fitab-5"), None);
        assert_eq!(FeburitTeamsFour.preset(), Preset::Feburit);
    }

    #[test]
    fn equivalent_mp_matches_fitab_art_37() {
        assert_eq!(VpTable::FitabTwoHands.equivalent_mp(14), Some(315));
        assert_eq!(VpTable::FitabThreeHands.equivalent_mp(14), Some(365));
        assert_eq!(VpTable::FitabFourHands.equivalent_mp(12), Some(315));
        assert_eq!(VpTable::FitabTeams.equivalent_mp(12), Some(365));
        assert_eq!(VpTable::FitabTwoHands.equivalent_mp(6), Some(-315));
        assert_eq!(VpTable::Fedibur.equivalent_mp(10), Some(0));
        assert_eq!(VpTable::Fedibur.equivalent_mp(20), Some(1505));
        assert_eq!(VpTable::Fedibur.equivalent_mp(0), Some(-1505));
        assert_eq!(VpTable::Fedibur.equivalent_mp(21), None);
        for t in VpTable::ALL {
            for vp in 0..=20 {
                let mp = t.equivalent_mp(vp).unwrap();
                let (w, l) = t.victory_points(mp);
                assert_eq!(if mp >= 0 { w } else { l }, vp, "{} {vp}", t.code());
            }
        }
    }
}
