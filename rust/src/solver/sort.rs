//! The beams' ranking: a stable sort by estimate, by counting (shared by both games' beams).

/// Sorts `items` by `key`, ties in the order they come (what a stable sort does), by counting:
/// the keys are estimates, small integers. `scratch` and `counts` are storage kept from one
/// call to the next (a stable sort would borrow room for up to as many items each time); the
/// caller reserves `scratch` for `items.len()`. Keys spread wider than the items fall back to
/// a stable sort.
pub fn sort_by_estimate<T: Copy>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    counts: &mut Vec<usize>,
    key: impl Fn(&T) -> i64,
) {
    let (Some(low), Some(high)) = (items.iter().map(&key).min(), items.iter().map(&key).max())
    else {
        return;
    };
    let range = (high - low) as usize + 1;
    if range > 4 * items.len() + 4096 {
        items.sort_by_key(key);
        return;
    }
    // counts[k]: where the items of the k-th key go, once summed.
    counts.clear();
    counts.resize(range + 1, 0);
    for item in items.iter() {
        counts[(key(item) - low) as usize + 1] += 1;
    }
    for k in 1..=range {
        counts[k] += counts[k - 1];
    }
    scratch.clear();
    scratch.resize(items.len(), items[0]);
    for item in items.iter() {
        let at = &mut counts[(key(item) - low) as usize];
        scratch[*at] = *item;
        *at += 1;
    }
    std::mem::swap(items, scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_by_counting_keeps_ties_in_order_as_a_stable_sort() {
        let mut items: Vec<(i64, usize)> = (0..5000usize)
            .map(|i| ((i * 7919 % 61) as i64 - 30, i))
            .collect();
        let mut sorted = items.clone();
        sorted.sort_by_key(|&(k, _)| k);
        let (mut scratch, mut counts) = (Vec::new(), Vec::new());
        sort_by_estimate(&mut items, &mut scratch, &mut counts, |&(k, _)| k);
        assert_eq!(items, sorted);
        // Keys spread wide: the stable sort itself.
        let mut wide: Vec<(i64, usize)> = vec![(1 << 40, 0), (-5, 1), (1 << 40, 2), (-5, 3)];
        sort_by_estimate(&mut wide, &mut scratch, &mut counts, |&(k, _)| k);
        assert_eq!(wide, [(-5, 1), (-5, 3), (1 << 40, 0), (1 << 40, 2)]);
        let mut none: Vec<(i64, usize)> = Vec::new();
        sort_by_estimate(&mut none, &mut scratch, &mut counts, |&(k, _)| k);
    }
}
