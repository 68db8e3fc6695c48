// The JS backend: the same assembly/ sources run as plain JavaScript (see portableCore.ts).
import * as core from './portableCore';
import type { Core, CoreExports } from '../abi';

let owner = 0; // the token of the newest JS engine: the module's state is its

export function createJsCore(): Core {
  return {
    name: 'js',
    exports: core as unknown as CoreExports,
    view: (ref) => ref as Int32Array,
    claim: () => ++owner,
    owns: (token) => token === owner,
  };
}
