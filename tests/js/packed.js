// packed.js: the published package as a user gets it (not a test file itself). `npm pack` of the
// working tree into a temporary folder, then `npm install --offline` of that tarball into an empty
// project beside it (the package has no runtime dependencies, so nothing is fetched). With
// ATTNLAB_TARBALL=/path/attnlab-x.y.z.tgz in the environment (`make release`), that tarball is
// installed instead of a fresh pack, so the tests run on the very file a maintainer publishes.
//
//   const pkg = packAndInstall({ type: 'module' });   // synchronous: npm pack, npm install
//   pkg.files      // paths in the tarball, sorted
//   pkg.app        // the project folder: pkg.app/node_modules/attnlab is the installed package
//   pkg.run('main.mjs')   // node main.mjs in the project → stdout (throws with stderr on failure)
//   pkg.remove()
//   readmeBlocks()        // Map: 'quickstart.mjs' -> the code block under <!-- npm-test: quickstart.mjs -->
//                         // (in README.md or a docs/*.md page)

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docPages } from '../../scripts/figures.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
  });

/**
 * Pack the repository and install the tarball into an empty project whose package.json has
 * `type` (omitted when undefined: Node's default, CommonJS for .js files).
 * @param {{ type?: 'module' | 'commonjs' }} [options]
 */
export function packAndInstall({ type } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'attnlab-pack-'));
  try {
    const given = process.env.ATTNLAB_TARBALL;
    const [packed] = given
      ? [describeTarball(given)]
      : JSON.parse(npm(['pack', '--json', '--pack-destination', dir], ROOT));
    const tarball = given ? resolve(given) : join(dir, packed.filename);
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, ...(type ? { type } : {}) }),
    );
    npm(['install', '--offline', tarball], app);
    return {
      dir,
      app,
      packed,
      tarball,
      files: packed.files.map((f) => f.path).sort(),
      installed: join(app, 'node_modules', 'attnlab'),
      run(file) {
        try {
          return execFileSync(process.execPath, [file], {
            cwd: app,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch (err) {
          throw new Error(
            `node ${file} in the installed project failed:\n${err.stderr || err.message}`,
          );
        }
      },
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** What `npm pack --json` says of a tarball it made, read from an existing one (its name, version, files). */
function describeTarball(file) {
  const tar = (...args) => execFileSync('tar', args, { encoding: 'utf8' });
  const manifest = JSON.parse(tar('-xzOf', resolve(file), 'package/package.json'));
  return {
    filename: basename(file),
    name: manifest.name,
    version: manifest.version,
    files: tar('-tzf', resolve(file))
      .split('\n')
      .filter(Boolean)
      .map((p) => ({ path: p.replace(/^package\//, '') })),
  };
}

/**
 * The code blocks marked for the package tests, in README.md and every docs/*.md page: a line
 * `<!-- npm-test: <file> -->` right above a fenced block. Map from the file name (what the test
 * saves the block as) to its text, exactly as the page shows it. A marker without a block under it
 * throws, and so does a name marked twice (in one page or two), so a marker cannot silently stop
 * testing anything.
 * @param {string[]} [pages] paths from the repository's root (default: README.md, docs/*.md)
 */
export function readmeBlocks(pages = docPages()) {
  const blocks = new Map();
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const m of text.matchAll(/<!-- npm-test: (\S+) -->/g)) {
      const rest = text.slice(m.index + m[0].length);
      const block = /^\n```[a-z]*\n([\s\S]*?)\n```\n/.exec(rest);
      if (!block)
        throw new Error(`${page}: the marker '${m[0]}' is not right above a fenced code block`);
      if (blocks.has(m[1])) throw new Error(`${page}: a second block is marked ${m[1]}`);
      blocks.set(m[1], block[1] + '\n');
    }
  }
  return blocks;
}
