//! Every relative link in the repository's Markdown files resolves: the file or folder it names
//! exists inside the repository, and its `#anchor`, if any, names a heading of the Markdown file
//! it points to (GitHub's heading ids). Links with a scheme (`https:`, `mailto:`) are not
//! followed. Fenced code blocks and inline code are not Markdown links, so they are skipped.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Folders never searched for Markdown files: build output, VCS data, installed packages.
const SKIPPED_DIRS: [&str; 3] = ["target", ".git", "node_modules"];

#[test]
fn every_relative_link_in_the_markdown_files_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    markdown_files(root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "no README.md found under {}", root.display());
    let docs: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, text)
        })
        .collect();
    let broken = broken_links(root, &docs);
    assert!(broken.is_empty(), "{} broken link(s):\n{}", broken.len(), broken.join("\n"));
}

/// Every `*.md` file under `dir`, outside the skipped folders and hidden ones.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name) {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// One line per link of `docs` that does not resolve: `<file>:<line>: <target>: <why>`. Anchors
/// are looked up in `docs` when the target is among them, else in the file on disk.
fn broken_links(root: &Path, docs: &[(PathBuf, String)]) -> Vec<String> {
    let mut broken = Vec::new();
    for (path, text) in docs {
        let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
        for (line, target) in links(text) {
            if let Err(why) = resolve(root, path, text, docs, &target) {
                broken.push(format!("{shown}:{line}: {target}: {why}"));
            }
        }
    }
    broken
}

/// Whether one link target of the file at `from` (whose text is `text`) resolves.
fn resolve(
    root: &Path,
    from: &Path,
    text: &str,
    docs: &[(PathBuf, String)],
    target: &str,
) -> Result<(), String> {
    if has_scheme(target) {
        return Ok(());
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let file = file.split_once('?').map_or(file, |(f, _)| f);
    if file.is_empty() {
        return anchor.map_or(Ok(()), |anchor| anchor_in(text, anchor));
    }
    let path = if file.starts_with('/') {
        return Err("an absolute path; write it relative to this file".into());
    } else {
        normalize(&from.parent().unwrap_or(root).join(percent_decoded(file)))
    };
    if !path.starts_with(root) {
        return Err("points outside the repository".into());
    }
    if !path.exists() {
        return Err(format!(
            "no such file or folder: {}",
            path.strip_prefix(root).unwrap_or(&path).display()
        ));
    }
    let Some(anchor) = anchor.filter(|a| !a.is_empty()) else { return Ok(()) };
    if path.extension().and_then(|e| e.to_str()) != Some("md") {
        return Ok(());
    }
    let target_text = if let Some((_, t)) = docs.iter().find(|(p, _)| *p == path) {
        t.clone()
    } else {
        fs::read_to_string(&path).map_err(|e| e.to_string())?
    };
    anchor_in(&target_text, anchor)
}

/// Whether the Markdown `text` has a heading (or an explicit anchor) with the id `anchor`.
fn anchor_in(text: &str, anchor: &str) -> Result<(), String> {
    if anchor.is_empty() || heading_ids(text).contains(&percent_decoded(anchor).to_lowercase()) {
        Ok(())
    } else {
        Err(format!("no heading with the id '{anchor}'"))
    }
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn has_scheme(target: &str) -> bool {
    match target.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

/// `%20` and the like decoded (ASCII only; anything else is left as written).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The link targets of a Markdown text with their line numbers: inline links and images
/// `[text](target "title")`, `<target>` in them, reference definitions `[name]: target`, and the
/// `src="..."` and `href="..."` of HTML tags (`<img src=...>`), in the order of these kinds.
/// Fenced code blocks and inline code spans are skipped.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        if let Some(target) = reference_definition(&line) {
            out.push((number, target));
        }
        for key in ["src", "href"] {
            out.extend(attribute_values(&line, key).into_iter().map(|v| (number, v)));
        }
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = closing_paren(after) else { break };
            let inner = after[..end].trim();
            let target = if let Some(stripped) = inner.strip_prefix('<') {
                stripped.split('>').next().unwrap_or("")
            } else {
                inner.split_whitespace().next().unwrap_or("")
            };
            if !target.is_empty() {
                out.push((number, target.to_string()));
            }
            rest = &after[end..];
        }
    }
    out
}

/// The lines outside fenced code blocks, with their numbers from 1, leading blanks trimmed.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        if let Some(marker) = fence {
            if line.starts_with(marker) {
                fence = None;
            }
        } else if line.starts_with("```") || line.starts_with("~~~") {
            fence = Some(&line[..3]);
        } else {
            out.push((index + 1, line));
        }
    }
    out
}

/// The values of the HTML attribute `key` (`key="value"`) in a line.
fn attribute_values(line: &str, key: &str) -> Vec<String> {
    let marker = format!("{key}=\"");
    let mut values = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(&marker) {
        // Only a whole attribute name: `id=` but not `grid=`.
        let whole = rest[..at].chars().next_back().is_none_or(|c| c.is_whitespace());
        let after = &rest[at + marker.len()..];
        let end = after.find('"').unwrap_or(after.len());
        if whole {
            values.push(after[..end].to_string());
        }
        rest = &after[end..];
    }
    values
}

