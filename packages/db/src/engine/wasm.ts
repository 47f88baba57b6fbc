import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Glue = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

export type SchemaEngine = import('@prisma/schema-engine-wasm/schema_engine_bg').SchemaEngine;

// The project's TS libs (ES2023, @types/node 20) do not declare the WebAssembly global.
type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
};
const { WebAssembly } = globalThis as unknown as { WebAssembly: WasmApi };

let loading: Promise<Glue> | undefined;

/**
 * Loads @prisma/schema-engine-wasm once per process without `--experimental-wasm-modules`: the
 * package's entry imports the .wasm as an ES module, which Node 20 cannot do. We compile the file
 * ourselves and hand the instance to the wasm-bindgen glue, exactly what that entry would do.
 */
export const loadSchemaEngineWasm = (): Promise<Glue> => {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package exports only the glue, not the .wasm: locate the .wasm next to it.
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    const module = new WebAssembly.Module(bytes);
    const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': withUnrefTimers(glue) });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return glue;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
};

/**
 * The engine arms a 60 s timer per operation (a timeout it never clears). Left as is, it keeps a
 * finished process (a test worker, a one-shot script) alive for a minute. Unref'd, it still fires
 * while anything else keeps the process running, which is all a timeout needs.
 */
const withUnrefTimers = (glue: Glue): Record<string, unknown> => {
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(imports)) {
    if (!name.startsWith('__wbg_setTimeout_')) continue;
    imports[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(callback, ms >>> 0);
      if (ms >= 10_000) timer.unref();
      return timer;
    };
  }
  return imports;
};
