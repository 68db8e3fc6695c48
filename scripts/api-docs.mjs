// Writes the API reference of the package's Node entry (host/node.ts, `import … from 'krieg'`) to
// docs/api/: Markdown that reads on GitHub, one page per part of the host (the folder an export is
// declared in) and an index, made from the types and doc comments by TypeDoc's converter. docs/api/
// is committed; `--check` writes nothing and fails when it is stale (test/apiDocs.test.ts runs it).
// Usage: node scripts/api-docs.mjs [--check]      (npm run docs:api)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as td from 'typedoc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'docs/api');
const check = process.argv.includes('--check');
const { ReflectionKind: Kind } = td;

/** The page of each folder of host/ (an export declared in host/x.ts goes to the engine page). */
const PAGES = [
  ['engine', 'Engine and errors', 'the engine on either backend, its errors, and the library-level `solve`'],
  [
    'record',
    'Records, views and rule sets',
    'games as the referee records them, what each side heard, the rule presets',
  ],
  ['notation', 'Notation', 'FEN, UCI and SAN, KPGN and JSON records'],
  ['referee', 'Referee', 'the game session, validating and replaying records, own boards, seeded random games'],
  ['io', 'Files', 'reading games files'],
  ['pool', 'Worker pool', 'worker threads for the parallel estimators and matches'],
  ['belief', 'Belief', 'state estimation, information sets, heatmaps, and the belief tracker'],
  ['solver', 'Solver', 'guaranteed-checkmate search, `auto`, problems and strategies'],
  ['sources', 'Problem sources', 'problems from files and the database'],
  ['verify', 'Verifier', "the independent check of a strategy (chessops' rules)"],
  ['players', 'Players', 'the players, one game between two, matches and their statistics'],
  ['db', 'Problem database', 'the SQLite problem database: reading, generating, classifying, exporting'],
  ['online', 'Online', 'krieg as a bot on Kriegspiel.org: the site state as a view, the client, the bot'],
];
const PAGE_OF_FOLDER = { backends: 'engine', core: 'belief' }; // core/: TRACKER_RECORDS

const KIND_NAME = {
  [Kind.Function]: 'function',
  [Kind.Class]: 'class',
  [Kind.Interface]: 'interface',
  [Kind.TypeAlias]: 'type',
  [Kind.Variable]: 'const',
  [Kind.Enum]: 'enum',
  [Kind.Namespace]: 'namespace',
};

/** A comment's text as Markdown: {@link X} as `X`. */
function text(parts) {
  return (parts ?? [])
    .map((p) => (p.kind === 'inline-tag' ? `\`${p.text}\`` : p.text))
    .join('')
    .trim();
}

function commentText(comment) {
  if (!comment) return '';
  const blocks = (comment.blockTags ?? []).map((tag) => `**${tag.tag}** ${text(tag.content)}`);
  return [text(comment.summary), ...blocks].filter(Boolean).join('\n\n');
}

/** The first sentence of a comment, on one line (the index's tables). */
function summaryOf(reflection) {
  const comment = reflection.comment ?? reflection.signatures?.[0]?.comment;
  const first = text(comment?.summary)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');
  // the first sentence (a full stop before a space, not of "e.g." or "i.e."), at most 160 characters
  const end = first.search(/(?<!\b(e\.g|i\.e|etc))\.(\s|$)/);
  const sentence = end > 0 ? first.slice(0, end + 1) : first;
  return sentence.length > 160 ? `${sentence.slice(0, 159).replace(/\s+\S*$/, '')} …` : sentence;
}

const MAX_TYPE = 240;
const typeText = (type) => {
  const t = type?.toString() ?? 'unknown';
  return t.length > MAX_TYPE ? `${t.slice(0, MAX_TYPE)} …` : t;
};

function parameters(signature) {
  return (signature.parameters ?? [])
    .map((p) => {
      const rest = p.flags.isRest ? '...' : '';
      const optional = p.flags.isOptional || p.defaultValue !== undefined ? '?' : '';
      return `${rest}${p.name}${optional}: ${typeText(p.type)}`;
    })
    .join(', ');
}

const typeParameters = (r) => (r.typeParameters?.length ? `<${r.typeParameters.map((t) => t.name).join(', ')}>` : '');

function signatureLine(name, signature, prefix = '') {
  return `${prefix}${name}${typeParameters(signature)}(${parameters(signature)}): ${typeText(signature.type)}`;
}

/** The members of a class or an interface: a code line each, with its comment. */
function members(reflection) {
  const lines = [];
  for (const child of reflection.children ?? []) {
    if (child.flags.isPrivate || child.flags.isProtected || child.name.startsWith('_')) continue;
    const statik = child.flags.isStatic ? 'static ' : '';
    const readonly = child.flags.isReadonly ? 'readonly ' : '';
    const entries = [];
    if (child.kind === Kind.Constructor) {
      for (const s of child.signatures ?? []) entries.push([signatureLine('new ' + reflection.name, s), s.comment]);
    } else if (child.signatures) {
      for (const s of child.signatures) entries.push([signatureLine(child.name, s, statik), s.comment]);
    } else if (child.kind === Kind.Accessor) {
      const get = child.getSignature;
      entries.push([`${statik}get ${child.name}(): ${typeText(get?.type)}`, get?.comment ?? child.comment]);
    } else {
      const optional = child.flags.isOptional ? '?' : '';
      entries.push([`${statik}${readonly}${child.name}${optional}: ${typeText(child.type)}`, child.comment]);
    }
    for (const [code, comment] of entries) {
      const about = commentText(comment)
        .replace(/\n\n/g, ' ')
        .replace(/\s*\n\s*/g, ' ');
      lines.push(`- \`${code.replace(/`/g, "'")}\`${about ? ` — ${about}` : ''}`);
    }
  }
  return lines;
}