/// The index of the `)` that closes a link target (parentheses inside it nest).
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `[name]: target` at the start of a line.
fn reference_definition(line: &str) -> Option<String> {
    let rest = line.strip_prefix('[')?;
    let (name, after) = rest.split_once("]:")?;
    if name.is_empty() || name.contains(']') {
        return None;
    }
    let target = after.split_whitespace().next()?;
    Some(target.trim_start_matches('<').trim_end_matches('>').to_string())
}

/// The line with every inline code span (`` `...` ``, any number of backticks) removed.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let marker = "`".repeat(ticks);
        let body = &rest[start + ticks..];
        match body.find(&marker) {
            Some(end) => rest = &body[end + ticks..],
            None => {
                // An unclosed backtick is a literal backtick.
                out.push_str(&rest[start..start + ticks]);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The ids GitHub gives the headings of a Markdown text: lower case, inline code and links kept
/// as their text, punctuation but `-` and `_` dropped, spaces as `-`; a repeated id gets `-1`,
/// `-2`, ... Explicit `<a id="...">` / `<a name="...">` anchors count too.
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        for key in ["id", "name"] {
            ids.extend(attribute_values(line, key).into_iter().map(|v| v.to_lowercase()));
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#').trim());
        let mut id = base.clone();
        let mut n = 0;
        while ids.contains(&id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        ids.insert(id);
    }
    ids
}

/// GitHub's id of one heading's text.
fn slug(heading: &str) -> String {
    // A link in a heading counts by its text: drop the `(target)` of `[text](target)`.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(at) = rest.find("](") {
        text.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match closing_paren(after) {
            Some(end) => rest = &after[end + 1..],
            None => {
                rest = after;
                break;
            }
        }
    }
    text.push_str(rest);
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn links_are_found_outside_code_and_fences_only() {
    let text = "See [the spec](protocol/PROTOCOL.md#framing) and ![a picture](a%20b.png \"title\").\n\
                `[not a link](x.md)` and ``a `[tick](y.md)` span``\n\
                ```\n[in a fence](z.md)\n```\n\
                [ref]: docs/guide.md\n\
                [paren](file_(1).md) and [web](https://example.com) and [angle](<with space.md>)\n\
                <img src=\"shot.png\" width=\"240\"> <a href=\"#top\">top</a> <b data-src=\"not.png\">\n";
    let found: Vec<(usize, String)> = links(text);
    let expected: Vec<(usize, String)> = vec![
        (1, "protocol/PROTOCOL.md#framing".into()),
        (1, "a%20b.png".into()),
        (6, "docs/guide.md".into()),
        (7, "file_(1).md".into()),
        (7, "https://example.com".into()),
        (7, "with space.md".into()),
        (8, "shot.png".into()),
        (8, "#top".into()),
    ];
    assert_eq!(found, expected);
}

#[test]
fn heading_ids_follow_github() {
    let ids = heading_ids(
        "# The zatre protocol\n## `go [movetime <ms>]`\n### Commands for GUIs (version 2)\n## Tests\n## Tests\n\
         ```\n# not a heading\n```\n<a id=\"Custom\"></a>\n#nospace\n## [Linked](x.md) heading\n",
    );
    let expected: BTreeSet<String> = [
        "the-zatre-protocol",
        "go-movetime-ms",
        "commands-for-guis-version-2",
        "tests",
        "tests-1",
        "custom",
        "linked-heading",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(ids, expected);
}

#[test]
fn a_missing_file_a_missing_anchor_and_a_link_out_of_the_repository_are_each_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = root.join("docs").join("page-under-test.md");
    let text = "# Here\n\
                [ok](../Cargo.toml) [ok folder](../src) [ok anchor](#here) [web](https://example.com/x)\n\
                [gone](../no-such-file.md)\n\
                [bad anchor](#nowhere)\n\
                [outside](../../somewhere-else/RULES.md)\n\
                [another page](../README.md#its-heading) [another page, bad](../README.md#missing)\n";
    // The README's text is given here, so its anchors come from this text, not from the disk.
    let docs = vec![(page, text.to_string()), (root.join("README.md"), "## Its heading\n".to_string())];
    let broken = broken_links(root, &docs);
    let shown: Vec<&str> = broken.iter().map(|b| b.split(": ").nth(1).unwrap_or("")).collect();
    assert_eq!(
        shown,
        ["../no-such-file.md", "#nowhere", "../../somewhere-else/RULES.md", "../README.md#missing"],
        "{broken:#?}"
    );
    assert!(broken[0].contains("no such file"), "{}", broken[0]);
    assert!(broken[1].contains("no heading"), "{}", broken[1]);
    assert!(broken[2].contains("outside the repository"), "{}", broken[2]);
    assert!(broken[3].contains("no heading with the id 'missing'"), "{}", broken[3]);
}
