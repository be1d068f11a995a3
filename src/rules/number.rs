//! How the protocol writes a whole number, wherever one stands (command arguments, engine and rule
//! options, the position line): ASCII decimal digits only, no sign, no blanks; leading zeros are
//! allowed. One parser, so that `+2` or `-0` is refused everywhere alike.

use std::str::FromStr;

/// The number `text` writes, if it is one by the protocol's rule and fits `T`.
pub fn parse_number<T: FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_digits_make_a_number() {
        assert_eq!(parse_number::<u32>("42"), Some(42));
        assert_eq!(parse_number::<u32>("007"), Some(7));
        assert_eq!(parse_number::<u64>("0"), Some(0));
        for text in ["", "+2", "-0", "-1", " 1", "1 ", "1_000", "1.0", "0x10", "٣"] {
            assert_eq!(parse_number::<u64>(text), None, "{text:?}");
        }
        assert_eq!(parse_number::<u8>("256"), None, "too large for the type");
    }
}