/** One export as a section of its page. */
function section(reflection, file) {
  const kind = KIND_NAME[reflection.kind] ?? Kind[reflection.kind].toLowerCase();
  const out = [`## ${reflection.name}`, '', `*${kind}* · \`${file}\``, ''];
  const code = [];
  let about = commentText(reflection.comment);
  if (reflection.signatures) {
    for (const s of reflection.signatures) code.push(signatureLine(reflection.name, s, 'function '));
    about = [about, ...reflection.signatures.map((s) => commentText(s.comment))].filter(Boolean).join('\n\n');
  } else if (reflection.kind === Kind.TypeAlias) {
    code.push(`type ${reflection.name}${typeParameters(reflection)} = ${typeText(reflection.type)}`);
  } else if (reflection.kind === Kind.Variable) {
    code.push(`const ${reflection.name}: ${typeText(reflection.type)}`);
  } else if (reflection.kind === Kind.Class || reflection.kind === Kind.Interface) {
    const base = reflection.extendedTypes?.length
      ? ` extends ${reflection.extendedTypes.map(typeText).join(', ')}`
      : '';
    code.push(`${kind} ${reflection.name}${typeParameters(reflection)}${base}`);
  }
  if (code.length) out.push('```ts', ...code, '```', '');
  if (about) out.push(about, '');
  const list = members(reflection);
  if (list.length) out.push(...list, '');
  return out.join('\n');
}

const HEADER = (title) =>
  [
    `# ${title}`,
    '',
    '<!-- GENERATED by scripts/api-docs.mjs (npm run docs:api) from host/node.ts and the doc comments: do not edit -->',
    '',
  ].join('\n');

async function generate() {
  const app = await td.Application.bootstrap({
    entryPoints: [join(root, 'host/node.ts')],
    tsconfig: join(root, 'tsconfig.types.json'),
    excludePrivate: true,
    excludeProtected: true,
    excludeInternal: true,
    skipErrorChecking: true,
    disableSources: false,
    readme: 'none',
    logLevel: 'Error',
  });
  const project = await app.convert();
  if (!project) throw new Error('api-docs: TypeDoc could not convert host/node.ts');
  const byPage = new Map(PAGES.map(([page]) => [page, []]));
  for (const reflection of project.children ?? []) {
    const source = reflection.sources?.[0] ?? reflection.signatures?.[0]?.sources?.[0];
    const file = source ? relative(root, source.fullFileName) : 'host/node.ts';
    const parts = file.split('/');
    const folder = parts.length > 2 ? parts[1] : 'engine';
    const page = PAGE_OF_FOLDER[folder] ?? folder;
    if (!byPage.has(page)) throw new Error(`api-docs: ${reflection.name} (${file}) has no page: add ${page} to PAGES`);
    byPage.get(page).push([reflection, file]);
  }
  const files = new Map();
  const index = [
    HEADER('krieg API reference'),
    "Every export of the package's Node entry (`import … from 'krieg'`, `host/node.ts`), with its type and",
    'doc comment; the browser entry (`krieg/browser`, `host/web/main.ts`) exports a part of it. Generated by',
    '`npm run docs:api` (`scripts/api-docs.mjs`, TypeDoc) and committed; `test/apiDocs.test.ts` fails while',
    'it is stale. README "Library" has an example.',
    '',
  ];
  for (const [page, title, about] of PAGES) {
    const entries = byPage.get(page).sort((a, b) => a[0].name.localeCompare(b[0].name, 'en'));
    if (!entries.length) continue;
    files.set(
      `${page}.md`,
      [HEADER(title), `${about[0].toUpperCase()}${about.slice(1)}.`, '', ...entries.map(([r, f]) => section(r, f))]
        .join('\n')
        .replace(/\n+$/, '\n'),
    );
    index.push(`## [${title}](${page}.md)`, '', `${about[0].toUpperCase()}${about.slice(1)}.`, '');
    index.push('| export | kind | |', '|---|---|---|');
    for (const [r] of entries)
      index.push(`| [${r.name}](${page}.md#${r.name.toLowerCase()}) | ${KIND_NAME[r.kind] ?? ''} | ${summaryOf(r)} |`);
    index.push('');
  }
  files.set('README.md', index.join('\n').replace(/\n+$/, '\n'));
  return files;
}

const files = await generate();
if (check) {
  const present = existsSync(OUT) ? readdirSync(OUT).filter((f) => f.endsWith('.md')) : [];
  const stale = [
    ...[...files].filter(([name, body]) => !present.includes(name) || readFileSync(join(OUT, name), 'utf8') !== body),
    ...present.filter((name) => !files.has(name)).map((name) => [name]),
  ].map(([name]) => `docs/api/${name}`);
  if (stale.length) {
    console.error(`api-docs: stale: ${stale.join(', ')} (run npm run docs:api and commit docs/api/)`);
    process.exit(1);
  }
  console.log(`api-docs: docs/api/ is up to date (${files.size} pages)`);
} else {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [name, body] of files) writeFileSync(join(OUT, name), body);
  console.log(`api-docs: wrote ${files.size} pages to docs/api/`);
}
