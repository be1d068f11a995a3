//! The page's files, embedded in the binary at compile time (no build step, nothing fetched).

/// One file of the page.
pub struct Asset {
    pub content_type: &'static str,
    pub body: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file, by its URL path.
const FILES: &[(&str, Asset)] = &[
    (
        "/",
        Asset { content_type: "text/html; charset=utf-8", body: include_bytes!("../../web/index.html") },
    ),
    (
        "/style.css",
        Asset { content_type: "text/css; charset=utf-8", body: include_bytes!("../../web/style.css") },
    ),
    ("/js/protocol.js", Asset { content_type: JS, body: include_bytes!("../../web/js/protocol.js") }),
    ("/js/parse.js", Asset { content_type: JS, body: include_bytes!("../../web/js/parse.js") }),
    ("/js/board.js", Asset { content_type: JS, body: include_bytes!("../../web/js/board.js") }),
    ("/js/sheets.js", Asset { content_type: JS, body: include_bytes!("../../web/js/sheets.js") }),
    ("/js/dialog.js", Asset { content_type: JS, body: include_bytes!("../../web/js/dialog.js") }),
    ("/js/app.js", Asset { content_type: JS, body: include_bytes!("../../web/js/app.js") }),
    ("/favicon.ico", Asset { content_type: "image/svg+xml", body: include_bytes!("../../web/favicon.svg") }),
];

/// The file served at `path`, if any (`/index.html` is `/`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES.iter().find(|(p, _)| *p == path).map(|(_, a)| a)
}
