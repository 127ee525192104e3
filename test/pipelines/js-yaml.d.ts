/**
 * js-yaml comes with jest (istanbul's configuration loader reads YAML); the tests that read the
 * pipeline files use its safe loader, typed here as far as they call it.
 */
declare module 'js-yaml' {
  /** Every document of a YAML stream, with YAML's core types only. */
  export function safeLoadAll(text: string): unknown[];
}
