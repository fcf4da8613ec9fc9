/// The build's list of which wasm module exports which function (scripts/ writes it beside them).
declare module 'kernel-lens-wasm/kernel_lens_modules.json' {
  const manifest: { core: string[]; lab: string[] };
  export default manifest;
}

/// The core worker's script, a chunk of the site's build (web/vite.config.ts).
declare module 'virtual:kernel-lens-worker-url' {
  const url: string;
  export default url;
}
