// Globals of the page, for the type check (../tsconfig.json): what Trunk's loader and the
// inline script of index.html set, and the handle boot.js leaves for the console and the
// end-to-end tests. Outside js/, so the site does not ship it.

import type { ClassicApp } from '../js/classic/app.js';
import type { ClusterApp } from '../js/cluster/app.js';
import type { Shell } from '../js/shell.js';
import type * as Wasm from '../retrystorm-web.js';

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
