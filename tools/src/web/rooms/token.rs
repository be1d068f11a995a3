//! A seat's token: the secret in a seat's link, which is the seat's only key. It decides how a
//! token is made (192 bits from the operating system's random source), how it is written in a
//! link (48 lower-case hex digits), how it is read back (exactly that, or an error that does not
//! repeat the text), how two are compared (in constant time) and what the database keeps of it
//! (its SHA-256, [`TokenHash`]).
//!
//! Why these choices:
//! - 192 bits leave a margin over the 128 that make guessing hopeless, in a link still short
//!   enough to read out; hex has one spelling per token, so a token is never refused for the case
//!   or padding a mail program changed.
//! - Only the hash is stored: a copy of the database (a backup, a file handed over for a bug
//!   report) then holds no link that can take a seat. A token's hash is looked up by equality in
//!   an index; how long that lookup takes depends on the hash of what was sent, which tells the
//!   sender nothing about any stored token, and the hash found is then compared again in constant
//!   time. The token is random, so a plain hash needs no salt or stretching: there is nothing to
//!   guess from a dictionary.
//! - Neither `Debug` nor `Display` prints a token or a hash (`SeatToken(…)`), so a token put in a
//!   log line by mistake shows nothing; the text for the link comes only from
//!   [`SeatToken::link_text`], whose name says what it is for.

use std::fmt;

use rand::rngs::OsRng;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use thiserror::Error;

/// The random bytes of a token: 192 bits.
pub const TOKEN_BYTES: usize = 24;

/// The length of a token's text in a link: two hex digits a byte.
pub const TOKEN_TEXT_LEN: usize = 2 * TOKEN_BYTES;

/// A seat's secret token.
#[derive(Clone)]
pub struct SeatToken([u8; TOKEN_BYTES]);

/// The SHA-256 of a token: what the database keeps.
#[derive(Clone, Copy)]
pub struct TokenHash([u8; 32]);

/// Why a token could not be made or read. No variant holds the text that was read: a wrong
/// token may be a right one mistyped, and errors end up in logs.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TokenError {
    /// The text is not as long as a token's.
    #[error("a seat token is {TOKEN_TEXT_LEN} characters long, not {found}")]
    Length { found: usize },
    /// A character that is not a lower-case hex digit, at this position (from 0).
    #[error("a seat token is written in the hex digits 0-9 and a-f: character {at} is not one")]
    NotHex { at: usize },
    /// The operating system's random source failed.
    #[error("the operating system's random source failed: {0}")]
    Random(String),
}

impl SeatToken {
    /// A new token from the operating system's random source.
    ///
    /// # Errors
    /// When the random source fails ([`TokenError::Random`]); a token is never made from less.
    pub fn generate() -> Result<SeatToken, TokenError> {
        let mut bytes = [0u8; TOKEN_BYTES];
        OsRng.try_fill_bytes(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
        Ok(SeatToken(bytes))
    }

    /// Reads a token from its text in a link.
    ///
    /// # Errors
    /// Text of another length, or with a character that is not a lower-case hex digit.
    pub fn parse(text: &str) -> Result<SeatToken, TokenError> {
        let text = text.as_bytes();
        if text.len() != TOKEN_TEXT_LEN {
            return Err(TokenError::Length { found: text.len() });
        }
        let mut bytes = [0u8; TOKEN_BYTES];
        for (i, pair) in text.chunks_exact(2).enumerate() {
            let high = hex_value(pair[0]).ok_or(TokenError::NotHex { at: 2 * i })?;
            let low = hex_value(pair[1]).ok_or(TokenError::NotHex { at: 2 * i + 1 })?;
            bytes[i] = high << 4 | low;
        }
        Ok(SeatToken(bytes))
    }

    /// The token's text for the seat's link. It is the secret: it goes into the link a person is
    /// given, never into a log line, a query string or an error.
    pub fn link_text(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(TOKEN_TEXT_LEN);
        for byte in self.0 {
            text.push(char::from(DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(DIGITS[usize::from(byte & 15)]));
        }
        text
    }

    /// The token's hash, as the database keeps it.
    pub fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.0).into())
    }
}

/// A lower-case hex digit's value.
fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

/// Constant time: every byte is compared, whatever the first difference, so the time taken says
/// nothing about how much of a guess was right.
impl PartialEq for SeatToken {
    fn eq(&self, other: &SeatToken) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl Eq for SeatToken {}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(…)")
    }
}

impl fmt::Display for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(…)")
    }
}

