//! The variants as data: what differs between them is the deal, never the rules of play.
//! Every castle game plays by docs/rules.md §1; the deal layout is in `deal.rs`.

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    BeleagueredCastle,
    StreetsAndAlleys,
    Citadel,
}

impl Variant {
    pub const ALL: [Variant; 3] = [
        Variant::BeleagueredCastle,
        Variant::StreetsAndAlleys,
        Variant::Citadel,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Variant::BeleagueredCastle => "beleaguered-castle",
            Variant::StreetsAndAlleys => "streets-and-alleys",
            Variant::Citadel => "citadel",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::BeleagueredCastle => "Beleaguered Castle",
            Variant::StreetsAndAlleys => "Streets and Alleys",
            Variant::Citadel => "Citadel",
        }
    }

    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// Number of tableau columns.
    pub fn columns(self) -> usize {
        8
    }

    /// Whether the four aces start on the foundations (so an ace can never be in the tableau).
    pub fn aces_start_on_foundations(self) -> bool {
        !matches!(self, Variant::StreetsAndAlleys)
    }

    /// Whether a dealt card that fits its foundation goes there instead of to its column.
    pub fn deals_to_foundations(self) -> bool {
        matches!(self, Variant::Citadel)
    }

    /// PySolFC's game number for this variant (its deal N is ours).
    pub fn pysolfc_game(self) -> u32 {
        match self {
            Variant::BeleagueredCastle => 34,
            Variant::StreetsAndAlleys => 146,
            Variant::Citadel => 145,
        }
    }
}
