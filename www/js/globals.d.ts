// Globals of the page, for the type check (tsconfig.json): what Trunk's loader and the
// inline script of index.html set, and the handle boot.js leaves for the console and
// the end-to-end tests.
import type * as Wasm from '../retrystorm-web.js';
import type { ClassicApp } from './classic/app.js';
import type { ClusterApp } from './cluster/app.js';
import type { Shell } from './shell.js';

declare global {
  interface Window {
    /** The wasm-bindgen exports, set by Trunk's loader. */
    wasmBindings: typeof Wasm;
    /** A failure to load the wasm, kept by index.html's inline script for boot.js. */
    __bootError?: unknown;
    /** The page, for the console and the end-to-end tests. */
    playground: { shell: Shell; classic: ClassicApp; cluster: ClusterApp };
  }
}