impl TokenHash {
    /// The hash as the database stores it.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// A hash read from the database; `None` when it is not 32 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Option<TokenHash> {
        bytes.try_into().ok().map(TokenHash)
    }
}

/// Constant time, as for tokens.
impl PartialEq for TokenHash {
    fn eq(&self, other: &TokenHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl Eq for TokenHash {}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> SeatToken {
        SeatToken::generate().expect("the OS random source")
    }

    #[test]
    fn a_token_reads_back_from_its_link_text() {
        let t = token();
        let text = t.link_text();
        assert_eq!(text.len(), TOKEN_TEXT_LEN);
        assert!(text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{}", text.len());
        let back = SeatToken::parse(&text).expect("its own text");
        assert!(back == t);
        assert_eq!(back.link_text(), text);
        assert!(back.hash() == t.hash());
    }

    #[test]
    fn a_known_text_gives_its_bytes_and_hash() {
        // The bytes 0x00, 0x01, ..., 0x17 written as hex by hand.
        let text = "000102030405060708090a0b0c0d0e0f1011121314151617";
        let t = SeatToken::parse(text).expect("a token");
        assert_eq!(t.0, core::array::from_fn::<u8, TOKEN_BYTES, _>(|i| i as u8));
        // SHA-256 of those 24 bytes, from Python: hashlib.sha256(bytes(range(24))).hexdigest().
        let expected = "1d64add2a6388367c9bc2d1f1b384b069a6ef382cdaaa89771dd103e28613a25";
        let hash: String = t.hash().as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hash, expected);
        assert_eq!(t.link_text(), text);
    }

    #[test]
    fn malformed_text_is_refused_without_repeating_it() {
        let good = token().link_text();
        assert_eq!(SeatToken::parse(""), Err(TokenError::Length { found: 0 }));
        assert_eq!(SeatToken::parse(&good[1..]), Err(TokenError::Length { found: TOKEN_TEXT_LEN - 1 }));
        assert_eq!(
            SeatToken::parse(&format!("{good}0")),
            Err(TokenError::Length { found: TOKEN_TEXT_LEN + 1 })
        );
        let upper = format!("A{}", &good[1..]);
        assert_eq!(SeatToken::parse(&upper), Err(TokenError::NotHex { at: 0 }));
        let spaced = format!("{} {}", &good[..10], &good[11..]);
        assert_eq!(SeatToken::parse(&spaced), Err(TokenError::NotHex { at: 10 }));
        let last = format!("{}g", &good[..TOKEN_TEXT_LEN - 1]);
        assert_eq!(SeatToken::parse(&last), Err(TokenError::NotHex { at: TOKEN_TEXT_LEN - 1 }));
        // A multi-byte character makes the byte length differ, or is not a hex digit.
        let accented = format!("é{}", &good[2..]);
        assert_eq!(SeatToken::parse(&accented), Err(TokenError::NotHex { at: 0 }));
        let shown = SeatToken::parse(&last).expect_err("refused").to_string();
        assert!(!shown.contains(&good[..TOKEN_TEXT_LEN - 1]), "{shown}");
    }

    #[test]
    fn debug_and_display_hide_the_secret() {
        let t = token();
        let text = t.link_text();
        for shown in [format!("{t:?}"), format!("{t}"), format!("{:?}", t.hash()), format!("{:?}", Some(&t))]
        {
            assert!(!shown.contains(&text[..8]), "{shown}");
            assert!(shown.contains('…'), "{shown}");
        }
    }

    #[test]
    fn two_tokens_differ() {
        let tokens: Vec<SeatToken> = (0..64).map(|_| token()).collect();
        for (i, a) in tokens.iter().enumerate() {
            for b in &tokens[i + 1..] {
                assert!(a != b);
                assert_ne!(a.link_text(), b.link_text());
                assert!(a.hash() != b.hash());
            }
        }
    }

    #[test]
    fn tokens_differing_in_any_byte_are_unequal() {
        let t = token();
        for i in 0..TOKEN_BYTES {
            let mut other = t.clone();
            other.0[i] ^= 0x80;
            assert!(other != t, "byte {i}");
            assert!(other.hash() != t.hash(), "byte {i}");
        }
    }

    #[test]
    fn a_hash_reads_back_from_its_bytes() {
        let h = token().hash();
        let back = TokenHash::from_slice(h.as_bytes()).expect("32 bytes");
        assert!(back == h);
        assert!(TokenHash::from_slice(&h.as_bytes()[..31]).is_none());
        assert!(TokenHash::from_slice(&[0u8; 33]).is_none());
    }
}
