// The documentation holds together: every relative link or picture in README.md and the Markdown
// under docs/ points at a file or folder that exists, and a #anchor into a Markdown file names one
// of its headings (by GitHub's rule for a heading's anchor). README.md stays the door (at most 150
// lines); no line of README.md or docs/*.md outside a fenced code block is over 100 characters;
// none of them points outside the repository (`../shared/`).
// Plain node, no packages: `node --test scripts/docs-links.test.mjs` (`make test-docs`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const MAX_README_LINES = 150;
const MAX_LINE = 100;

/** Every .md file under `dir`, at any depth. */
function markdownUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** README.md and every .md under docs/. */
const allFiles = [README, ...markdownUnder(DOCS)];
/** README.md and the .md files directly in docs/: the pages the line rules hold for. */
const pages = [README, ...allFiles.filter((f) => dirname(f) === DOCS)];

const show = (file) => relative(ROOT, file);

/** The file's lines, each with its number and whether it is inside a fenced code block. */
function lines(text) {
  let fence = null;
  return text.split('\n').map((line, i) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    let inFence = fence !== null;
    if (opener) {
      if (fence === null) {
        fence = opener[1];
        inFence = true;
      } else if (opener[1][0] === fence[0] && opener[1].length >= fence.length
        && line.trim() === opener[1]) {
        fence = null;
        inFence = true;
      }
    }
    return { number: i + 1, line, inFence };
  });
}

/** The text without its code: fenced blocks blanked, inline code spans removed. */
function prose(text) {
  return lines(text)
    .map(({ line, inFence }) => (inFence ? '' : line))
    .join('\n')
    .replace(/(`+)[^`]+?\1(?!`)/g, '');
}

/** The targets of the file's links and pictures, `[text](target)` and `[ref]: target`. */
function linkTargets(text) {
  const body = prose(text);
  const found = [];
  // `](` ends the text of every inline link or picture, nested ones too.
  for (const m of body.matchAll(/\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)/g)) {
    found.push(m[1].replace(/^<|>$/g, ''));
  }
  for (const m of body.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) {
    found.push(m[1].replace(/^<|>$/g, ''));
  }
  return found;
}

/** Whether a target leaves the repository's files: another scheme, or a page's own anchor. */
function isExternal(target) {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** GitHub's anchor for a heading: lower case, punctuation but hyphens (and underscores) and
 * spaces removed, spaces to hyphens; a repeated one gets -1, -2, … */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or picture: its text
    .replace(/<[^>]+>/g, '') // HTML tags
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs, and any `id`/`name` of HTML. */
const anchorsOf = (() => {
  const known = new Map();
  return (file) => {
    if (!known.has(file)) {
      const text = readFileSync(file, 'utf8');
      const anchors = new Set();
      const seen = new Map();
      for (const { line, inFence } of lines(text)) {
        if (inFence) continue;
        const h = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
        if (h) {
          const base = slug(h[1]);
          const n = seen.get(base) ?? 0;
          seen.set(base, n + 1);
          anchors.add(n === 0 ? base : `${base}-${n}`);
        }
        for (const m of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
      }
      known.set(file, anchors);
    }
    return known.get(file);
  };
})();

test('the documentation is found', () => {
  assert.ok(existsSync(README), 'README.md exists');
  assert.ok(allFiles.length > 1, 'docs/ holds Markdown files');
});

test('every relative link and picture points at something that exists', () => {
  const broken = [];
  for (const file of allFiles) {
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (target === '' || isExternal(target)) continue;
      const [pathPart, anchor] = splitAnchor(target);
      const goal = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      if (pathPart !== '' && !existsSync(goal)) {
        broken.push(`${show(file)}: ${target}: no such file or folder`);
        continue;
      }
      if (anchor === undefined || !goal.endsWith('.md') || statSync(goal).isDirectory()) continue;
      if (!anchorsOf(goal).has(decodeURIComponent(anchor).toLowerCase())) {
        broken.push(`${show(file)}: ${target}: no heading of ${show(goal)} has #${anchor}`);
      }
    }
  }
  assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
});

/** `path#anchor` as [path, anchor] (anchor undefined without a `#`); the query dropped. */
function splitAnchor(target) {
  const hash = target.indexOf('#');
  const path = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  return [path, hash < 0 ? undefined : target.slice(hash + 1)];
}

test(`README.md is at most ${MAX_README_LINES} lines`, () => {
  const text = readFileSync(README, 'utf8');
  const count = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  assert.ok(count <= MAX_README_LINES, `README.md has ${count} lines`);
});

test(`no line outside a code block is over ${MAX_LINE} characters`, () => {
  const long = [];
  for (const file of pages) {
    for (const { number, line, inFence } of lines(readFileSync(file, 'utf8'))) {
      const length = [...line].length;
      if (!inFence && length > MAX_LINE) long.push(`${show(file)}:${number}: ${length} characters`);
    }
  }
  assert.deepEqual(long, [], `lines too long:\n${long.join('\n')}`);
});

test('nothing points outside the repository (../shared/)', () => {
  const outside = [];
  for (const file of pages) {
    lines(readFileSync(file, 'utf8')).forEach(({ number, line }) => {
      if (line.includes('../shared/')) outside.push(`${show(file)}:${number}`);
    });
  }
  assert.deepEqual(outside, [], `mentions of ../shared/:\n${outside.join('\n')}`);
});

test('the anchor rule is GitHub\'s', () => {
  assert.equal(
    slug('The contract under attack (`make fuzz`)'),
    'the-contract-under-attack-make-fuzz',
  );
  assert.equal(slug('8. The staff at 100,000 orders'), '8-the-staff-at-100000-orders');
  assert.equal(slug("React's cost and what won it back"), 'reacts-cost-and-what-won-it-back');
  assert.equal(slug('Words'), 'words');
});
