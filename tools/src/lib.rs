//! Tools around the zatre engine.

pub mod analyse;
pub mod naive;
pub mod referee;
pub mod web;
