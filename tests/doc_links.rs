//! Every relative link in the repository's Markdown files resolves: the file or folder it names
//! exists inside the repository, and its `#anchor`, if any, names a heading of the Markdown file
//! it points to (GitHub's heading ids). Links with a scheme (`https:`, `mailto:`) are not
//! followed. Fenced code blocks and inline code are not Markdown links, so they are skipped.
//!
//! Two checks of every text file (code, documents, scripts, the board's page) go with it: each
//! citation of the rules reference names a section that docs/rules.md has (`docs/rules.md 2.3.3`,
//! `rules.md#6.1`), and none cites the team's rules file or notes folder beside the repository
//! ([`OUTSIDE`]); and no line names a numbered work item (an issue, task, ticket, stop or pull
//! request by its number, or a number after a bare `#`), which no reader of the repository can look
//! up: a comment says what the code does and why instead. The archive of past work (docs/archive/)
//! is kept as it was written and is exempt from the work-item check only. The tests' own examples of what must be
//! found are built from pieces, so that this file does not name them itself.

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
                [outside](../../somewhere-else/notes.md)\n\
                [another page](../README.md#its-heading) [another page, bad](../README.md#missing)\n";
    // The README's text is given here, so its anchors come from this text, not from the disk.
    let docs = vec![(page, text.to_string()), (root.join("README.md"), "## Its heading\n".to_string())];
    let broken = broken_links(root, &docs);
    let shown: Vec<&str> = broken.iter().map(|b| b.split(": ").nth(1).unwrap_or("")).collect();
    assert_eq!(
        shown,
        ["../no-such-file.md", "#nowhere", "../../somewhere-else/notes.md", "../README.md#missing"],
        "{broken:#?}"
    );
    assert!(broken[0].contains("no such file"), "{}", broken[0]);
    assert!(broken[1].contains("no heading"), "{}", broken[1]);
    assert!(broken[2].contains("outside the repository"), "{}", broken[2]);
    assert!(broken[3].contains("no heading with the id 'missing'"), "{}", broken[3]);
}

/// The file names (by extension, or whole for files without one) whose text the reference and
/// work-item checks read: code, documents, scripts, the board's page and the CI script.
const TEXT_FILES: [&str; 12] =
    ["rs", "md", "toml", "sh", "js", "html", "css", "txt", "json", "yml", "service", "run"];

/// Folders whose files are data, not text anyone writes: golden counts and positions.
const DATA_DIRS: [&str; 1] = ["tests/golden"];

/// Every text file under `dir` ([`TEXT_FILES`]), outside the skipped folders, hidden ones but
/// `.ci`, and [`DATA_DIRS`].
fn text_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let relative = path.strip_prefix(root).unwrap_or(&path);
        if path.is_dir() {
            let hidden = name.starts_with('.') && name != ".ci";
            if !hidden && !SKIPPED_DIRS.contains(&name) && !DATA_DIRS.iter().any(|d| relative == Path::new(d))
            {
                text_files(root, &path, out);
            }
        } else {
            let kind = name.rsplit_once('.').map_or(name, |(_, ext)| ext);
            if TEXT_FILES.contains(&kind) {
                out.push(path);
            }
        }
    }
}

/// Every text file of the repository with its text, shown relative to the root.
fn repository_texts() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    text_files(root, root, &mut files);
    files.sort();
    assert!(files.iter().any(|f| f.ends_with("src/lib.rs")), "no src/lib.rs found under {}", root.display());
    files
        .into_iter()
        // A file that is not UTF-8 is not text anyone cites from.
        .filter_map(|path| {
            let text = fs::read_to_string(&path).ok()?;
            Some((path.strip_prefix(root).unwrap_or(&path).display().to_string(), text))
        })
        .collect()
}

/// The words that name a work item when a number follows them (`issue <n>`, `task #<n>`).
const WORK_ITEM_WORDS: [&str; 10] =
    ["issue", "issues", "task", "tasks", "ticket", "tickets", "stop", "pr", "pull request", "work item"];

