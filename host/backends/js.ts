// The JS backend: the same assembly/ sources run as plain JavaScript (see portableCore.ts).
import * as core from './portableCore';
import type { Core, CoreExports } from '../abi';

export function createJsCore(): Core {
  return {
    name: 'js',
    exports: core as unknown as CoreExports,
    view: (ref) => ref as Int32Array,
  };
}
