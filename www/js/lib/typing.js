// How long the page waits after the last keystroke before it runs: long enough that a
// number typed at an ordinary pace ("999") runs once, whole, never as its first digits.
// Enter, a blur or any other commit runs at once.

/** The pause in typing after which an edit runs, ms. */
export const TYPING_PAUSE_MS = 500;
