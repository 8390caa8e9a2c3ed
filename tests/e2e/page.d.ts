// What the tests reach in the page through page.evaluate (www/js/globals.d.ts types it
// for the page itself; here it stays loose, so the tests do not pull in the page's code).
declare global {
  interface Window {
    /** The wasm-bindgen exports. */
    // biome-ignore lint/suspicious/noExplicitAny: loose on purpose, see the comment above
    wasmBindings: any;
    /** The page's shell and apps. */
    // biome-ignore lint/suspicious/noExplicitAny: loose on purpose, see the comment above
    playground: any;
    /** Set by a script a test tries to inject; must stay unset. */
    __xss?: unknown;
  }
}

export {};
