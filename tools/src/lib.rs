//! Tools around the zatre engine.

pub mod naive;
pub mod referee;
pub mod web;
