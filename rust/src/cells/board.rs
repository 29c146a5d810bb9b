//! Free-cell board text: fc-solve's layout (docs/rules.md §6), which fc-solve reads and writes.
//!
//! ```text
//! Foundations: H-0 C-2 D-A S-0   (each suit's top card, 0 for none; the line may be left out)
//! Freecells: 8H - - QC           (a card or `-` for each cell; the line may be left out)
//! : 4C 2C 9C 8C QS 4S 2H         (one line per column, bottom first; `:` alone is empty)
//! ```
//!
//! Written: every foundation and every cell, and each column after `: `. Read: either case,
//! `10` for `T`, the leading `:` optional, fewer cells than the variant has (the rest empty).

use super::deal::CellsDeal;
use super::variant::Variant;
use crate::board_text::{self, BoardError, Line};
use crate::cards::{rank_char, rank_from_text, Card, SUITS};

/// The foundations in the order fc-solve writes them (suit indexes: H C D S).
const FOUNDATION_ORDER: [u8; 4] = [2, 0, 1, 3];

pub fn format(deal: &CellsDeal) -> String {
    let foundations: Vec<String> = FOUNDATION_ORDER
        .iter()
        .map(|&s| {
            let top = deal.foundations[s as usize];
            let rank = if top == 0 { '0' } else { rank_char(top) };
            format!("{}-{rank}", SUITS[s as usize])
        })
        .collect();
    let cells: Vec<String> = deal
        .cells
        .iter()
        .map(|c| c.map_or_else(|| "-".to_string(), |c| c.to_string()))
        .collect();
    let mut out = format!(
        "Foundations: {}\nFreecells: {}\n",
        foundations.join(" "),
        cells.join(" ")
    );
    for column in &deal.columns {
        let cards: Vec<String> = column.iter().map(Card::to_string).collect();
        out.push_str(format!(": {}", cards.join(" ")).trim_end());
        out.push('\n');
    }
    out
}

/// One `S-R` token of the foundations line: the suit and its top rank.
fn foundation(line: &Line, token: &str) -> Result<(u8, u8), BoardError> {
    let refused = || {
        line.error(
            token,
            "not a foundation (suit H C D S, `-`, rank 0 A 2-9 T J Q K)",
        )
    };
    let (suit, rank) = token.split_once('-').ok_or_else(refused)?;
    let suit = board_text::suit(suit).ok_or_else(refused)?;
    let rank = if rank == "0" {
        0
    } else {
        rank_from_text(rank).ok_or_else(refused)?
    };
    Ok((suit, rank))
}

/// Parses free-cell board text of `variant` (`None`: FreeCell).
pub fn parse(text: &str, variant: Option<Variant>) -> Result<CellsDeal, BoardError> {
    let variant = variant.unwrap_or(Variant::FreeCell);
    let mut foundations: Option<[u8; 4]> = None;
    let mut cells: Option<Vec<Option<Card>>> = None;
    let mut columns = Vec::new();
    for line in board_text::lines(text) {
        if let Some(rest) = line.after("foundations:") {
            if foundations.is_some() {
                return Err(line.error(line.text, "a second foundations line"));
            }
            let mut tops = [0u8; 4];
            for token in rest.split_whitespace() {
                let (suit, rank) = foundation(&line, token)?;
                tops[suit as usize] = rank;
            }
            foundations = Some(tops);
        } else if let Some(rest) = line.after("freecells:") {
            if cells.is_some() {
                return Err(line.error(line.text, "a second freecells line"));
            }
            let mut held = Vec::new();
            for token in rest.split_whitespace() {
                held.push(match token {
                    "-" => None,
                    _ => Some(line.cards(token)?[0]),
                });
            }
            if held.len() > variant.cells() {
                let message = format!("{} has {} cells", variant.name(), variant.cells());
                return Err(line.error(line.text, message));
            }
            held.resize(variant.cells(), None);
            cells = Some(held);
        } else {
            columns.push(line.cards(line.column())?);
        }
    }
    let deal = CellsDeal {
        variant,
        number: None,
        columns,
        cells: cells.unwrap_or_else(|| vec![None; variant.cells()]),
        foundations: foundations.unwrap_or_default(),
    };
    deal.check().map_err(BoardError::whole)?;
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_what_it_wrote() {
        for v in Variant::ALL {
            let deal = CellsDeal::from_number(v, 5).unwrap();
            let mut back = parse(&format(&deal), Some(v)).unwrap();
            back.number = deal.number;
            assert_eq!(back, deal);
        }
    }

    /// What fc-solve writes (`fc-solve -p -t`: cells padded, `10` or `T`) reads as written.
    #[test]
    fn fc_solve_text_is_read() {
        let text = "Foundations: H-0 C-0 D-A S-0 \nFreecells:  4H  6C  8H  JS\n\
            : 2D KC KS 5C 10D 8S 9C\n: 5H 3H 3C 7S 7D TC\n: 5D\n: 7H QC AS AC 2C 3D\n\
            : 7C KH AH 4D JH 8C\n: 9H 9S 9D TS 4S 8D 2H\n: JC 5S QD QH TH QS 6H\n\
            JD KD 2S 4C 3S 6D 6S\n";
        let deal = parse(text, None).unwrap();
        assert_eq!(deal.foundations, [0, 1, 0, 0]);
        assert_eq!(deal.cells[3], Card::parse("JS"));
        assert_eq!(deal.columns[2].len(), 1);
        assert!(format(&deal)
            .starts_with("Foundations: H-0 C-0 D-A S-0\nFreecells: 4H 6C 8H JS\n: 2D KC"));
    }

    #[test]
    fn bad_text_is_refused_with_its_place() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 5).unwrap();
        let text = format(&deal);
        let e = parse(&text.replacen("H-0", "X-0", 1), None).unwrap_err();
        assert_eq!((e.line, e.token.as_deref()), (Some(1), Some("X-0")));
        let e = parse(&text.replacen("- -", "- ZZ", 1), None).unwrap_err();
        assert_eq!((e.line, e.token.as_deref()), (Some(2), Some("ZZ")));
        let e = parse(
            &text.replacen("Freecells: -", "Freecells: - - - - -", 1),
            None,
        );
        assert!(e.unwrap_err().message.contains("4 cells"));
        let short = text.lines().take(9).collect::<Vec<_>>().join("\n");
        let e = parse(&short, None).unwrap_err();
        assert!(e.message.contains("8 columns"), "{e}");
        let twice = text.replacen("H-0", "H-2", 1);
        assert!(parse(&twice, None).unwrap_err().message.contains("times"));
        assert!(parse("", Some(Variant::EightOff)).is_err());
    }
}
