//! Rule options written as one flag, `key=value` joined by commas (`--rules` of zatre-selfplay
//! and zatre-huge-hands). A value may hold commas itself (`bonus=3,3,3,3,4,4,4,4,5,5,5,5,6`): a
//! piece without `=` continues the value before it.

/// The `(key, value)` pairs of `text`, in order; empty pieces are skipped.
///
/// # Errors
/// A first piece without `=`, or an empty key.
pub fn rule_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for piece in text.split(',').filter(|p| !p.is_empty()) {
        match piece.split_once('=') {
            Some(("", _)) => return Err(format!("'{piece}' has no key before its '='")),
            Some((key, value)) => pairs.push((key.to_string(), value.to_string())),
            None => match pairs.last_mut() {
                Some((_, value)) => {
                    value.push(',');
                    value.push_str(piece);
                }
                None => return Err(format!("rule options are key=value joined by commas, not '{piece}'")),
            },
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        rule_pairs(text).expect("rule options")
    }

    #[test]
    fn a_value_may_hold_commas() {
        assert_eq!(pairs(""), vec![]);
        assert_eq!(pairs("rounds=3"), vec![("rounds".into(), "3".into())]);
        assert_eq!(
            pairs("rounds=3,bonus=3,3,4,teams=on"),
            vec![
                ("rounds".into(), "3".into()),
                ("bonus".into(), "3,3,4".into()),
                ("teams".into(), "on".into())
            ]
        );
        assert!(rule_pairs("rounds").is_err());
        assert!(rule_pairs("=3").is_err());
    }
}
