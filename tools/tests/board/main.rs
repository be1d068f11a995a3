//! The board `zatre-web`: its WebSocket bridge, behind nginx, and the page in headless Chromium
//! (play and review). One test binary for the purpose. The tests that need a browser, nginx or
//! axe-core say `SKIPPED: <reason>` when it is missing, and fail instead under `CI=true`.

#[path = "../support/bridge_process.rs"]
mod bridge_process;
#[path = "../support/engine_path.rs"]
mod engine_path;
#[path = "../support/prerequisites.rs"]
mod prerequisites;
#[path = "../support/webdriver.rs"]
mod webdriver;

mod browser;
mod nginx;
mod review_browser;
mod rooms;
mod table_browser;
mod web_bridge;
