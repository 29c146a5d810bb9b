//! Spider board text: the castle layout (docs/rules.md §2) with face-down cards and the stock.
//!
//! ```text
//! Stock: 5H 7S ... (dealing order: the first ten are the next deal, to columns 1-10)
//! Off: S H         (the suits of the runs already taken off; the line may be left out)
//! 4S 7H 2D 9C | 8C (one line per column, bottom first; cards before `|` are face down)
//! :                (an empty column)
//! ```

use super::deal::{Column, SpiderDeal, Suits};
use crate::board_text::{self, BoardError};
use crate::cards::{Card, SUITS};

pub fn format(deal: &SpiderDeal) -> String {
    let cards = |cards: &[Card]| {
        cards
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = format!("Stock: {}\n", cards(&deal.stock));
    if !deal.off.is_empty() {
        let suits: Vec<String> = deal
            .off
            .iter()
            .map(|&s| SUITS[s as usize].to_string())
            .collect();
        out.push_str(&format!("Off: {}\n", suits.join(" ")));
    }
    for column in &deal.columns {
        let line = match (column.down.is_empty(), column.up.is_empty()) {
            (true, true) => ":".to_string(),
            (true, false) => cards(&column.up),
            _ => format!("{} | {}", cards(&column.down), cards(&column.up)),
        };
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The deck a position's cards come from: the suits present say it.
fn guess_suits(deal: &SpiderDeal) -> Suits {
    let mut present = [false; 4];
    for card in deal
        .columns
        .iter()
        .flat_map(|c| c.down.iter().chain(&c.up))
        .chain(&deal.stock)
    {
        present[card.suit() as usize] = true;
    }
    for &suit in &deal.off {
        present[suit as usize] = true;
    }
    match present.iter().filter(|&&p| p).count() {
        0 | 1 => Suits::One,
        2 => Suits::Two,
        _ => Suits::Four,
    }
}

/// Parses Spider board text; `suits` is checked against the cards, `None` reads it from them.
pub fn parse(text: &str, suits: Option<Suits>) -> Result<SpiderDeal, BoardError> {
    let mut stock: Option<Vec<Card>> = None;
    let mut off: Vec<u8> = Vec::new();
    let mut columns = Vec::new();
    for line in board_text::lines(text) {
        if let Some(rest) = line.after("stock:") {
            if stock.is_some() {
                return Err(line.error(line.text, "a second stock line"));
            }
            stock = Some(line.cards(rest)?);
        } else if let Some(rest) = line.after("off:") {
            for token in rest.split_whitespace() {
                off.push(
                    board_text::suit(token).ok_or_else(|| {
                        line.error(token, "not a suit (H C D S) of a run taken off")
                    })?,
                );
            }
        } else {
            // Face-down cards before `|`, if the line has one.
            let body = line.column();
            let (down, up) = body.split_once('|').unwrap_or(("", body));
            columns.push(Column {
                down: line.cards(down)?,
                up: line.cards(up)?,
            });
        }
    }
    let mut deal = SpiderDeal {
        suits: Suits::Four,
        number: None,
        columns,
        stock: stock.unwrap_or_default(),
        off,
    };
    deal.suits = suits.unwrap_or_else(|| guess_suits(&deal));
    deal.check().map_err(BoardError::whole)?;
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_what_it_wrote() {
        for suits in Suits::ALL {
            let deal = SpiderDeal::from_number(suits, 5).unwrap();
            let text = format(&deal);
            let mut back = parse(&text, None).unwrap();
            assert_eq!(back.suits, suits);
            back.number = deal.number;
            assert_eq!(back, deal);
        }
    }

    #[test]
    fn bad_text_is_refused_with_its_place() {
        let deal = SpiderDeal::from_number(Suits::Two, 5).unwrap();
        let text = format(&deal).replacen("Stock: ", "Stock: ZZ ", 1);
        let e = parse(&text, None).unwrap_err();
        assert_eq!((e.line, e.token.as_deref()), (Some(1), Some("ZZ")));
        let short = format(&deal).replacen(" |", "", 1);
        assert!(parse(&short, None).is_ok()); // still every card: a face-down card turned up
        let missing = format(&deal).lines().skip(1).collect::<Vec<_>>().join("\n");
        let e = parse(&missing, Some(Suits::Two)).unwrap_err();
        assert!(
            e.message.contains("stock") || e.message.contains("deck"),
            "{e}"
        );
        let off = format!("Off: X\n{}", format(&deal));
        assert_eq!(parse(&off, None).unwrap_err().token.as_deref(), Some("X"));
    }
}
