//! wasm glue (in progress).
