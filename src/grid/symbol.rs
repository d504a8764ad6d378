//! How values are written as characters.
//!
//! - [`Style::Line`] (one-line format, pretty output): `1`-`9`, then `A`-`Z` for 10-35; read
//!   case-insensitively. A 36x36 grid writes 36 as `0`, so there only `.` means empty.
//! - [`Style::Solo`] (Solo's Copy text and its keyboard): `1`-`9`, then `a`-`z` for 10-35.

/// A symbol alphabet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `1-9A-Z` (and `0` for 36 on 36x36 grids).
    Line,
    /// `1-9a-z`, as Solo displays and types values.
    Solo,
}

/// The character for a value `1..=side`, or `None` when the style has none for it.
pub fn to_char(value: u8, side: usize, style: Style) -> Option<char> {
    match value {
        1..=9 => Some((b'0' + value) as char),
        10..=35 => Some(match style {
            Style::Line => (b'A' + value - 10) as char,
            Style::Solo => (b'a' + value - 10) as char,
        }),
        36 if side == 36 && style == Style::Line => Some('0'),
        _ => None,
    }
}

/// The value a character stands for on a grid of `side`, ignoring case; `None` if the character
/// is no value there (blanks are the caller's business).
pub fn from_char(c: char, side: usize) -> Option<u8> {
    let v = match c {
        '1'..='9' => c as u8 - b'0',
        'a'..='z' => c as u8 - b'a' + 10,
        'A'..='Z' => c as u8 - b'A' + 10,
        '0' if side == 36 => 36,
        _ => return None,
    };
    (v as usize <= side).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_round_trips_in_both_styles() {
        for side in [4usize, 9, 16, 25, 31, 35, 36] {
            for v in 1..=side as u8 {
                let line = to_char(v, side, Style::Line).expect("line symbol");
                assert_eq!(from_char(line, side), Some(v), "line {v} on {side}");
                if let Some(solo) = to_char(v, side, Style::Solo) {
                    assert_eq!(from_char(solo, side), Some(v), "solo {v} on {side}");
                }
            }
        }
    }

    #[test]
    fn values_above_the_side_are_not_symbols() {
        assert_eq!(from_char('A', 9), None);
        assert_eq!(from_char('G', 16), Some(16));
        assert_eq!(from_char('h', 16), None);
        assert_eq!(from_char('0', 9), None);
    }
}
