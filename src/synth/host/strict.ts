// How a host compiles tool code, which the parent needs to report positions in the author's code.

/**
 * Tool code is compiled in strict mode (undeclared assignments throw, `this` is undefined). The directive
 * is put on the first line so that line numbers stay those of the author's code; columns on line 1 are
 * shifted back by its length.
 */
export const STRICT_PREFIX = '"use strict"; ';

/** A column V8 reported in the compiled text → the column in the author's code. */
export function authorColumn(line: number, column: number): number {
  return line === 1 ? Math.max(1, column - STRICT_PREFIX.length) : column;
}