/// The numbered work items a line names, as written: a word of [`WORK_ITEM_WORDS`] followed by a
/// number (`#` allowed), or `#` and a number standing alone. Link targets (`](#2.3)`,
/// `href="#..."`) are anchors, not work items, and are skipped; so is `#` with three, four, six
/// or eight digits (a hex colour may be all digits: `#333`), a section number (`#6.1`), and a `#`
/// inside a word, an entity (`&#13;`) or a format (`{:#04x}`).
fn work_items(line: &str) -> Vec<String> {
    let line = without_link_targets(line);
    let lower = line.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let word_char = |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    let digits_at = |i: usize| bytes[i.min(bytes.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut found = Vec::new();
    for word in WORK_ITEM_WORDS {
        let mut from = 0;
        while let Some(at) = lower[from..].find(word).map(|i| i + from) {
            from = at + word.len();
            if at > 0 && word_char(at - 1) {
                continue;
            }
            let mut i = at + word.len();
            let spaces = bytes[i..].iter().take_while(|&&b| b == b' ').count();
            i += spaces;
            let hash = bytes.get(i) == Some(&b'#');
            i += usize::from(hash);
            let n = digits_at(i);
            if (spaces > 0 || hash) && n > 0 && !word_char(i + n) {
                found.push(line[at..i + n].to_string());
            }
        }
    }
    for (at, _) in lower.match_indices('#') {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b"&#:_/\\".contains(&b)) {
            continue;
        }
        let n = digits_at(at + 1);
        let section =
            bytes.get(at + 1 + n) == Some(&b'.') && bytes.get(at + 2 + n).is_some_and(u8::is_ascii_digit);
        if n > 0 && ![3, 4, 6, 8].contains(&n) && !word_char(at + 1 + n) && !section {
            let item = &line[at..at + 1 + n];
            if !found.iter().any(|f| f.ends_with(item)) {
                found.push(item.to_string());
            }
        }
    }
    found
}

/// The line with the targets of Markdown links (`](...)`) and of `href="..."` left out.
fn without_link_targets(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let link = rest.find("](").map(|i| (i + 2, ")"));
        let href = rest.find("href=\"").map(|i| (i + 6, "\""));
        let next = match (link, href) {
            (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        let Some((start, close)) = next else { break };
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        match after.find(close) {
            Some(end) => rest = &after[end..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One line per numbered work item in `texts`: `<file>:<line>: names '<item>' ...`.
fn work_item_lines(texts: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in texts {
        for (index, line) in text.lines().enumerate() {
            for item in work_items(line) {
                out.push(format!(
                    "{file}:{}: names the work item '{item}', which no reader can look up: say what the \
                     code does and why instead",
                    index + 1
                ));
            }
        }
    }
    out
}

/// What a file that other work owns and is rewriting still holds: `(file, what in two pieces, how
/// many lines)`, let through while it stands exactly so. When the owner's rewrite removes it,
/// [`awaiting_owner`] asks for the entry to go, so the lists only shrink; what is on no list fails
/// at once.
type Awaiting = (&'static str, [&'static str; 2], usize);

/// The archive of past work (the chronicle of the strength experiments, the figures taken out of
/// the module docs): kept as it was written, numbered work items of its time included, and quoted
/// by no other document. The numbered-item check does not read it; links and rule citations in it
/// are checked like any other.
const ARCHIVE: &str = "docs/archive/";

/// Citations of the rules file beside the repository that their owner has still to point at
/// docs/rules.md: none now (protocol/PROTOCOL.md explains the rules a GUI needs itself).
const CITATIONS_AWAITING_OWNER: [Awaiting; 0] = [];

/// `found` (lines `<file>:<line>: ... '<what>' ...`) without the entries of `awaiting` that still
/// stand exactly, and one line for each entry that no longer does.
fn awaiting_owner(found: Vec<String>, awaiting: &[Awaiting]) -> Vec<String> {
    let mut left = found;
    let mut stale = Vec::new();
    for &(file, pieces, count) in awaiting {
        let what = format!("'{}'", pieces.concat());
        let is_entry = |line: &String| line.starts_with(&format!("{file}:")) && line.contains(&what);
        let n = left.iter().filter(|l| is_entry(l)).count();
        if n == count {
            left.retain(|l| !is_entry(l));
        } else if n < count {
            stale.push(format!(
                "{file}: {what} stands on {n} line(s), not {count}: lower or remove its entry of the list awaiting the owner"
            ));
        }
    }
    left.extend(stale);
    left
}

#[test]
fn no_file_names_a_numbered_work_item() {
    let texts: Vec<(String, String)> =
        repository_texts().into_iter().filter(|(file, _)| !file.starts_with(ARCHIVE)).collect();
    let found = work_item_lines(&texts);
    assert!(found.is_empty(), "{} numbered work item(s):\n{}", found.len(), found.join("\n"));
}

#[test]
fn work_items_are_found_and_colours_derives_headings_and_anchors_are_not() {
    // Built from pieces, so that this file does not name them itself.
    let item = |word: &str, number: &str| format!("{word}{number}");
    let named = [
        (item("see issue ", "13"), vec![item("issue ", "13")]),
        (item("(Issue ", "28, js/review.js)"), vec![item("Issue ", "28")]),
        (item("the main of task #", "12"), vec![item("task #", "12")]),
        (item("on fresh draws (seed 3018, stop ", "41)"), vec![item("stop ", "41")]),
        (item("fixed in #", "27."), vec![item("#", "27")]),
        (item("(#", "5)"), vec![item("#", "5")]),
        (item("PR ", "7 and pull request ") + "9", vec![item("PR ", "7"), item("pull request ", "9")]),
        (item("a work item ", "3"), vec![item("work item ", "3")]),
        (item("issue#", "44: the 12345-line file"), vec![item("issue#", "44")]),
        (item("old #", "12345"), vec![item("#", "12345")]),
    ];
    for (line, expected) in named {
        assert_eq!(work_items(&line), expected, "{line}");
    }
    let legitimate = [
        "fill=\"#333\" stroke=\"#dddddd\"; .zero { stroke: #555; } color: #1234; #11223344",
        "#[derive(Debug, Clone)] #![allow(dead_code)] r##\"<text fill=\"#333\">\"##",
        "## 2. The classic game",
        "### 2.3.3 Double cells",
        "# 1 a comment line of a shell script",
        r##"[2.9](#2.9) and [rules 6.1](../docs/rules.md#6.1) and <a href="#12">twelve</a> and #6.1"##,
        "&#13;&#8203; {:#04x} {:#?} a#1 x/#1",
        "the stop flag stops 3 jobs; stop_after 5; nonstop 4; tissue 3; PR-free prose; prompt 2",
        "seat 1, step 3, turn 12, item 4 of the list, rule 2.3.3, bug-free, stopped 3 times",
        "a move (#a2b3c4) and `legal #` and the issue of 12 rows",
    ];
    for line in legitimate {
        assert_eq!(work_items(line), Vec::<String>::new(), "{line}");
    }
    let texts = vec![("src/x.rs".to_string(), item("// fine\n// what the main of issue ", "13 did\n"))];
    assert_eq!(
        work_item_lines(&texts),
        [item(
            "src/x.rs:2: names the work item 'issue ",
            "13', which no reader can look up: say what the code does and why instead"
        )]
    );
}

/// The team's rules file and notes folder beside the repository, which the repository must not
/// cite (in pieces, so that this file does not cite them either).
const OUTSIDE: [[&str; 2]; 2] = [["RULES", ".md"], ["../", "shared/"]];

/// The section numbers docs/rules.md has: the ids of its numbered anchors and headings.
fn rules_sections() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join("rules.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    heading_ids(&text)
}

/// One line per citation in `texts` that does not resolve: a file outside the repository
/// ([`OUTSIDE`]), or `rules.md` followed by a section (` 2.3`, ` section 5`, `#6.1`)
/// that `sections` does not hold.
fn broken_rule_citations(texts: &[(String, String)], sections: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in texts {
        for (index, line) in text.lines().enumerate() {
            let at = |why: String| format!("{file}:{}: {why}", index + 1);
            for outside in OUTSIDE.map(|pieces| pieces.concat()) {
                if line.contains(&outside) {
                    out.push(at(format!(
                        "cites '{outside}', which is not in the repository: cite docs/rules.md and its section"
                    )));
                }
            }
            for (pos, _) in line.match_indices("rules.md") {
                let section = cited_section(&line[pos + "rules.md".len()..]);
                if let Some(section) = section {
                    if !sections.contains(&section.to_lowercase()) {
                        out.push(at(format!(
                            "cites rules.md section '{section}', which docs/rules.md does not have"
                        )));
                    }
                }
            }
        }
    }
    out
}

/// The section that the text after a `rules.md` names: `#<anchor>`, or ` <number>`, ` section
/// <number>` or ` sections <number>` (the first of a list; a full stop after it is the
/// sentence's). `None` when it names none.
fn cited_section(rest: &str) -> Option<&str> {
    if let Some(anchor) = rest.strip_prefix('#') {
        let end = anchor.find(|c: char| !(c.is_alphanumeric() || ".-_".contains(c))).unwrap_or(anchor.len());
        return Some(anchor[..end].trim_end_matches('.')).filter(|a| !a.is_empty());
    }
    let words = rest.strip_prefix(' ')?.trim_start_matches(' ');
    let words = ["sections ", "section "].iter().find_map(|w| words.strip_prefix(w)).unwrap_or(words);
    let end = words.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(words.len());
    let number = words[..end].trim_end_matches('.');
    number.starts_with(|c: char| c.is_ascii_digit()).then_some(number)
}

#[test]
fn every_citation_of_the_rules_names_a_section_of_docs_rules_md() {
    let broken = awaiting_owner(
        broken_rule_citations(&repository_texts(), &rules_sections()),
        &CITATIONS_AWAITING_OWNER,
    );
    assert!(broken.is_empty(), "{} broken citation(s):\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn rule_citations_outside_the_repository_or_to_missing_sections_are_reported() {
    let sections: BTreeSet<String> = ["2", "2.3", "2.3.3", "6.1"].into_iter().map(String::from).collect();
    let [rules, shared] = OUTSIDE.map(|pieces| pieces.concat());
    let missing = ["9", ".9"].concat();
    let text = format!(
        "// docs/rules.md 2.3.3 and rules.md section 2.3, rules.md#6.1, docs/rules.md 2.\n\
         // docs/rules.md {missing} is not there, nor [x](rules.md#{missing}-a)\n\
         // the reference in {rules} 2.1, beside the repository ({shared})\n\
         // rules.md alone, and docs/rules.md's own words\n"
    );
    let broken = broken_rule_citations(&[("src/x.rs".to_string(), text)], &sections);
    let outside = |name: &str| {
        format!(
            "src/x.rs:3: cites '{name}', which is not in the repository: cite docs/rules.md and its section"
        )
    };
    assert_eq!(
        broken,
        [
            format!("src/x.rs:2: cites rules.md section '{missing}', which docs/rules.md does not have"),
            format!("src/x.rs:2: cites rules.md section '{missing}-a', which docs/rules.md does not have"),
            outside(&rules),
            outside(&shared),
        ]
    );
}

#[test]
fn an_entry_awaiting_its_owner_passes_only_while_it_stands_exactly() {
    let awaiting: [Awaiting; 1] = [("doc.md", ["it", "em"], 2)];
    let line = |file: &str, n: usize, what: &str| format!("{file}:{n}: names '{what}'");
    let two = vec![line("doc.md", 1, "item"), line("doc.md", 9, "item"), line("other.md", 3, "item")];
    assert_eq!(awaiting_owner(two, &awaiting), [line("other.md", 3, "item")]);
    let three = vec![line("doc.md", 1, "item"), line("doc.md", 2, "item"), line("doc.md", 3, "item")];
    assert_eq!(awaiting_owner(three.clone(), &awaiting), three);
    let one = awaiting_owner(vec![line("doc.md", 1, "item")], &awaiting);
    assert_eq!(one.len(), 2, "{one:?}");
    assert!(one[1].contains("stands on 1 line(s), not 2"), "{}", one[1]);
}
