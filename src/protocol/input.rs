//! Reading input lines with a bounded buffer: a line over the limit is skipped to its end, not
//! stored, so no input can exhaust memory.

use std::io::{self, BufRead};

use super::parse::MAX_LINE_BYTES;

/// One line of input as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawLine {
    /// The line's bytes without the `\n` (a `\r` before it is kept: the framing drops it).
    Bytes(Vec<u8>),
    /// A line longer than the limit; its bytes were dropped.
    TooLong,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes (plus a trailing `\r`). Returns `None` at
/// the end of input; a last line without `\n` is still a line.
///
/// # Errors
/// Errors of the underlying reader other than `Interrupted`.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    read_line_limited(reader, MAX_LINE_BYTES + 1)
}

/// [`read_line`] with a limit in bytes (the content kept, `\n` excluded).
fn read_line_limited(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<RawLine>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            // End of input.
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, found_newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (&buf[..k], true),
            None => (buf, false),
        };
        if !too_long {
            if line.len() + chunk.len() > limit {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(found_newline);
        reader.consume(used);
        if found_newline {
            break;
        }
    }
    Ok(Some(if too_long { RawLine::TooLong } else { RawLine::Bytes(line) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn lines(input: &[u8], limit: usize, capacity: usize) -> Vec<RawLine> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut out = Vec::new();
        while let Some(line) = read_line_limited(&mut reader, limit).unwrap() {
            out.push(line);
        }
        out
    }

    fn b(s: &str) -> RawLine {
        RawLine::Bytes(s.as_bytes().to_vec())
    }

    #[test]
    fn splits_lines_and_keeps_a_last_line_without_newline() {
        for capacity in [1, 2, 3, 64] {
            assert_eq!(lines(b"a\r\n\nbc\nd", 10, capacity), vec![b("a\r"), b(""), b("bc"), b("d")]);
        }
        assert_eq!(lines(b"", 10, 8), vec![]);
        assert_eq!(lines(b"\n", 10, 8), vec![b("")]);
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        for capacity in [1, 4, 64] {
            assert_eq!(
                lines(b"12345\n123456\nok\n1234567", 6, capacity),
                vec![b("12345"), b("123456"), b("ok"), RawLine::TooLong]
            );
        }
    }

    #[test]
    fn the_real_limit_allows_a_full_line_with_crlf() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\r\n");
        input.extend_from_slice(&vec![b'y'; MAX_LINE_BYTES + 2]);
        input.push(b'\n');
        let mut reader = BufReader::new(&input[..]);
        let first = read_line(&mut reader).unwrap();
        assert!(matches!(first, Some(RawLine::Bytes(v)) if v.len() == MAX_LINE_BYTES + 1));
        assert_eq!(read_line(&mut reader).unwrap(), Some(RawLine::TooLong));
        assert_eq!(read_line(&mut reader).unwrap(), None);
    }
}
