//! PROTOCOL.md's table of rule options is the one the definitions of the rule options
//! (`zatre::rules::RULE_OPTIONS`) give: a new option, a changed default, value or explanation
//! fails here until the document says it. `BLESS_SPEC=1` writes the table into the document.

use std::fs;
use std::path::Path;

const BEGIN: &str = "<!-- rule-options: generated from src/rules/options.rs; a test checks it -->\n";
const END: &str = "\n<!-- end rule-options -->";

#[test]
fn the_rule_option_table_of_protocol_md_is_the_definitions() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/PROTOCOL.md");
    let text = fs::read_to_string(&path).expect("protocol/PROTOCOL.md");
    let start = text.find(BEGIN).expect("PROTOCOL.md marks its table of rule options") + BEGIN.len();
    let end = start + text[start..].find(END).expect("the table's end marker");
    let table = zatre::rules::option_table();
    if std::env::var_os("BLESS_SPEC").is_some() {
        fs::write(&path, format!("{}{table}{}", &text[..start], &text[end..])).expect("writable");
        return;
    }
    assert_eq!(
        &text[start..end],
        table,
        "PROTOCOL.md's table of rule options differs (BLESS_SPEC=1 rewrites it)"
    );
    // Every option of the definitions has its row, and only those.
    for def in &zatre::rules::RULE_OPTIONS {
        assert!(text[start..end].contains(&format!("| `{}` |", def.name)), "{} has no row", def.name);
    }
}
