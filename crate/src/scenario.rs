//! Scenario dispatch (in progress).
