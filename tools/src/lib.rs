//! Tools around the zatre engine.
