// esbuild's `binary` loader (scripts/build.mjs, web step) turns `import x from '….wasm'` into the
// file's bytes.
declare module '*.wasm' {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
