// The C2PA reader's WebAssembly file name, versioned with the package (see app/c2pa/[file]).
import pkg from "@contentauth/c2pa-web/package.json";

export const C2PA_WASM_FILE = `c2pa-${pkg.version}.wasm`;
