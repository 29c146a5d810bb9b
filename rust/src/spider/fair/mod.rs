//! The fair player: Spider advice from what a player can see (docs/spider.md, "The fair
//! player"). It reads a position only through a [`view::View`]; it plans the moves that show
//! nothing new by a search that needs no hidden card ([`quiet`]), and chooses where to look
//! next by trying each choice in many worlds that agree with what is seen ([`advise`]).

pub mod advise;
pub mod quiet;
pub mod reveal;
pub mod view;
