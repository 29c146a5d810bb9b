//! What both games' board texts are read with (docs/rules.md §2): their lines, numbered from 1
//! and trimmed, blank lines and `#` comments passed over; a line's label (`Stock:`, in either
//! case); a column's cards; a suit written as its letter; and why a text was refused.

use std::fmt;

use crate::cards::{suit_from_char, Card};

/// Why a board text was refused; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub line: Option<usize>,
    pub token: Option<String>,
    pub message: String,
}

impl BoardError {
    pub(crate) fn at(line: usize, token: &str, message: impl Into<String>) -> BoardError {
        BoardError {
            line: Some(line),
            token: Some(token.to_string()),
            message: message.into(),
        }
    }

    pub(crate) fn whole(message: impl Into<String>) -> BoardError {
        BoardError {
            line: None,
            token: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.line, &self.token) {
            (Some(l), Some(t)) => write!(f, "line {l}, {t:?}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

/// A line of board text that says something: its number (from 1) and its text, trimmed.
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    pub(crate) number: usize,
    pub(crate) text: &'a str,
}

/// The lines of `text` that say something (not blank, not a `#` comment).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let text = raw.trim();
        (!text.is_empty() && !text.starts_with('#')).then_some(Line {
            number: i + 1,
            text,
        })
    })
}

impl<'a> Line<'a> {
    /// What follows `label` (written in lower case, like `stock:`) when the line starts with
    /// it, in either case.
    pub(crate) fn after(&self, label: &str) -> Option<&'a str> {
        let head = self.text.get(..label.len())?;
        head.eq_ignore_ascii_case(label)
            .then(|| &self.text[label.len()..])
    }

    /// The line as a column: its cards, less a leading `:` (a line of `:` alone is an empty
    /// column).
    pub(crate) fn column(&self) -> &'a str {
        self.text.strip_prefix(':').unwrap_or(self.text)
    }

    /// The error at `token` of this line.
    pub(crate) fn error(&self, token: &str, message: impl Into<String>) -> BoardError {
        BoardError::at(self.number, token, message)
    }

    /// The cards of `text` (a part of this line), or the error at the first token that is not
    /// a card.
    pub(crate) fn cards(&self, text: &str) -> Result<Vec<Card>, BoardError> {
        text.split_whitespace()
            .map(|token| {
                Card::parse(token).ok_or_else(|| {
                    self.error(token, "not a card (rank A 2-9 T J Q K, suit H C D S)")
                })
            })
            .collect()
    }
}

/// The suit a token of one letter (`H C D S`, either case) names.
pub(crate) fn suit(token: &str) -> Option<u8> {
    let mut chars = token.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => suit_from_char(c),
        _ => None,
    }
}
