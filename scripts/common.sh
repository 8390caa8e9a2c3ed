# Shared by the scripts: paths, pinned tool versions and PATH. Sourced, not run.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_BINDGEN_VERSION=0.2.129   # must equal the wasm-bindgen crate pin in www/Cargo.toml
TRUNK_VERSION=0.21.14          # 0.22 needs a newer rustc than this project's toolchain
E2E_DIR="$ROOT/tests/e2e"
# wasm-opt v132 comes from npm's binaryen and must shadow any older system wasm-opt.
export PATH="$E2E_DIR/node_modules/.bin:$HOME/.cargo/bin:$PATH"

log() { printf '\n==> %s\n' "$*"; }
