//! Java-style decimal formatting (in progress).
