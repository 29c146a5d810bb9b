//! Board text (docs/rules.md §2): parse with errors that name the line and token, and format.
//!
//! ```text
//! Foundations: H-A C-A D-A S-A
//! JD KD KS QH 8H 6C
//! ...
//! ```
//! One line per column, bottom card first. An empty column is a line holding only `:`.

use super::deal::Deal;
use super::variant::Variant;
use crate::board_text::{self, BoardError, Line};
use crate::cards::{rank_char, rank_from_text, suit_from_char, Card, SUITS};

/// The foundations line lists suits in this order (as PySolFC and fc-solve print them).
const FOUNDATION_ORDER: [char; 4] = ['H', 'C', 'D', 'S'];

/// Formats a deal as board text, in the layout `pysol_cards` prints.
pub fn format(deal: &Deal) -> String {
    let mut out = String::new();
    let tops: Vec<String> = FOUNDATION_ORDER
        .iter()
        .filter_map(|&s| {
            let rank = deal.foundations[suit_from_char(s).unwrap() as usize];
            (rank > 0).then(|| format!("{s}-{}", rank_char(rank)))
        })
        .collect();
    if !tops.is_empty() {
        out.push_str("Foundations: ");
        out.push_str(&tops.join(" "));
        out.push('\n');
    }
    for column in &deal.columns {
        if column.is_empty() {
            out.push(':');
        } else {
            let cards: Vec<String> = column.iter().map(Card::to_string).collect();
            out.push_str(&cards.join(" "));
        }
        out.push('\n');
    }
    out
}

/// Which variant a text is, when the caller does not say: an ace in the tableau can only be
/// Streets and Alleys; otherwise Beleaguered Castle (Citadel plays by the same rules).
fn guess_variant(columns: &[Vec<Card>]) -> Variant {
    if columns.iter().flatten().any(|c| c.rank() == 1) {
        Variant::StreetsAndAlleys
    } else {
        Variant::BeleagueredCastle
    }
}

/// Parses board text. `variant` is checked against the layout; `None` guesses it.
pub fn parse(text: &str, variant: Option<Variant>) -> Result<Deal, BoardError> {
    let mut columns: Vec<Vec<Card>> = Vec::new();
    // Where each column's cards were written (the line, its cards' text), for errors in the
    // user's words.
    let mut written: Vec<(Line, &str)> = Vec::new();
    let mut foundations: Option<[u8; 4]> = None;
    for line in board_text::lines(text) {
        if let Some(rest) = line.after("foundations:") {
            if foundations.is_some() {
                return Err(line.error(line.text, "a second foundations line"));
            }
            foundations = Some(parse_foundations(&line, rest)?);
        } else if let Some(rest) = line.after("freecells:") {
            if let Some(t) = rest.split_whitespace().find(|t| *t != "-") {
                return Err(line.error(t, "castle games have no free cells"));
            }
        } else {
            let body = line.column();
            columns.push(line.cards(body)?);
            written.push((line, body));
        }
    }
    let foundations = foundations.unwrap_or([0; 4]);
    let variant = variant.unwrap_or_else(|| guess_variant(&columns));
    if columns.len() != variant.columns() {
        return Err(BoardError::whole(format!(
            "{} has {} columns, the text has {}",
            variant.id(),
            variant.columns(),
            columns.len()
        )));
    }
    // Each card exactly once: in one column, or covered by its suit's foundation.
    let mut seen = [false; 52];
    for (column, (line, body)) in columns.iter().zip(&written) {
        for (&card, token) in column.iter().zip(body.split_whitespace()) {
            if card.rank() <= foundations[card.suit() as usize] {
                return Err(line.error(token, "this card is also on its foundation"));
            }
            if std::mem::replace(&mut seen[card.index()], true) {
                return Err(line.error(token, "duplicate card"));
            }
        }
    }
    let missing: Vec<String> = Card::deck()
        .filter(|c| !seen[c.index()] && c.rank() > foundations[c.suit() as usize])
        .map(|c| c.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(BoardError::whole(format!(
            "missing cards: {}",
            missing.join(" ")
        )));
    }
    if variant.aces_start_on_foundations() {
        for (column, (line, body)) in columns.iter().zip(&written) {
            let tokens = body.split_whitespace();
            if let Some((_, token)) = column.iter().zip(tokens).find(|(c, _)| c.rank() == 1) {
                return Err(line.error(
                    token,
                    format!("in {} the aces start on the foundations", variant.id()),
                ));
            }
        }
    }
    Ok(Deal {
        variant,
        number: None,
        columns,
        foundations,
    })
}

/// The foundations `body` (a part of `line`) names: each suit's top rank.
fn parse_foundations(line: &Line, body: &str) -> Result<[u8; 4], BoardError> {
    let mut tops = [0u8; 4];
    let mut named = [false; 4];
    for token in body.split_whitespace() {
        let bad = || line.error(token, "not a foundation (suit-rank, like H-A or S-0)");
        let (suit_text, rank_text) = token.split_once('-').ok_or_else(bad)?;
        let suit = board_text::suit(suit_text).ok_or_else(bad)?;
        let rank = if rank_text == "0" {
            0
        } else {
            rank_from_text(rank_text).ok_or_else(bad)?
        };
        if std::mem::replace(&mut named[suit as usize], true) {
            return Err(line.error(token, format!("{} named twice", SUITS[suit as usize])));
        }
        tops[suit as usize] = rank;
    }
    Ok(tops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_round_trip_through_text() {
        for v in Variant::ALL {
            for n in [1, 48, 31999, 32000, 123456789] {
                let d = Deal::from_number(v, n).unwrap();
                let back = parse(&format(&d), Some(v)).unwrap();
                assert_eq!(back.columns, d.columns);
                assert_eq!(back.foundations, d.foundations);
            }
        }
    }

    #[test]
    fn errors_name_the_line_and_token() {
        let d = Deal::from_number(Variant::BeleagueredCastle, 1).unwrap();
        let text = format(&d);
        let bad = text.replacen(&d.columns[2][1].to_string(), "ZZ", 1);
        let e = parse(&bad, None).unwrap_err();
        assert_eq!((e.line, e.token.as_deref()), (Some(4), Some("ZZ")));
        let dup = text.replacen(
            &d.columns[2][1].to_string(),
            &d.columns[0][0].to_string(),
            1,
        );
        let e = parse(&dup, None).unwrap_err();
        assert!(e.message.contains("duplicate"), "{e}");
        let short: String = text.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert!(parse(&short, None).unwrap_err().message.contains("columns"));
    }
}
