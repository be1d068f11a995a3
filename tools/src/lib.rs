//! Tools around the zatre engine.
pub mod referee;
