//! The page's files, embedded in the binary at compile time (no build step, nothing fetched).

/// One file of the page.
pub struct Asset {
    /// Its path under `tools/web`.
    pub file: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file, by its URL path.
const FILES: &[(&str, Asset)] = &[
    (
        "/",
        Asset {
            file: "index.html",
            content_type: "text/html; charset=utf-8",
            body: include_bytes!("../../web/index.html"),
        },
    ),
    (
        "/style.css",
        Asset {
            file: "style.css",
            content_type: "text/css; charset=utf-8",
            body: include_bytes!("../../web/style.css"),
        },
    ),
    (
        "/js/protocol.js",
        Asset { file: "js/protocol.js", content_type: JS, body: include_bytes!("../../web/js/protocol.js") },
    ),
    (
        "/js/parse.js",
        Asset { file: "js/parse.js", content_type: JS, body: include_bytes!("../../web/js/parse.js") },
    ),
    (
        "/js/board.js",
        Asset { file: "js/board.js", content_type: JS, body: include_bytes!("../../web/js/board.js") },
    ),
    (
        "/js/sheets.js",
        Asset { file: "js/sheets.js", content_type: JS, body: include_bytes!("../../web/js/sheets.js") },
    ),
    (
        "/js/dialog.js",
        Asset { file: "js/dialog.js", content_type: JS, body: include_bytes!("../../web/js/dialog.js") },
    ),
    (
        "/js/review.js",
        Asset { file: "js/review.js", content_type: JS, body: include_bytes!("../../web/js/review.js") },
    ),
    (
        "/js/app.js",
        Asset { file: "js/app.js", content_type: JS, body: include_bytes!("../../web/js/app.js") },
    ),
    (
        "/js/state.js",
        Asset { file: "js/state.js", content_type: JS, body: include_bytes!("../../web/js/state.js") },
    ),
    (
        "/js/view.js",
        Asset { file: "js/view.js", content_type: JS, body: include_bytes!("../../web/js/view.js") },
    ),
    (
        "/js/announce.js",
        Asset { file: "js/announce.js", content_type: JS, body: include_bytes!("../../web/js/announce.js") },
    ),
    (
        "/js/errors.js",
        Asset { file: "js/errors.js", content_type: JS, body: include_bytes!("../../web/js/errors.js") },
    ),
    (
        "/js/focus.js",
        Asset { file: "js/focus.js", content_type: JS, body: include_bytes!("../../web/js/focus.js") },
    ),
    (
        "/js/dialogs.js",
        Asset { file: "js/dialogs.js", content_type: JS, body: include_bytes!("../../web/js/dialogs.js") },
    ),
    (
        "/js/zoom.js",
        Asset { file: "js/zoom.js", content_type: JS, body: include_bytes!("../../web/js/zoom.js") },
    ),
    (
        "/js/connection.js",
        Asset {
            file: "js/connection.js",
            content_type: JS,
            body: include_bytes!("../../web/js/connection.js"),
        },
    ),
    (
        "/js/turn.js",
        Asset { file: "js/turn.js", content_type: JS, body: include_bytes!("../../web/js/turn.js") },
    ),
    (
        "/js/seats.js",
        Asset { file: "js/seats.js", content_type: JS, body: include_bytes!("../../web/js/seats.js") },
    ),
    (
        "/js/table.js",
        Asset { file: "js/table.js", content_type: JS, body: include_bytes!("../../web/js/table.js") },
    ),
    (
        "/js/saved.js",
        Asset { file: "js/saved.js", content_type: JS, body: include_bytes!("../../web/js/saved.js") },
    ),
    (
        "/js/i18n.js",
        Asset { file: "js/i18n.js", content_type: JS, body: include_bytes!("../../web/js/i18n.js") },
    ),
    (
        "/js/words.js",
        Asset { file: "js/words.js", content_type: JS, body: include_bytes!("../../web/js/words.js") },
    ),
    (
        "/i18n/en.js",
        Asset { file: "i18n/en.js", content_type: JS, body: include_bytes!("../../web/i18n/en.js") },
    ),
    (
        "/i18n/de.js",
        Asset { file: "i18n/de.js", content_type: JS, body: include_bytes!("../../web/i18n/de.js") },
    ),
    (
        "/i18n/cs.js",
        Asset { file: "i18n/cs.js", content_type: JS, body: include_bytes!("../../web/i18n/cs.js") },
    ),
    (
        "/i18n/hu.js",
        Asset { file: "i18n/hu.js", content_type: JS, body: include_bytes!("../../web/i18n/hu.js") },
    ),
    (
        "/favicon.ico",
        Asset {
            file: "favicon.svg",
            content_type: "image/svg+xml",
            body: include_bytes!("../../web/favicon.svg"),
        },
    ),
];

/// The file served at `path`, if any (`/index.html` is `/`): its path under `tools/web` and
/// its embedded copy.
pub fn find(path: &str) -> Option<(&'static str, &'static Asset)> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES.iter().find(|(p, _)| *p == path).map(|(_, a)| (a.file, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every script of the page's folders is served: one left out of [`FILES`] would load in no
    /// browser, and show only as a failed import.
    #[test]
    fn every_script_of_the_page_is_served() {
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut checked = 0;
        for folder in ["js", "i18n"] {
            for entry in std::fs::read_dir(web.join(folder)).expect("the page's folder") {
                let name =
                    entry.expect("a file of the folder").file_name().into_string().expect("a UTF-8 name");
                if !name.ends_with(".js") {
                    continue;
                }
                let path = format!("/{folder}/{name}");
                let (file, asset) = find(&path).unwrap_or_else(|| panic!("{path} is not served"));
                assert_eq!(file, &path[1..], "{path} is served from another file");
                assert_eq!(asset.content_type, JS);
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} scripts found under {}", web.display());
    }
}
