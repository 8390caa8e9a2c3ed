//! The classic model (in progress).
