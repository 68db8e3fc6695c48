// The settings of bench/figures.ts, from its command line (bench/lib/args.ts; the header of
// bench/figures.ts lists the options).
import { join } from 'node:path';
import { repoRoot } from '../lib/harness';
import { databaseArgs, integerOption, option, quick } from '../lib/args';

export const LIMIT_MS = integerOption('--limit-ms', quick ? 300 : 3000);
export const LONG_LIMIT_MS = integerOption('--long-limit-ms', quick ? 1000 : 20_000);
export const PER_CLASS = integerOption('--per-class', quick ? 3 : 100);
/** The plies measured (the paper's figure: 3 and 5; the 7-ply extension with --plies 3,5,7). */
export const PLIES = (option('--plies') ?? '3,5').split(',').map(Number);
/** Instances per database, ply and class measured on both backends. */
export const BACKEND_PER_CLASS = quick ? 1 : 5;
export const MEMORY_MIB = 1024;

export const root = repoRoot();
export const outDir = join(root, 'bench/results/figures');
export const databases = databaseArgs(root);
export const suffix = quick ? '-quick' : '';
