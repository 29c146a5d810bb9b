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
use crate::cards::{rank_char, rank_from_text, suit_from_char, BoardError, Card, SUITS};

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
    // Where each column's cards were written (line, tokens), for errors in the user's words.
    let mut column_lines: Vec<usize> = Vec::new();
    let mut column_tokens: Vec<Vec<&str>> = Vec::new();
    let mut foundations: Option<[u8; 4]> = None;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("foundations:") {
            if foundations.is_some() {
                return Err(BoardError::at(lineno, line, "a second foundations line"));
            }
            foundations = Some(parse_foundations(lineno, &line[line.len() - rest.len()..])?);
        } else if let Some(rest) = lower.strip_prefix("freecells:") {
            if let Some(t) = line[line.len() - rest.len()..]
                .split_whitespace()
                .find(|t| *t != "-")
            {
                return Err(BoardError::at(lineno, t, "castle games have no free cells"));
            }
        } else {
            let body = line.strip_prefix(':').unwrap_or(line);
            let mut column = Vec::new();
            let tokens: Vec<&str> = body.split_whitespace().collect();
            for &token in &tokens {
                let card = Card::parse(token).ok_or_else(|| {
                    BoardError::at(
                        lineno,
                        token,
                        "not a card (rank A 2-9 T J Q K, suit H C D S)",
                    )
                })?;
                column.push(card);
            }
            columns.push(column);
            column_lines.push(lineno);
            column_tokens.push(tokens);
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
    for ((column, tokens), &lineno) in columns.iter().zip(&column_tokens).zip(&column_lines) {
        for (&card, token) in column.iter().zip(tokens) {
            if card.rank() <= foundations[card.suit() as usize] {
                return Err(BoardError::at(
                    lineno,
                    token,
                    "this card is also on its foundation",
                ));
            }
            if std::mem::replace(&mut seen[card.index()], true) {
                return Err(BoardError::at(lineno, token, "duplicate card"));
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
        for ((column, tokens), &lineno) in columns.iter().zip(&column_tokens).zip(&column_lines) {
            if let Some((_, token)) = column.iter().zip(tokens).find(|(c, _)| c.rank() == 1) {
                return Err(BoardError::at(
                    lineno,
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

fn parse_foundations(lineno: usize, body: &str) -> Result<[u8; 4], BoardError> {
    let mut tops = [0u8; 4];
    let mut named = [false; 4];
    for token in body.split_whitespace() {
        let bad = || {
            BoardError::at(
                lineno,
                token,
                "not a foundation (suit-rank, like H-A or S-0)",
            )
        };
        let (suit_text, rank_text) = token.split_once('-').ok_or_else(bad)?;
        let mut suit_chars = suit_text.chars();
        let suit = match (suit_chars.next(), suit_chars.next()) {
            (Some(c), None) => suit_from_char(c).ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        let rank = if rank_text == "0" {
            0
        } else {
            rank_from_text(rank_text).ok_or_else(bad)?
        };
        if std::mem::replace(&mut named[suit as usize], true) {
            return Err(BoardError::at(
                lineno,
                token,
                format!("{} named twice", SUITS[suit as usize]),
            ));
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
