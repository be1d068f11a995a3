//! The page's files, embedded in the binary at compile time (no build step, nothing fetched).

/// One file of the page.
pub struct Asset {
    /// Its path under `tools/web`.
    pub file: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// A script of the page, served at `/<path>` from `tools/web/<path>`.
macro_rules! script {
    ($path:literal) => {
        (
            concat!("/", $path),
            Asset { file: $path, content_type: JS, body: include_bytes!(concat!("../../web/", $path)) },
        )
    };
}

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
    script!("js/protocol.js"),
    script!("js/parse.js"),
    script!("js/board.js"),
    script!("js/sheets.js"),
    script!("js/dialog.js"),
    script!("js/review.js"),
    script!("js/app.js"),
    script!("js/state.js"),
    script!("js/view.js"),
    script!("js/announce.js"),
    script!("js/errors.js"),
    script!("js/focus.js"),
    script!("js/dialogs.js"),
    script!("js/zoom.js"),
    script!("js/connection.js"),
    script!("js/turn.js"),
    script!("js/seats.js"),
    script!("js/table.js"),
    script!("js/saved.js"),
    script!("js/download.js"),
    script!("js/i18n.js"),
    script!("js/words.js"),
    script!("i18n/en.js"),
    script!("i18n/de.js"),
    script!("i18n/cs.js"),
    script!("i18n/hu.js"),
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
