//! The event-driven cluster model (work in progress).
