//! Tools around the zatre engine.

pub mod analyse;
pub mod ceiling;
pub mod conformance;
pub mod figures;
pub mod fit;
pub mod jobs;
pub mod learn;
pub mod naive;
pub mod process_group;
pub mod progress;
pub mod referee;
pub mod rule_list;
pub mod web;
